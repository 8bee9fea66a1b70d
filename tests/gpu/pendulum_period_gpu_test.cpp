// The stiff pendulum of tests/cpu/pendulum_period_test.cpp on the OpenCL
// backend: the device's initial guess is the same shared function
// (common/vbd_initial_guess.clh, with the body's pins in the history word the
// host seeds on reset), so the period must meet the same 5 %.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/scene/enum_names.h"
#include "gpu/solvers/opencl_simulator.h"
#include "gpu_test_context.h"
#include "tests/pendulum_scene.h"
#include "tests/preset_files.h"

namespace tetlab {
namespace {

void expectDevicePeriod(const ClContext& ctx, SolverKind kind, int iterations) {
  Result<BuiltScene> built = test::buildPresetDesc(test::pendulumScene(kind, 10, iterations));
  ASSERT_TRUE(built.ok());
  const SimModel& model = built->scene.model;
  const SolverSettings& s = built->scene.settings;
  State state = makeInitialState(*built);
  const double reference = test::pendulumReferencePeriod(model, state, -double(s.step.gravity.y));
  auto sim = OpenClSimulator::create(model, state, kind, ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  double largest = 0.0;
  const double period = test::measurePendulumPeriod(model, state, double(s.step.dt), 420, &largest, [&](State& st) {
    const bool ok = (*sim)->step(s).ok() && (*sim)->downloadState(st).ok();
    EXPECT_TRUE(ok);
    return ok;
  });
  std::printf("[ measured ] OpenCL stiff pendulum on %s (%d x %d): period %.4f s, reference %.4f s (%.3fx), largest "
              "swing %.3f deg\n",
              solverName(kind), s.step.substeps, s.step.iterations, period, reference, period / reference,
              largest * 180.0 / M_PI);
  ASSERT_FALSE(std::isnan(period)) << "fewer than three zero crossings in 7 s";
  EXPECT_NEAR(period / reference, 1.0, 0.05);
  EXPECT_LE(largest, (test::kPendulumAmplitudeDegrees + 0.05) * M_PI / 180.0);
}

TEST(PendulumPeriodGpu, StiffBarSwingsAtItsPeriodOnVbdAndAvbd) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  expectDevicePeriod(ctx, SolverKind::Vbd, 4);
  expectDevicePeriod(ctx, SolverKind::Avbd, 4);
  expectDevicePeriod(ctx, SolverKind::Vbd, 20);  // AVBD at 10 x 20: the CPU suite
}

}  // namespace
}  // namespace tetlab
