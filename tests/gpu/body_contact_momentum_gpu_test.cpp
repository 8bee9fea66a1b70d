// The head-on hit of tests/head_on_scene.h on OpenCL (OpenClSimulator: the
// device detection and the VBD / AVBD kernels), frame by frame against the CPU
// stepper: the device keeps the linear momentum to headon::kTolerance of m v0,
// as the CPU reference does (tests/cpu/body_contact_momentum_test.cpp), and
// its positions match the CPU's within the parity bound of the other VBD
// tests (1e-4 of the scene's size; bit-exact on PoCL).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <tuple>

#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/opencl_simulator.h"
#include "gpu_test_context.h"
#include "tests/head_on_scene.h"

namespace tetlab {
namespace {

constexpr double kMaxRelativeError = 1e-4;

class HeadOnCollisionGpu : public testing::TestWithParam<std::tuple<SolverKind, float>> {};

// Both device schedules (one launch per colour, the whole step in one work-group).
void runHeadOn(const ClContext& ctx, SolverKind kind, float mu, GpuSchedule schedule) {
  const SimModel model = headon::blocks();
  SolverSettings s = headon::settings(kind, mu);
  s.step.gpuSchedule = schedule;
  State start = makeState(model);
  headon::launch(model, start);
  const double p0 = headon::momenta(model, start.x, start.v).P.x;
  auto sim = OpenClSimulator::create(model, start, kind, ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  std::unique_ptr<Solver> cpu = makeCpuSolver(kind);
  State cpuState = start;
  cpu->reset(model, cpuState);
  headon::Drift worst;
  double maxError = 0.0, diagonal = 0.0;
  State gpuState;
  for (int f = 0; f < headon::kFrames; ++f) {
    StepDiagnostics diag;
    stepSimulation(model, s, *cpu, cpuState, diag);
    ASSERT_TRUE(diag.finite) << diag.problem;
    ASSERT_TRUE((*sim)->step(s).ok());
    ASSERT_TRUE((*sim)->downloadState(gpuState).ok());
    ASSERT_EQ(gpuState.x.size(), cpuState.x.size());
    worst = headon::worse(worst, headon::drift(headon::momenta(model, gpuState.x, gpuState.v), p0));
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (size_t i = 0; i < cpuState.x.size(); ++i) {
      const glm::vec3 c(cpuState.x[i]);
      lo = glm::min(lo, c);
      hi = glm::max(hi, c);
      maxError = std::max(maxError, double(glm::length(glm::vec3(gpuState.x[i]) - c)));
    }
    diagonal = glm::length(hi - lo);
  }
  const headon::Momenta end = headon::momenta(model, gpuState.x, gpuState.v);
  std::printf("[ measured ] OpenCL %s (%s) mu %.1f: worst drift / (m v0): axial %.2e, sideways %.2e; angular / "
              "(m v0 %.2f m) %.2e; B carries %.3f of m v0; max |x_gpu - x_cpu| %.3g m (relative %.3g)\n",
              phystest::solverName(kind), schedule == GpuSchedule::PerColor ? "per colour" : "one group", mu, worst.axial, worst.sideways, headon::kLever, worst.angular,
              end.pB / p0, maxError, maxError / diagonal);
  EXPECT_GT(end.pB, 0.25 * p0) << "the block that was hit must move";
  EXPECT_LT(maxError / diagonal, kMaxRelativeError);
  const double bound = headon::knownFrictionDrift(kind, mu) ? headon::kKnownGapTolerance : headon::kTolerance;
  EXPECT_LE(worst.axial, bound);
  EXPECT_LE(worst.sideways, bound);
}

TEST_P(HeadOnCollisionGpu, KeepsLinearMomentumAndMatchesTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const auto [kind, mu] = GetParam();
  for (GpuSchedule schedule : {GpuSchedule::PerColor, GpuSchedule::OneGroup}) {
    SCOPED_TRACE(schedule == GpuSchedule::PerColor ? "per colour" : "one group");
    runHeadOn(ctx, kind, mu, schedule);
  }
}

INSTANTIATE_TEST_SUITE_P(VbdFamily, HeadOnCollisionGpu,
                         testing::Combine(testing::Values(SolverKind::Vbd, SolverKind::Avbd),
                                          testing::Values(0.0f, 0.4f, 1.0f)),
                         headon::paramName);

}  // namespace
}  // namespace tetlab
