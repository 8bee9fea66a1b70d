// The OpenCL backend facade: a live solver switch keeps x and v on the device
// bit for bit, the facade steps exactly like the CPU reference (the same
// parity bound as position_based_parity_test.cpp), and host edits (pins)
// reach the device.
#include <gtest/gtest.h>

#include <limits>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/opencl_simulator.h"
#include "clamped_beam.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

using test::BeamScene;

BeamScene clampedBeam() {
  Material m;
  m.youngsModulus = 2.0e5f;
  return test::clampedBeam(m);
}

SolverSettings settingsFor(SolverKind kind) { return test::smallBudget(kind); }

TEST(OpenClSimulator, SolverSwitchKeepsPositionsAndVelocities) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  BeamScene scene = clampedBeam();
  auto sim = OpenClSimulator::create(scene.model, scene.state, SolverKind::Xpbd, ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  const SolverSettings xpbd = settingsFor(SolverKind::Xpbd);
  for (int f = 0; f < 10; ++f) ASSERT_TRUE((*sim)->step(xpbd).ok());
  (*sim)->discardTimings();
  State before;
  ASSERT_TRUE((*sim)->downloadState(before).ok());

  ASSERT_TRUE((*sim)->setSolver(SolverKind::Pbd).ok());
  State after;
  ASSERT_TRUE((*sim)->downloadState(after).ok());
  EXPECT_EQ((*sim)->solver(), SolverKind::Pbd);
  ASSERT_EQ(before.x.size(), after.x.size());
  for (size_t i = 0; i < before.x.size(); ++i) {
    EXPECT_EQ(before.x[i], after.x[i]) << "vertex " << i;
    EXPECT_EQ(before.v[i], after.v[i]) << "vertex " << i;
  }
  // The beam is moving (it was released 10 frames ago): the check is not vacuous.
  float maxSpeed = 0.0f;
  for (const glm::vec4& v : before.v) maxSpeed = std::max(maxSpeed, glm::length(glm::vec3(v)));
  EXPECT_GT(maxSpeed, 0.01f);

  // Stepping on with the new solver stays finite.
  for (int f = 0; f < 10; ++f) ASSERT_TRUE((*sim)->step(settingsFor(SolverKind::Pbd)).ok());
  auto bad = (*sim)->readBadVertex();
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(*bad, -1);
}

TEST(OpenClSimulator, StepsLikeTheCpuReference) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  BeamScene scene = clampedBeam();
  const SolverSettings settings = settingsFor(SolverKind::Xpbd);
  auto sim = OpenClSimulator::create(scene.model, scene.state, settings.solver, ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  (*sim)->setStageTiming(true);
  std::unique_ptr<Solver> cpu = makeCpuSolver(settings.solver);
  State cpuState = scene.state;
  cpu->reset(scene.model, cpuState);
  for (int f = 0; f < 60; ++f) {
    StepDiagnostics diag;
    stepSimulation(scene.model, settings, *cpu, cpuState, diag);
    ASSERT_TRUE(diag.finite) << diag.problem;
    ASSERT_TRUE((*sim)->step(settings).ok());
  }
  StepStats timings = (*sim)->takeTimings();
  EXPECT_TRUE(timings.find("predict") != nullptr);
  std::vector<glm::vec4> x;
  ASSERT_TRUE((*sim)->downloadPositions(x).ok());
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  double maxError = 0.0, maxMove = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    lo = glm::min(lo, glm::vec3(cpuState.x[i]));
    hi = glm::max(hi, glm::vec3(cpuState.x[i]));
    maxError = std::max(maxError, double(glm::length(glm::vec3(x[i]) - glm::vec3(cpuState.x[i]))));
    maxMove = std::max(maxMove, double(glm::length(glm::vec3(cpuState.x[i]) - glm::vec3(scene.state.x[i]))));
  }
  EXPECT_GT(maxMove, 0.01) << "the beam did not sag: the comparison is vacuous";
  EXPECT_LT(maxError / glm::length(hi - lo), 1e-4);
}

// Profiling events cost a device per launch, so stage timing is off until a
// reader asks; the launch count is kept either way. A VBD substep launches at
// least the prediction, one solve per vertex colour per iteration and the
// velocity update, so that is a floor for the count.
TEST(OpenClSimulator, StageTimingIsOffUntilAskedAndLaunchesAreAlwaysCounted) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  BeamScene scene = clampedBeam();
  auto sim = OpenClSimulator::create(scene.model, scene.state, SolverKind::Vbd, ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  SolverSettings settings = settingsFor(SolverKind::Vbd);
  settings.step.gpuSchedule = GpuSchedule::PerColor;  // the launch floor below is this schedule's
  const uint32_t floor = uint32_t(settings.step.substeps) *
                         (2u + uint32_t(settings.step.iterations) * scene.model.vertexColors.count());
  StepDiagnostics untimed;
  ASSERT_TRUE((*sim)->step(settings, untimed).ok());
  ASSERT_TRUE((*sim)->finish().ok());
  EXPECT_GE(untimed.launches, floor);
  const StepStats off = (*sim)->takeTimings();
  EXPECT_FALSE(off.valid) << "timed without being asked";
  EXPECT_EQ(off.totalMs, 0.0);
  EXPECT_EQ(off.launches, untimed.launches);

  (*sim)->setStageTiming(true);
  StepDiagnostics timed;
  ASSERT_TRUE((*sim)->step(settings, timed).ok());
  const StepStats on = (*sim)->takeTimings();
  ASSERT_TRUE(on.valid);
  EXPECT_GT(on.totalMs, 0.0);
  uint32_t perStage = 0;
  for (const StageTime& st : on.stages) perStage += st.launches;
  EXPECT_EQ(perStage, timed.launches) << "every counted launch is timed under a stage";
  EXPECT_EQ(timed.launches, untimed.launches) << "the same step, the same launches";

  // The one-group schedule: the whole step is one launch, plus the end-of-step
  // rollback check (the beam is undamped: no damping pass).
  settings.step.gpuSchedule = GpuSchedule::OneGroup;
  StepDiagnostics group;
  ASSERT_TRUE((*sim)->step(settings, group).ok());
  const StepStats groupStats = (*sim)->takeTimings();
  EXPECT_EQ(group.launches, 2u);
  EXPECT_TRUE(groupStats.valid);
}

TEST(OpenClSimulator, UploadedPinsHoldOnTheDevice) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  BeamScene scene = clampedBeam();
  auto sim = OpenClSimulator::create(scene.model, scene.state, SolverKind::Xpbd, ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  // Pin the free end too: now nothing may move at all vertices x = 0 or x = 0.6.
  State pinned = scene.state;
  const uint32_t extra = pinVertices(scene.model, pinned, [](glm::vec3 p) { return p.x > 0.6f - 1e-4f; });
  ASSERT_GT(extra, 0u);
  ASSERT_TRUE((*sim)->uploadState(pinned).ok());
  for (int f = 0; f < 20; ++f) ASSERT_TRUE((*sim)->step(settingsFor(SolverKind::Xpbd)).ok());
  (*sim)->discardTimings();
  std::vector<glm::vec4> x;
  ASSERT_TRUE((*sim)->downloadPositions(x).ok());
  for (size_t i = 0; i < x.size(); ++i)
    if (pinned.x[i].w == 0.0f) EXPECT_EQ(glm::vec3(x[i]), glm::vec3(pinned.x[i])) << "pinned vertex " << i << " moved";
}

}  // namespace
}  // namespace tetlab
