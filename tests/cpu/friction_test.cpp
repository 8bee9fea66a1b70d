// Coulomb friction on a 20 deg slope (tests/friction_scenes.h) on every CPU
// solver at 8 iterations: at mu = 0.6 > tan 20 deg the block must not creep
// (less than 1 mm in 2 s after 0.5 s of settling), at mu = 0.2 it slides the
// closed-form distance g (sin theta - mu cos theta) t^2 / 2.
#include <gtest/gtest.h>

#include "tests/cpu/physics_scenes.h"
#include "tests/friction_scenes.h"

namespace tetlab {
namespace {

using namespace frictiontest;

class SlopeFriction : public testing::TestWithParam<SolverKind> {};

TEST_P(SlopeFriction, BlockSticksWhenMuExceedsTanTheta) {
  const SimModel model = slopeBlock();
  const SolverSettings settings = slopeSettings(GetParam(), 0.6f);
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  ASSERT_TRUE(phystest::run(model, settings, *solver, state, 30, diag));  // 0.5 s settling
  const double x0 = comX(model, state);
  ASSERT_TRUE(phystest::run(model, settings, *solver, state, 120, diag));  // 2 s
  const double creep = comX(model, state) - x0;
  std::printf("[ measured ] %s mu 0.6 on 20 deg: creep %.3e m in 2 s\n", phystest::solverName(GetParam()), creep);
  EXPECT_LT(std::abs(creep), kCreepBound);
}

TEST_P(SlopeFriction, BlockSlidesTheCoulombDistanceWhenMuIsBelowTanTheta) {
  const float mu = 0.2f;
  const SimModel model = slopeBlock();
  const SolverSettings settings = slopeSettings(GetParam(), mu);
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  const double x0 = comX(model, state);
  ASSERT_TRUE(phystest::run(model, settings, *solver, state, 60, diag));  // 1 s
  const double slid = comX(model, state) - x0, expected = coulombSlide(mu, 1.0);
  std::printf("[ measured ] %s mu 0.2 on 20 deg: slid %.4f m in 1 s, Coulomb %.4f m (ratio %.3f)\n",
              phystest::solverName(GetParam()), slid, expected, slid / expected);
  EXPECT_NEAR(slid, expected, kSlideTolerance * expected);
}

INSTANTIATE_TEST_SUITE_P(Solvers, SlopeFriction,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

// The slope made by an infinite plane collider with an arbitrary normal under
// vertical gravity (tests/friction_scenes.h): the same closed forms as the
// tilted-gravity slope, and the block stays on the plane's free side.
class PlaneSlope : public testing::TestWithParam<SolverKind> {};

TEST_P(PlaneSlope, BlockSticksOnATiltedPlaneWhenMuExceedsTanTheta) {
  const SimModel model = planeSlopeBlock();
  const SolverSettings settings = planeSlopeSettings(GetParam(), 0.6f);
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  ASSERT_TRUE(phystest::run(model, settings, *solver, state, 30, diag));  // 0.5 s settling
  const double x0 = comDownhill(model, state);
  ASSERT_TRUE(phystest::run(model, settings, *solver, state, 120, diag));  // 2 s
  const double creep = comDownhill(model, state) - x0;
  std::printf("[ measured ] %s mu 0.6 on a 20 deg plane collider: creep %.3e m in 2 s, penetration %.2e m\n",
              phystest::solverName(GetParam()), creep, planePenetration(state));
  EXPECT_LT(std::abs(creep), kCreepBound);
  // Penetration: within the solvers' contact tolerance (VBD's penalty and thickness: a few mm at most).
  EXPECT_LT(planePenetration(state), 5e-3f);
}

TEST_P(PlaneSlope, BlockSlidesTheCoulombDistanceDownATiltedPlane) {
  const float mu = 0.2f;
  const SimModel model = planeSlopeBlock();
  const SolverSettings settings = planeSlopeSettings(GetParam(), mu);
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  const double x0 = comDownhill(model, state);
  ASSERT_TRUE(phystest::run(model, settings, *solver, state, 60, diag));  // 1 s
  const double slid = comDownhill(model, state) - x0, expected = coulombSlide(mu, 1.0);
  std::printf("[ measured ] %s mu 0.2 on a 20 deg plane collider: slid %.4f m in 1 s, Coulomb %.4f m (ratio %.3f)\n",
              phystest::solverName(GetParam()), slid, expected, slid / expected);
  EXPECT_NEAR(slid, expected, kSlideTolerance * expected);
}

INSTANTIATE_TEST_SUITE_P(Solvers, PlaneSlope,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

class CornerContact : public testing::TestWithParam<SolverKind> {};

// A block thrown into a ground/wall corner (tests/friction_scenes.h) stays
// outside both colliders (within kCornerTolerance) at the end of every substep.
TEST_P(CornerContact, BlockPressedIntoAGroundWallCornerStaysOutsideBoth) {
  const SimModel model = cornerBlock();
  const SolverSettings settings = cornerSettings(GetParam());
  State state = makeState(model);
  for (auto& v : state.v) v = glm::vec4(kCornerSpeed, -kCornerSpeed, 0.0f, 0.0f);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  float worst = 0.0f;
  for (int f = 0; f < 600; ++f) {  // 1 s, one substep per frame
    ASSERT_TRUE(phystest::run(model, settings, *solver, state, 1, diag));
    worst = std::max(worst, cornerPenetration(state));
  }
  std::printf("[ measured ] %s corner: deepest penetration %.3e m over 1 s\n",
              phystest::solverName(GetParam()), worst);
  EXPECT_LT(worst, kCornerTolerance);
}

// AVBD gives the vertex one row per collider within its margin (up to
// AVBD_CONTACT_ROWS); with one row (the nearest) it sank 0.92 mm into the wall.
INSTANTIATE_TEST_SUITE_P(Solvers, CornerContact,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

}  // namespace
}  // namespace tetlab
