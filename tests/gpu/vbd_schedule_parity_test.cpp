// The two OpenCL VBD schedules (gpu/solvers/vbd_schedule.h) against the CPU
// reference, forced one at a time: one launch per colour, and the whole step
// in one work-group (shaders/cl/vbd_group.clh, where the predict and velocity
// update run inside the kernel too). Both run the same per-vertex functions in
// the same order, so each must meet the bounds of vbd_parity_test.cpp (which
// runs the automatic choice) on the scenes that exercise every term the group
// kernel walks itself: the initial guess, Chebyshev, the mouse offset, the
// colliders with friction, and the residual curve it reduces in the group.
#include "vbd_parity_util.h"

namespace tetlab {
namespace {

using test::runVbdBoth;
using test::VbdComparison;

constexpr double kMaxRelativeError = 1e-4;  // as vbd_parity_test.cpp, same reasoning

TEST(VbdScheduleParity, ChebyshevBeamWithTheMouseOnEverySchedule) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (GpuSchedule schedule : test::kForcedSchedules) {
    SCOPED_TRACE(test::scheduleName(schedule));
    SolverSettings s = test::vbdBeamSettings(SolverKind::Vbd);
    s.step.gpuSchedule = schedule;
    s.step.iterations = 8;
    s.step.constraints.edges = true;
    s.vbd.accelerate = true;
    s.vbd.chebyshevRho = 0.8f;
    s.vbd.initialGuess = VbdInitialGuess::Adaptive;
    test::VbdScene scene = test::vbdBeam(5.0e4f);
    test::attachMouseToTipTet(scene, 2.0e3f, 1.0e3f);
    VbdComparison c = runVbdBoth(ctx, scene, s);
    EXPECT_VBD_PARITY(c, 0.05, kMaxRelativeError);
    // The curve of each frame's last substep, which the group reduces itself.
    test::expectSameResidualCurves(c, test::scheduleName(schedule));
  }
}

TEST(VbdScheduleParity, BlockSlidingOnTheGroundWithFrictionOnEverySchedule) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (GpuSchedule schedule : test::kForcedSchedules) {
    SCOPED_TRACE(test::scheduleName(schedule));
    SolverSettings s = test::vbdBaseSettings(SolverKind::Vbd);
    test::VbdScene scene;
    test::makeSlidingBlock(test::ContactSurface::Ground, 0.002f, scene, s);
    s.step.gpuSchedule = schedule;
    VbdComparison c = runVbdBoth(ctx, scene, s);
    EXPECT_VBD_PARITY(c, 0.03, kMaxRelativeError);
  }
}

// Two attached vertices of one colour: both schedules read the offset
// snapshot taken before the colour, so both converge to the CPU's order as the
// iterations do (vbd_parity_test.cpp explains the difference).
TEST(VbdScheduleParity, MouseOnTwoVerticesOfOneColourOnEverySchedule) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (GpuSchedule schedule : test::kForcedSchedules) {
    SCOPED_TRACE(test::scheduleName(schedule));
    SolverSettings s = test::vbdBeamSettings(SolverKind::Vbd);
    s.step.gpuSchedule = schedule;
    s.step.constraints.edges = true;
    test::VbdScene scene = test::vbdBeam(5.0e4f);
    const std::vector<uint32_t> pair = test::sameColourTipPair(scene.model);
    ASSERT_EQ(pair.size(), 2u);
    test::attachMouse(scene, pair, {0.5f, 0.5f}, glm::vec3(0.0f, 0.3f, 0.2f), 2.0e3f, 1.0e3f);
    VbdComparison c = runVbdBoth(ctx, scene, s);
    EXPECT_VBD_PARITY(c, 0.05, kMaxRelativeError);
  }
}

}  // namespace
}  // namespace tetlab
