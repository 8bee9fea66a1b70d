// The convergence curve VBD and AVBD record on the device (VbdResidualRecorder,
// vbd_record_residual / vbd_residual_rms) against the CPU solvers'
// StepDiagnostics::residualHistory for the same frames (runVbdBoth in
// vbd_parity_util.h reads the device curve after every step).
//
// Bound: test::kMaxResidualCurveError (vbd_parity_util.h, with its reasoning).
#include "vbd_parity_util.h"

namespace tetlab {
namespace {

using test::expectSameResidualCurves;

class DeviceResidual : public testing::TestWithParam<SolverKind> {};

TEST_P(DeviceResidual, BeamCurveMatchesTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  SolverSettings s = test::vbdBeamSettings(GetParam());
  const test::VbdComparison c = test::runVbdBoth(ctx, test::vbdBeam(2.0e5f, 0.3f, 0.01f), s, 20);
  expectSameResidualCurves(c, "beam");
}

TEST_P(DeviceResidual, SlidingBlockWithContactCurveMatchesTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  SolverSettings s = test::vbdBaseSettings(GetParam());
  test::VbdScene scene;
  test::makeSlidingBlock(test::ContactSurface::Ground, 0.002f, scene, s);
  const test::VbdComparison c = test::runVbdBoth(ctx, scene, s, 20);
  expectSameResidualCurves(c, "sliding block");
}

// Recording costs one reduction launch per iteration of the step's LAST
// substep only, and leaves the step's profiling intact: every other stage keeps
// its events (an event slot taken for a launch that never happens would make
// the whole step's timings invalid).
TEST_P(DeviceResidual, OneReductionPerIterationOfTheLastSubstepAndValidTimings) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const test::VbdScene scene = test::vbdBeam();
  SolverSettings s = test::vbdBeamSettings(GetParam());
  // The reduction launches belong to the per-colour schedule (VBD's one-group
  // step reduces the curve itself, below; AVBD has only this schedule).
  s.step.gpuSchedule = GpuSchedule::PerColor;
  auto device = createDeviceState(ctx, scene.model, scene.state);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok()) << stepper.error().message;
  auto gpu = makeGpuSolver(GetParam(), ctx, scene.model, *device);
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  Profiler profiler;
  const int frames = 3;
  for (int f = 0; f < frames; ++f) ASSERT_TRUE(stepper->enqueueStep(ctx, scene.model, s, **gpu, *device, profiler).ok());
  const StepStats stats = profiler.resolve();
  if (!stats.valid && stats.totalMs == 0.0) GTEST_SKIP() << "the device gives no profiling information";
  EXPECT_TRUE(stats.valid) << "some profiled stage has no event";
  const char* stage = GetParam() == SolverKind::Vbd ? "vbd.residual" : "avbd.residual";
  ASSERT_NE(stats.find(stage), nullptr);
  EXPECT_EQ(stats.find(stage)->launches, uint32_t(frames * std::max(s.step.iterations, 1)));
  auto curve = (*gpu)->readResidualHistory(ctx);
  ASSERT_TRUE(curve.ok());
  EXPECT_EQ(curve->size(), size_t(std::max(s.step.iterations, 1)));
}

INSTANTIATE_TEST_SUITE_P(VbdFamily, DeviceResidual, testing::Values(SolverKind::Vbd, SolverKind::Avbd),
                         [](const testing::TestParamInfo<SolverKind>& info) {
                           return std::string(info.param == SolverKind::Vbd ? "VBD" : "AVBD");
                         });

// VBD's one-group step (vbd_step_group) reduces each iteration's RMS inside
// its own launch: no reduction launches, the step's timings stay valid (its
// one launch is profiled under the solve), and the curve still has one value
// per iteration of the last substep.
TEST(DeviceResidual, OneGroupStepReducesTheCurveItselfWithValidTimings) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const test::VbdScene scene = test::vbdBeam();
  SolverSettings s = test::vbdBeamSettings(SolverKind::Vbd);
  s.step.gpuSchedule = GpuSchedule::OneGroup;
  auto device = createDeviceState(ctx, scene.model, scene.state);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok()) << stepper.error().message;
  auto gpu = makeGpuSolver(SolverKind::Vbd, ctx, scene.model, *device);
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  Profiler profiler;
  for (int f = 0; f < 3; ++f) ASSERT_TRUE(stepper->enqueueStep(ctx, scene.model, s, **gpu, *device, profiler).ok());
  const StepStats stats = profiler.resolve();
  if (!stats.valid && stats.totalMs == 0.0) GTEST_SKIP() << "the device gives no profiling information";
  EXPECT_TRUE(stats.valid) << "some profiled stage has no event";
  const StageTime* reduction = stats.find("vbd.residual");
  EXPECT_TRUE(reduction == nullptr || reduction->launches == 0u);
  ASSERT_NE(stats.find("vbd.group"), nullptr);
  EXPECT_EQ(stats.find("vbd.group")->launches, 3u) << "one launch per step";
  auto curve = (*gpu)->readResidualHistory(ctx);
  ASSERT_TRUE(curve.ok());
  ASSERT_EQ(curve->size(), size_t(s.step.iterations));
  for (float r : *curve) EXPECT_GT(r, 0.0f) << "every iteration of the beam leaves a residual";
}

// PBD and XPBD do not measure it on the device: the sandbox shows their curves
// on the CPU reference only, and says so.
TEST(DeviceResidual, PositionBasedSolversDoNotClaimADeviceCurve) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const test::VbdScene scene = test::vbdBeam();
  auto device = createDeviceState(ctx, scene.model, scene.state);
  ASSERT_TRUE(device.ok()) << device.error().message;
  for (SolverKind kind : {SolverKind::Pbd, SolverKind::Xpbd}) {
    auto gpu = makeGpuSolver(kind, ctx, scene.model, *device);
    ASSERT_TRUE(gpu.ok()) << gpu.error().message;
    EXPECT_FALSE((*gpu)->measuresResidual());
    auto curve = (*gpu)->readResidualHistory(ctx);
    ASSERT_TRUE(curve.ok());
    EXPECT_TRUE(curve->empty());
  }
}

}  // namespace
}  // namespace tetlab
