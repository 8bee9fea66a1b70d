// The shared substep driver with a solver that accepts the inertial target
// (no constraints): the driver alone must give the discrete free-fall
// trajectory, keep pinned vertices still, and catch non-finite values.
#include <gtest/gtest.h>

#include <cmath>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"

namespace tetlab {
namespace {

class InertialOnlySolver final : public Solver {
 public:
  SolverKind kind() const override { return SolverKind::Pbd; }
  void reset(const SimModel&, State&) override {}
  void solveSubstep(const SimModel&, const SolverSettings&, float, State& state, StepDiagnostics& out) override {
    state.x = state.xInertial;
    if (poisonVertex >= 0) state.x[size_t(poisonVertex)].y = std::nanf("");
    out.residualHistory.push_back(0.0f);
  }
  int poisonVertex = -1;
};

SimModel smallBox() {
  BodyDesc body{makeBoxTetMesh({0, 1, 0}, {0.2f, 0.2f, 0.2f}, {1, 1, 1}), Material{}, "box"};
  return std::move(buildSimModel(std::span<const BodyDesc>(&body, 1))).value();
}

TEST(Stepper, FreeFallFollowsTheSymplecticEulerTrajectory) {
  const SimModel model = smallBox();
  State state = makeState(model);
  const glm::vec3 v0{0.3f, 2.0f, -0.1f};
  for (auto& v : state.v) v = glm::vec4(v0, 0.0f);
  SolverSettings settings;
  settings.step.dt = 0.01f;
  settings.step.substeps = 2;
  InertialOnlySolver solver;
  StepDiagnostics diag;
  const int frames = 50;
  for (int f = 0; f < frames; ++f) {
    stepSimulation(model, settings, solver, state, diag);
    ASSERT_TRUE(diag.finite);
  }
  const double h = settings.step.dt / settings.step.substeps;
  const double t = frames * settings.step.dt;
  const glm::dvec3 g = settings.step.gravity;
  EXPECT_NEAR(state.time, t, 1e-6);
  // Float rounding: each substep rounds x (|x| < 2 m) twice, by at most
  // delta = 2 * 2^-24 * 2 m. v = (x - xPrev)/h keeps each delta / h for all
  // later substeps, so after N substeps |v error| <= N delta / h and
  // |x error| <= N (N + 1) / 2 delta.
  const double N = frames * settings.step.substeps;
  const double delta = std::ldexp(1.0, -22);
  const double posTol = N * (N + 1.0) / 2.0 * delta;
  const double velTol = N * delta / h;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::dvec3 x0 = model.restPositions[i];
    // Continuous x0 + v0 t + g t^2 / 2; the substep scheme x += h v + h^2 g
    // adds g h t / 2 (first-order), which bounds the difference.
    const glm::dvec3 exact = x0 + glm::dvec3(v0) * t + 0.5 * g * t * t;
    const glm::dvec3 discrete = exact + 0.5 * g * h * t;
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(state.x[i][k], discrete[k], posTol);
      EXPECT_NEAR(state.x[i][k], exact[k], 0.5 * std::abs(g[k]) * h * t + posTol);
    }
    EXPECT_NEAR(state.v[i].y, v0.y + g.y * t, velTol);
  }
  // All vertices share one velocity (up to velTol per component), so the
  // kinetic energy is 1/2 M |v|^2.
  const double m = 1000.0 * 0.008;  // density * volume
  const glm::dvec3 v = glm::vec3(state.v[0]);
  const double expectedKinetic = 0.5 * m * glm::dot(v, v);
  EXPECT_NEAR(diag.energy.kinetic, expectedKinetic, m * glm::length(v) * std::sqrt(3.0) * 2.0 * velTol);
}

TEST(Stepper, PinnedVerticesStayAndNonFiniteValuesAreCaught) {
  const SimModel model = smallBox();
  State state = makeState(model);
  EXPECT_EQ(pinVertices(model, state, [](glm::vec3 p) { return p.x == 0.0f; }), 4u);
  EXPECT_EQ(pinnedCount(state), 4u);
  SolverSettings settings;
  InertialOnlySolver solver;
  StepDiagnostics diag;
  stepSimulation(model, settings, solver, state, diag);
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.restPositions[i].x == 0.0f) EXPECT_EQ(glm::vec3(state.x[i]), model.restPositions[i]);
  EXPECT_EQ(diag.residualHistory.size(), 1u) << "history of the last substep only";

  const State before = state;
  solver.poisonVertex = 5;
  stepSimulation(model, settings, solver, state, diag);
  EXPECT_FALSE(diag.finite);
  EXPECT_EQ(diag.badVertex, 5);
  EXPECT_NE(diag.problem.find("vertex 5"), std::string::npos) << diag.problem;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) EXPECT_EQ(state.x[i], before.x[i]) << "rolled back";

  State wrong;
  stepSimulation(model, settings, solver, wrong, diag);
  EXPECT_FALSE(diag.finite);
  EXPECT_NE(diag.problem.find("makeState"), std::string::npos);
}

}  // namespace
}  // namespace tetlab
