// XPBD's defining property (Macklin et al. 2016 Sec. 3-4): a mass m hanging
// on a spring of compliance alpha settles at the stretch m g alpha whatever the
// iteration count, while PBD's stretch depends on it.
//
// Hand-built model: one edge, vertex 0 pinned, vertex 1 (mass m) below it.
// Steady state of one substep h with n iterations (stretch s, no velocity):
//   XPBD: predict s + h^2 g, then dlambda = -C / (w + alphaTilde) makes
//         s (w + alphaTilde) = (s + h^2 g) alphaTilde  =>  s = m g alpha   (any n)
//   PBD with a fixed per-iteration k: s = q (s + h^2 g), q = (1 - k)^n
//         =>  s = q h^2 g / (1 - q)                                      (depends on n)
#include <gtest/gtest.h>

#include <cmath>

#include "core/cpu/pbd_solver.h"
#include "core/cpu/xpbd_solver.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"

namespace tetlab {
namespace {

constexpr float kLength = 1.0f;     // rest length [m]
constexpr float kMass = 1.0f;       // hanging mass [kg]
constexpr float kStiffness = 100.0f;  // spring k = 1/alpha [N/m]

// Two vertices, one edge, no tets. The edge stiffness comes from the material
// mapping (edgeSpringStiffness = 6 E V_e / L^2), so pick V_e to give kStiffness.
SimModel springModel() {
  SimModel m;
  // Around the origin: float positions then resolve the per-substep motion
  // h^2 g to ~1e4 ulps (at |x| ~ 1 m and 10 substeps it would be ~200 ulps,
  // and rounding alone would bias the stretch by ~0.5%).
  m.restPositions = {{0.0f, 0.5f * kLength, 0.0f}, {0.0f, -0.5f * kLength, 0.0f}};
  m.mass = {1.0f, kMass};
  m.vertexBody = {0, 0};
  m.edges = {{0, 1}};
  m.restLength = {kLength};
  Material material;
  material.youngsModulus = 1.0e4f;
  m.edgeVolume = {kStiffness * kLength * kLength / (6.0f * material.youngsModulus)};
  m.edgeColors.offsets = {0, 1};
  m.tetColors.offsets = {0};
  m.vertexColorOrder = {0, 1};
  m.vertexColors.offsets = {0, 2};
  m.materials = {material};
  return m;
}

SolverSettings springSettings(int iterations) {
  SolverSettings s;
  s.step.dt = 1.0f / 60.0f;
  s.step.substeps = 2;
  s.step.iterations = iterations;
  s.step.velocityDamping = 4.0f;  // settles the 1.6 Hz oscillation within the run: e^{-4 * 10 / 2}
  s.step.constraints = {};
  s.step.constraints.edges = true;
  s.step.constraints.neoHookean = false;
  s.step.constraints.collisions = false;
  return s;
}

float settledStretch(Solver& solver, const SolverSettings& settings) {
  const SimModel model = springModel();
  State state = makeState(model);
  const uint32_t pin[] = {0};
  pinVertices(state, pin);
  solver.reset(model, state);
  StepDiagnostics diag;
  for (int f = 0; f < 600; ++f) {  // 10 s
    stepSimulation(model, settings, solver, state, diag);
    EXPECT_TRUE(diag.finite);
  }
  return glm::length(glm::vec3(state.x[1]) - glm::vec3(state.x[0])) - kLength;
}

TEST(XpbdSpring, SettlesAtMgAlphaForAnyIterationCount) {
  const float expected = kMass * 9.81f / kStiffness;  // m g alpha = 0.0981 m
  for (int iterations : {5, 50}) {
    auto solver = makeXpbdSolver();
    const float s = settledStretch(*solver, springSettings(iterations));
    EXPECT_NEAR(s, expected, 0.01f * expected) << iterations << " iterations";
    std::printf("XPBD %2d iterations: stretch %.5f m (m g alpha = %.5f m)\n", iterations, s, expected);
  }
}

TEST(XpbdSpring, PbdStretchDependsOnIterationsUnlessMapped) {
  const float g = 9.81f;
  const float h = (1.0f / 60.0f) / 2.0f;
  const float f = 60.0f;  // PbdParams::referenceRate default
  // k_ref(f) = w / (w + alpha f^2) with w = 1/m (vertex 0 pinned).
  const double kRef = (1.0 / kMass) / (1.0 / kMass + (1.0 / kStiffness) * f * f);
  float perIteration[2];
  int idx = 0;
  for (int n : {5, 50}) {
    SolverSettings settings = springSettings(n);
    settings.pbd.mapping = PbdStiffnessMapping::PerIteration;
    auto solver = makePbdSolver();
    const float s = settledStretch(*solver, settings);
    const double q = std::pow(1.0 - kRef, n);
    const double expected = q * h * h * g / (1.0 - q);
    EXPECT_NEAR(s, expected, 0.01 * expected) << n << " iterations";
    perIteration[idx++] = s;
    std::printf("PBD per-iteration k, %2d iterations: stretch %.3g m (steady state %.3g m)\n", n, s, expected);
  }
  EXPECT_GT(perIteration[0], 5.0f * perIteration[1]) << "PBD stiffens with iterations";

  // The log-stiffness mapping makes an isolated constraint iteration-independent:
  // (1 - k)^n = (1 - k_ref)^(f h), and MatchXpbd puts it where XPBD does.
  const double qFreq = std::pow(1.0 - kRef, double(f) * h);
  const double expectedFreq = qFreq * h * h * g / (1.0 - qFreq);
  for (int n : {5, 50}) {
    SolverSettings settings = springSettings(n);
    settings.pbd.mapping = PbdStiffnessMapping::FrequencyIndependent;
    auto solver = makePbdSolver();
    const float s = settledStretch(*solver, settings);
    EXPECT_NEAR(s, expectedFreq, 0.01 * expectedFreq) << n << " iterations";
    settings.pbd.mapping = PbdStiffnessMapping::MatchXpbd;
    auto matched = makePbdSolver();
    const float sm = settledStretch(*matched, settings);
    EXPECT_NEAR(sm, kMass * g / kStiffness, 0.01 * kMass * g / kStiffness) << n << " iterations";
    std::printf("PBD %2d iterations: frequency-independent %.4g m (expected %.4g), matched to XPBD %.4f m\n", n, s,
                expectedFreq, sm);
  }
}

}  // namespace
}  // namespace tetlab
