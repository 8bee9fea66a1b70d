// Contact and initial-guess behaviour of VBD (penalty contact, VBD Sec. 3.5)
// and AVBD (hard contact rows, AVBD Sec. 3.2-3.3) on a dropped soft block.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "vbd_test_scenes.h"

namespace tetlab {
namespace {

using namespace vbdtest;

class VbdContact : public ::testing::TestWithParam<SolverKind> {};

// A 0.2 m soft cube dropped from 0.3 m lands and settles on the ground y = 0.
// VBD: the penalty k_c = 1e6 N/m holds a vertex of weight m g ~ 3 N at a depth
// m g / k_c ~ 3e-6 m, and the landing speed sqrt(2 g 0.3) = 2.4 m/s is stopped
// within a few substeps, so no vertex should ever be below -1e-3 m. AVBD: the hard
// rows allow no steady penetration at all.
TEST_P(VbdContact, DroppedBlockComesToRestAboveTheGround) {
  const SolverKind kind = GetParam();
  // Rayleigh damping k_d = 0.005 s lets the landing's elastic ringing die out within the
  // 2 s: the block's first mode (omega ~ pi c / L = 160 rad/s, c = sqrt(E / rho)) gets
  // zeta = k_d omega / 2 ~ 0.4 (without it the implicit-Euler numerical damping alone
  // needs ~5 s).
  const SimModel model = boxModel({-0.1f, 0.3f, -0.1f}, {0.2f, 0.2f, 0.2f}, {2, 2, 2}, Material{1e5f, 0.3f, 1000.0f, 0.005f});
  SolverSettings settings;
  settings.step.substeps = 10;
  settings.step.iterations = 8;
  State state = makeState(model);
  auto solver = makeSolver(kind);
  solver->reset(model, state);
  StepDiagnostics diag;
  float lowest = 1e30f;
  const int frames = 120;  // 2 s
  for (int f = 0; f < frames; ++f) {
    stepSimulation(model, settings, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << diag.problem;
    lowest = std::min(lowest, minY(state));
  }
  std::printf("[ measured ] %s drop: lowest vertex ever %.3g m, final max speed %.3g m/s, final min y %.3g m\n",
              nameOf(kind), lowest, maxSpeed(state), minY(state));
  EXPECT_GT(lowest, -1e-3f);
  // At rest on the ground after 2 s: the bottom within 1 mm of y = 0, slower than 1 cm/s
  // (1/240 of the landing speed).
  EXPECT_NEAR(minY(state), 0.0f, 1e-3f);
  EXPECT_LT(maxSpeed(state), 0.01);
  EXPECT_GT(vbdStatsOf(*solver).activeContacts, 0u);
  EXPECT_LT(diag.maxViolation, 1e-3f);
}

// The adaptive initial guess (VBD Sec. 3.7) starts a free-falling body at the
// inertial target y (its previous acceleration is g) and a body resting on the
// ground where it is (its previous acceleration is ~0), so in both cases the first
// iteration starts closer to the solution than the fixed choices that are wrong for it.
TEST(VbdInitialGuess, AdaptiveStartsFallingBodiesAtYAndRestingBodiesInPlace) {
  const SimModel model = boxModel({-0.1f, 0.001f, -0.1f}, {0.2f, 0.2f, 0.2f}, {2, 2, 2}, Material{1e5f, 0.3f, 1000.0f, 0.0f});
  auto firstResidualAfter = [&](VbdInitialGuess guess, bool ground, int frames) {
    SolverSettings settings;
    settings.step.substeps = 10;
    settings.step.iterations = 8;
    settings.step.constraints.collisions = ground;
    settings.vbd.initialGuess = guess;
    State state = makeState(model);
    auto solver = makeVbdSolver();
    solver->reset(model, state);
    StepDiagnostics diag;
    for (int f = 0; f < frames; ++f) stepSimulation(model, settings, *solver, state, diag);
    return diag.residualHistory.front();
  };
  // Free fall (no ground): the rigidly falling body's exact answer is y itself.
  const float fallAdaptive = firstResidualAfter(VbdInitialGuess::Adaptive, false, 10);
  const float fallPrevious = firstResidualAfter(VbdInitialGuess::PreviousPosition, false, 10);
  // Resting on the ground after 1 s.
  const float restAdaptive = firstResidualAfter(VbdInitialGuess::Adaptive, true, 60);
  const float restInertia = firstResidualAfter(VbdInitialGuess::InertiaAcceleration, true, 60);
  std::printf("[ measured ] first-iteration residual: falling adaptive %.3g vs previous %.3g m; "
              "resting adaptive %.3g vs y %.3g m\n",
              fallAdaptive, fallPrevious, restAdaptive, restInertia);
  EXPECT_LT(fallAdaptive, 1e-2f * fallPrevious);
  EXPECT_LT(restAdaptive, 0.5f * restInertia);
}

// Coulomb friction stops a sliding block within the distance v0^2 / (2 mu g)
// (0.408 m for v0 = 2 m/s, mu = 0.5). VBD: IPC-style smoothed friction, which is
// exact above eps_v (VbdParams::frictionEpsilon); AVBD: the friction rows bounded by mu |lambda_n|.
TEST_P(VbdContact, FrictionStopsASlidingBlockWhereCoulombPredicts) {
  const SolverKind kind = GetParam();
  const SimModel model = boxModel({-0.05f, 0.0f, -0.05f}, {0.1f, 0.1f, 0.1f}, {1, 1, 1}, Material{1e6f, 0.3f, 1000.0f, 0.0f});
  SolverSettings settings;
  settings.step.substeps = 10;
  settings.step.iterations = 8;
  settings.colliders.ground.friction = 0.5f;
  State state = makeState(model);
  for (auto& v : state.v) v = glm::vec4(2.0f, 0.0f, 0.0f, 0.0f);
  auto solver = makeSolver(kind);
  solver->reset(model, state);
  StepDiagnostics diag;
  auto comX = [&] {
    double x = 0.0, m = 0.0;
    for (uint32_t i = 0; i < model.vertexCount(); ++i) {
      x += model.mass[i] * state.x[i].x;
      m += model.mass[i];
    }
    return x / m;
  };
  const double x0 = comX();
  for (int f = 0; f < 90; ++f) {  // 1.5 s; Coulomb stops it after v0 / (mu g) = 0.41 s
    stepSimulation(model, settings, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << diag.problem;
  }
  const double expected = 2.0 * 2.0 / (2.0 * 0.5 * 9.81);
  const double slid = comX() - x0;
  std::printf("[ measured ] %s friction: slid %.4f m (Coulomb %.4f m), final speed %.3g m/s\n", nameOf(kind), slid,
              expected, maxSpeed(state));
  EXPECT_NEAR(slid, expected, 0.2 * expected);
  EXPECT_LT(maxSpeed(state), 0.02);  // stopped: 2 cm/s is 10% of v0 (eps_v = 1e-4 m/s is far below)
}

INSTANTIATE_TEST_SUITE_P(Solvers, VbdContact, ::testing::Values(SolverKind::Vbd, SolverKind::Avbd),
                         [](const auto& info) { return std::string(nameOf(info.param)); });

}  // namespace
}  // namespace tetlab
