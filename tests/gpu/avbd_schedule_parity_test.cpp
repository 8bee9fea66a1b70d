// The two OpenCL AVBD schedules (gpu/solvers/vbd_schedule.h) against the CPU
// reference, forced one at a time: the per-colour launches, and one
// work-group (avbd_solve_group, shaders/cl/avbd_group.clh) that runs the whole
// step through the stepper here (no body-contact detection: predict, begin,
// initial guess, the primal sweep over every colour and the dual update of
// every row kind, velocity); with detection it runs a substep's iterations
// (BodyContactAvbdParity.*). Both run the same per-vertex and per-row functions, so each
// must meet avbd_parity_test.cpp's bounds (positions, and the rows row by row)
// on the scenes that exercise every row kind the group walks: hard pins, hard
// edges and a hard mouse; hard contacts with friction; and the residual curve
// it reduces in the group.
#include "vbd_parity_util.h"

namespace tetlab {
namespace {

using test::runVbdBoth;
using test::VbdComparison;

constexpr double kMaxRelativeError = 1e-4;  // as avbd_parity_test.cpp, same reasoning

TEST(AvbdScheduleParity, HardPinsEdgesAndMouseOnEverySchedule) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (GpuSchedule schedule : test::kForcedSchedules) {
    SCOPED_TRACE(test::scheduleName(schedule));
    SolverSettings s = test::avbdHardRowsBeamSettings();
    s.step.gpuSchedule = schedule;
    test::VbdScene scene = test::vbdBeam(5.0e4f);
    test::attachMouseToTipTet(scene, 1.0e4f, 50.0f);
    VbdComparison c = runVbdBoth(ctx, scene, s);
    EXPECT_VBD_PARITY(c, 0.01, kMaxRelativeError);
    EXPECT_ROWS_MATCH(c);
    // The curve of each frame's last substep (reduced in the group on one_group).
    test::expectSameResidualCurves(c, test::scheduleName(schedule));
  }
}

TEST(AvbdScheduleParity, BlockSlidingWithHardContactsAndFrictionOnEverySchedule) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (GpuSchedule schedule : test::kForcedSchedules) {
    SCOPED_TRACE(test::scheduleName(schedule));
    SolverSettings s = test::vbdBaseSettings(SolverKind::Avbd);
    test::VbdScene scene;
    test::makeSlidingBlock(test::ContactSurface::TiltedBox, 0.002f, scene, s);
    s.step.gpuSchedule = schedule;
    VbdComparison c = runVbdBoth(ctx, scene, s);
    EXPECT_VBD_PARITY(c, 0.03, kMaxRelativeError);
    EXPECT_ROWS_MATCH(c);
  }
}

}  // namespace
}  // namespace tetlab
