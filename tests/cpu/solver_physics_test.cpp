// Cross-solver invariants: free fall, momentum, long-run stability.
#include <gtest/gtest.h>

#include <random>

#include "core/sim/presets.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

using namespace phystest;

class EverySolver : public testing::TestWithParam<SolverKind> {};

// Free fall with no constraints: every solver must reproduce the substep
// scheme's exact trajectory
//   x_n = x0 + v0 t + g t^2 / 2 + g h t / 2     (x += h v + h^2 g; v = (x - xPrev) / h)
// within float rounding (see stepper_test.cpp for the bound), which is itself
// within g h t / 2 of the continuous parabola.
TEST_P(EverySolver, FreeFallMatchesTheParabola) {
  const SimModel model = buildBox({-0.05f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}, Material{1e5f, 0.3f, 1000, 0});
  SolverSettings settings;
  settings.solver = GetParam();
  settings.step.substeps = 2;
  settings.step.iterations = 4;
  settings.step.constraints = {};
  settings.step.constraints.neoHookean = false;
  settings.step.constraints.collisions = false;
  State state = makeState(model);
  const glm::vec3 v0{0.5f, 1.0f, -0.25f};
  for (auto& v : state.v) v = glm::vec4(v0, 0.0f);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  const int frames = 30;
  ASSERT_TRUE(run(model, settings, *solver, state, frames, diag));
  const double h = settings.step.dt / settings.step.substeps, t = frames * settings.step.dt;
  const glm::dvec3 g = settings.step.gravity;
  const double N = frames * settings.step.substeps;
  const double delta = std::ldexp(1.0, -22);  // two roundings of |x| < 2 m per substep
  const double tol = N * (N + 1.0) / 2.0 * delta;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::dvec3 x0 = model.restPositions[i];
    const glm::dvec3 parabola = x0 + glm::dvec3(v0) * t + 0.5 * g * t * t;
    const glm::dvec3 discrete = parabola + 0.5 * g * h * t;
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(state.x[i][k], discrete[k], tol) << solverName(GetParam()) << " vertex " << i;
      EXPECT_NEAR(state.x[i][k], parabola[k], 0.5 * std::abs(g[k]) * h * t + tol);
    }
  }
}

// The same fall with the default elastic constraints on (default substeps):
// internal forces cancel in the sum, so the centre of mass follows the same
// trajectory, and a body at its rest shape stays there.
TEST_P(EverySolver, FreeFallWithElasticityKeepsTheCentreOfMassOnTheParabola) {
  const SimModel model = buildBox({-0.05f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}, Material{1e5f, 0.3f, 1000, 0});
  SolverSettings settings;
  settings.solver = GetParam();
  settings.step.constraints.collisions = false;
  State state = makeState(model);
  const glm::dvec3 c0 = centerOfMass(model, state);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  const int frames = 30;
  ASSERT_TRUE(run(model, settings, *solver, state, frames, diag));
  const double h = settings.step.dt / settings.step.substeps, t = frames * settings.step.dt;
  const double N = frames * settings.step.substeps;
  const double tol = N * (N + 1.0) / 2.0 * std::ldexp(1.0, -22);
  const glm::dvec3 g = settings.step.gravity;
  const glm::dvec3 expected = c0 + 0.5 * g * t * t + 0.5 * g * h * t;
  const glm::dvec3 c = centerOfMass(model, state);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(c[k], expected[k], tol) << solverName(GetParam());
  double shapeError = 0.0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    shapeError = std::max(shapeError, glm::length(glm::dvec3(glm::vec3(state.x[i])) - c -
                                                  (glm::dvec3(model.restPositions[i]) - c0)));
  EXPECT_LT(shapeError, tol) << solverName(GetParam()) << ": the rest shape must be kept while falling";
}

