// The OpenCL twin of tests/cpu/friction_test.cpp: the same 20 deg slope
// (tests/friction_scenes.h), the same closed forms, on every GPU solver.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <tuple>

#include "gpu/solvers/opencl_simulator.h"
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

// Both slopes (SlopeMade) on every GPU solver.
class SlopeFrictionGpu : public testing::TestWithParam<std::tuple<SolverKind, SlopeMade>> {
 protected:
  SolverKind kind() const { return std::get<0>(GetParam()); }
  SlopeMade how() const { return std::get<1>(GetParam()); }
};

TEST_P(SlopeFrictionGpu, BlockSticksWhenMuExceedsTanTheta) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = slopeBlock(how());
  State state = makeState(model);
  auto sim = OpenClSimulator::create(model, state, kind(), ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  const SolverSettings settings = slopeSettings(kind(), 0.6f, how());
  runFrames(**sim, settings, 30, state);  // 0.5 s settling
  const double x0 = comDownhill(model, state, how());
  runFrames(**sim, settings, 120, state);  // 2 s
  const double creep = comDownhill(model, state, how()) - x0;
  std::printf("[ measured ] OpenCL %s mu 0.6 on 20 deg (%s): creep %.3e m in 2 s\n", nameOf(kind()),
              slopeMadeName(how()), creep);
  EXPECT_LT(std::abs(creep), kCreepBound);
  EXPECT_LT(slopePenetration(state, how()), kSlopePenetrationBound);
}

TEST_P(SlopeFrictionGpu, BlockSlidesTheCoulombDistanceWhenMuIsBelowTanTheta) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const float mu = 0.2f;
  const SimModel model = slopeBlock(how());
  State state = makeState(model);
  const double x0 = comDownhill(model, state, how());
  auto sim = OpenClSimulator::create(model, state, kind(), ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  runFrames(**sim, slopeSettings(kind(), mu, how()), 60, state);  // 1 s
  const double slid = comDownhill(model, state, how()) - x0, expected = coulombSlide(mu, 1.0);
  std::printf("[ measured ] OpenCL %s mu 0.2 on 20 deg (%s): slid %.4f m in 1 s, Coulomb %.4f m (ratio %.3f)\n",
              nameOf(kind()), slopeMadeName(how()), slid, expected, slid / expected);
  EXPECT_NEAR(slid, expected, kSlideTolerance * expected);
}

INSTANTIATE_TEST_SUITE_P(Solvers, SlopeFrictionGpu,
                         testing::Combine(testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd,
                                                          SolverKind::Avbd),
                                          testing::Values(SlopeMade::TiltedGravity, SlopeMade::PlaneCollider)),
                         [](const auto& info) {
                           return std::string(nameOf(std::get<0>(info.param))) + "_" +
                                  slopeMadeName(std::get<1>(info.param));
                         });

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
