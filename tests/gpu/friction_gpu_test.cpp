// The OpenCL twin of tests/cpu/friction_test.cpp: the same 20 deg slope
// (tests/friction_scenes.h), the same closed forms, on every GPU solver.
#include <gtest/gtest.h>

#include <cstdio>

#include "gpu/opencl_simulator.h"
#include "gpu_test_context.h"
#include "tests/friction_scenes.h"

namespace tetlab {
namespace {

using namespace frictiontest;

const char* nameOf(SolverKind k) {
  switch (k) {
    case SolverKind::Pbd: return "PBD";
    case SolverKind::Xpbd: return "XPBD";
    case SolverKind::Vbd: return "VBD";
    case SolverKind::Avbd: return "AVBD";
  }
  return "?";
}

class SlopeFrictionGpu : public testing::TestWithParam<SolverKind> {};

// Steps `frames` frames on the device, then reads the state back.
void runFrames(OpenClSimulator& sim, const SolverSettings& settings, int frames, State& out) {
  for (int f = 0; f < frames; ++f) {
    ASSERT_TRUE(sim.step(settings).ok());
    sim.discardTimings();
  }
  ASSERT_TRUE(sim.downloadState(out).ok());
  auto bad = sim.readBadVertex();
  ASSERT_TRUE(bad.ok());
  ASSERT_EQ(*bad, -1) << "non-finite vertex";
}

TEST_P(SlopeFrictionGpu, BlockSticksWhenMuExceedsTanTheta) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = slopeBlock();
  State state = makeState(model);
  auto sim = OpenClSimulator::create(model, state, GetParam(), ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  const SolverSettings settings = slopeSettings(GetParam(), 0.6f);
  runFrames(**sim, settings, 30, state);  // 0.5 s settling
  const double x0 = comX(model, state);
  runFrames(**sim, settings, 120, state);  // 2 s
  const double creep = comX(model, state) - x0;
  std::printf("[ measured ] OpenCL %s mu 0.6 on 20 deg: creep %.3e m in 2 s\n", nameOf(GetParam()), creep);
  EXPECT_LT(std::abs(creep), kCreepBound);
}

TEST_P(SlopeFrictionGpu, BlockSlidesTheCoulombDistanceWhenMuIsBelowTanTheta) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const float mu = 0.2f;
  const SimModel model = slopeBlock();
  State state = makeState(model);
  const double x0 = comX(model, state);
  auto sim = OpenClSimulator::create(model, state, GetParam(), ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  runFrames(**sim, slopeSettings(GetParam(), mu), 60, state);  // 1 s
  const double slid = comX(model, state) - x0, expected = coulombSlide(mu, 1.0);
  std::printf("[ measured ] OpenCL %s mu 0.2 on 20 deg: slid %.4f m in 1 s, Coulomb %.4f m (ratio %.3f)\n",
              nameOf(GetParam()), slid, expected, slid / expected);
  EXPECT_NEAR(slid, expected, kSlideTolerance * expected);
}

INSTANTIATE_TEST_SUITE_P(Solvers, SlopeFrictionGpu,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         [](const auto& info) { return std::string(nameOf(info.param)); });

// As PlaneSlope in tests/cpu/friction_test.cpp: the slope as a tilted plane
// collider under vertical gravity, on the device.
class PlaneSlopeGpu : public testing::TestWithParam<SolverKind> {};

TEST_P(PlaneSlopeGpu, BlockSticksOnATiltedPlaneWhenMuExceedsTanTheta) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = planeSlopeBlock();
  State state = makeState(model);
  auto sim = OpenClSimulator::create(model, state, GetParam(), ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  const SolverSettings settings = planeSlopeSettings(GetParam(), 0.6f);
  runFrames(**sim, settings, 30, state);  // 0.5 s settling
  const double x0 = comDownhill(model, state);
  runFrames(**sim, settings, 120, state);  // 2 s
  const double creep = comDownhill(model, state) - x0;
  std::printf("[ measured ] OpenCL %s mu 0.6 on a 20 deg plane collider: creep %.3e m in 2 s\n", nameOf(GetParam()),
              creep);
  EXPECT_LT(std::abs(creep), kCreepBound);
  EXPECT_LT(planePenetration(state), 5e-3f);
}

TEST_P(PlaneSlopeGpu, BlockSlidesTheCoulombDistanceDownATiltedPlane) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const float mu = 0.2f;
  const SimModel model = planeSlopeBlock();
  State state = makeState(model);
  const double x0 = comDownhill(model, state);
  auto sim = OpenClSimulator::create(model, state, GetParam(), ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  runFrames(**sim, planeSlopeSettings(GetParam(), mu), 60, state);  // 1 s
  const double slid = comDownhill(model, state) - x0, expected = coulombSlide(mu, 1.0);
  std::printf("[ measured ] OpenCL %s mu 0.2 on a 20 deg plane collider: slid %.4f m, Coulomb %.4f m (ratio %.3f)\n",
              nameOf(GetParam()), slid, expected, slid / expected);
  EXPECT_NEAR(slid, expected, kSlideTolerance * expected);
}

INSTANTIATE_TEST_SUITE_P(Solvers, PlaneSlopeGpu,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         [](const auto& info) { return std::string(nameOf(info.param)); });

class CornerContactGpu : public testing::TestWithParam<SolverKind> {};

// As CornerContact in tests/cpu/friction_test.cpp: a block thrown into a
// ground/wall corner stays outside both at the end of every substep.
TEST_P(CornerContactGpu, BlockPressedIntoAGroundWallCornerStaysOutsideBoth) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = cornerBlock();
  State state = makeState(model);
  for (auto& v : state.v) v = glm::vec4(kCornerSpeed, -kCornerSpeed, 0.0f, 0.0f);
  auto sim = OpenClSimulator::create(model, state, GetParam(), ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  const SolverSettings settings = cornerSettings(GetParam());
  float worst = 0.0f;
  for (int f = 0; f < 600; ++f) {  // 1 s, one substep per frame
    runFrames(**sim, settings, 1, state);
    worst = std::max(worst, cornerPenetration(state));
  }
  std::printf("[ measured ] OpenCL %s corner: deepest penetration %.3e m over 1 s\n", nameOf(GetParam()), worst);
  EXPECT_LT(worst, kCornerTolerance);
}

INSTANTIATE_TEST_SUITE_P(Solvers, CornerContactGpu,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         [](const auto& info) { return std::string(nameOf(info.param)); });

}  // namespace
}  // namespace tetlab