// The default scene (drop preset, default settings) for 10 000 frames: no
// NaN, and the total energy never exceeds its initial value (gravity is the
// only source; contact, damping and the implicit schemes only dissipate) by
// more than 1% of the drop's potential energy m g h.
TEST_P(EverySolver, DefaultSceneRunsTenThousandStepsWithBoundedEnergy) {
  PresetOptions options;
  options.material = presetDefaultMaterial("drop");
  options.cellsThick = 1;
  Scene scene = std::move(makePresetScene("drop", options)).value();
  SolverSettings settings = scene.settings;
  settings.solver = GetParam();
  State state = makeSceneState(scene);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(scene.model, state);
  StepDiagnostics diag;
  stepSimulation(scene.model, settings, *solver, state, diag);
  const double e0 = diag.energy.total() + 0.0;
  const double mgh = totalMass(scene.model) * 9.81 * 0.5;
  double worst = -INFINITY;
  for (int f = 1; f < 10000; ++f) {
    stepSimulation(scene.model, settings, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << solverName(GetParam()) << " frame " << f << ": " << diag.problem;
    worst = std::max(worst, diag.energy.total());
  }
  std::printf("%s: 10000 steps, max total energy %.4f J vs initial %.4f J (m g h = %.3f J), final min y %.2e m\n",
              solverName(GetParam()), worst, e0, mgh, minY(state));
  EXPECT_LE(worst, e0 + 0.01 * mgh);
  EXPECT_GT(minY(state), -1e-3f);
}

INSTANTIATE_TEST_SUITE_P(Solvers, EverySolver,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         paramName);

// Internal forces only (no gravity, no contact): position-based projections
// move the corners of each constraint by w_i gradC_i s with sum_i gradC_i = 0
// (translation invariance), so sum m_i dx_i = 0 exactly in real arithmetic:
// the momentum P = sum m_i v_i and the centre of mass line COM(0) + P0 t / M
// are kept. In float32 every position update rounds x by up to ulp(|x|)/2 and
// v = (x - xPrev)/h divides that by h; once the random internal motion has
// been projected out and the body moves rigidly, the remaining corrections are
// rounding-sized and partly lost, which drifts P by ~1e-6 relative per substep
// (measured; docs/solvers.md). So the check covers the deforming phase: 10
// frames, the body moving fast (|V| = 1.9 m/s) relative to its internal
// velocities (+-0.5 m/s), 2 substeps of 2 iterations.
class PositionBasedSolver : public testing::TestWithParam<SolverKind> {};

TEST_P(PositionBasedSolver, ConservesLinearMomentum) {
  const SimModel model = buildBox({-0.05f, -0.05f, -0.05f}, glm::vec3(0.1f), {3, 3, 3}, Material{1e4f, 0.3f, 1000, 0});
  SolverSettings settings;
  settings.solver = GetParam();
  settings.step.gravity = glm::vec3(0.0f);
  // Soft (E = 1e4 Pa: shear wave speed 2 m/s, 17 ms across a 3.3 cm cell), so
  // h = 8.3 ms is inside XPBD's explicit shear limit (cantilever_test.cpp) and
  // the body keeps deforming instead of turning rigid.
  settings.step.substeps = 2;
  settings.step.iterations = 2;
  settings.step.constraints.collisions = false;
  settings.step.constraints.edges = true;  // springs too, so several families exchange momentum
  State state = makeState(model);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  for (auto& v : state.v) v = glm::vec4(1.5f + u(rng), 1.0f + u(rng), -0.5f + u(rng), 0.0f);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  const glm::dvec3 p0 = linearMomentum(model, state);
  const glm::dvec3 c0 = centerOfMass(model, state);
  const double M = totalMass(model);
  StepDiagnostics diag;
  double worstP = 0.0, worstCom = 0.0, elasticSeen = 0.0;
  for (int f = 1; f <= 10; ++f) {
    ASSERT_TRUE(run(model, settings, *solver, state, 1, diag));
    const glm::dvec3 travel = p0 / M * (f * double(settings.step.dt));
    worstCom = std::max(worstCom, glm::length(centerOfMass(model, state) - c0 - travel) / glm::length(travel));
    worstP = std::max(worstP, glm::length(linearMomentum(model, state) - p0) / glm::length(p0));
    elasticSeen = std::max(elasticSeen, diag.energy.elastic);
  }
  std::printf("%s: max momentum change %.2e relative, centre of mass off its line by %.2e relative (elastic energy "
              "reached %.3e J)\n",
              solverName(GetParam()), worstP, worstCom, elasticSeen);
  // The random velocities (1/2 M <|u|^2> = 0.125 J) must deform the body, without blowing it up.
  EXPECT_GT(elasticSeen, 0.0);
  EXPECT_LT(elasticSeen, 0.125);
  EXPECT_LT(worstP, 1e-5);
  EXPECT_LT(worstCom, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(Solvers, PositionBasedSolver, testing::Values(SolverKind::Pbd, SolverKind::Xpbd),
                         paramName);

}  // namespace
}  // namespace tetlab
