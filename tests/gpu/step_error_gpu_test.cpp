// The common error measure on OpenCL (core/sim/step_error.h): the device's
// read-back state goes through the same function as the CPU reference's, so
// the two backends report the same number for the same step, on every solver.
#include <gtest/gtest.h>

#include <cmath>

#include "core/scene/enum_names.h"
#include "core/sim/solver.h"
#include "core/sim/step_error.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/opencl_simulator.h"
#include "clamped_beam.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

class StepErrorGpu : public ::testing::TestWithParam<SolverKind> {};

// The clamped beam at a small budget (5 x 3) and at a large one (5 x 60):
// the first is far from each step's answer, the second close to it.
// Position parity between the backends is a few ulps per step (the parity
// tests' bound), and the measure is linear in the residual it is taken
// from, so the device's error is the CPU's to 10 % wherever it is well
// above its float floor; the verdict (off its answer or not) is the same.
TEST_P(StepErrorGpu, DeviceReadBackMeasuresWhatTheCpuReferenceMeasures) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  Material m;
  m.youngsModulus = 2.0e5f;
  for (int iterations : {3, 60}) {
    test::BeamScene scene = test::clampedBeam(m);
    SolverSettings settings = test::smallBudget(GetParam());
    settings.step.iterations = iterations;
    auto sim = OpenClSimulator::create(scene.model, scene.state, settings.solver, ctx);
    ASSERT_TRUE(sim.ok()) << sim.error().message;
    std::unique_ptr<Solver> cpu = makeCpuSolver(settings.solver);
    State cpuState = scene.state;
    cpu->reset(scene.model, cpuState);
    StepDiagnostics cpuDiag;
    for (int f = 0; f < 20; ++f) {
      stepSimulation(scene.model, settings, *cpu, cpuState, cpuDiag);
      ASSERT_TRUE(cpuDiag.finite) << cpuDiag.problem;
      ASSERT_TRUE((*sim)->step(settings).ok());
    }
    ASSERT_TRUE((*sim)->finish().ok());
    // The read-back path on the CPU's own state is the in-step measure, bit for bit.
    StepDiagnostics again;
    State cpuCopy = cpuState;
    measureReadBackStepError(scene.model, settings, cpuCopy, again);
    ASSERT_TRUE(cpuDiag.stepError.measured);
    EXPECT_EQ(again.stepError.error, cpuDiag.stepError.error);
    EXPECT_EQ(again.stepError.floor, cpuDiag.stepError.floor);
    for (size_t i = 0; i < cpuState.x.size(); ++i) ASSERT_EQ(cpuCopy.x[i], cpuState.x[i]) << "restored bit for bit";

    State device;
    ASSERT_TRUE((*sim)->downloadState(device).ok());
    StepDiagnostics deviceDiag;
    measureReadBackStepError(scene.model, settings, device, deviceDiag);
    const StepError& c = cpuDiag.stepError;
    const StepError& d = deviceDiag.stepError;
    std::printf("[ measured ] %s 5 x %d: step error CPU %.4e m, OpenCL %.4e m (floor %.2e / %.2e m, scale %.3e / "
                "%.3e m)\n",
                solverName(settings.solver), iterations, c.error, d.error, c.floor, d.floor, c.scale, d.scale);
    ASSERT_TRUE(d.measured);
    EXPECT_EQ(d.vertices, c.vertices);
    EXPECT_NEAR(d.floor, c.floor, 0.1 * c.floor);
    EXPECT_NEAR(d.scale, c.scale, 0.1 * c.scale);
    if (!c.atFloatPrecision()) EXPECT_NEAR(d.error, c.error, 0.1 * c.error);
    EXPECT_EQ(d.offItsAnswer(), c.offItsAnswer());
  }
}

INSTANTIATE_TEST_SUITE_P(EverySolver, StepErrorGpu,
                         ::testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         [](const auto& info) { return std::string(solverName(info.param)); });

}  // namespace
}  // namespace tetlab
