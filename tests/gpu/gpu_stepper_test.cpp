// The device substep loop (step_common.cl + GpuStepper) against its CPU twin
// core/sim/stepper.cpp and against the discrete free-fall solution, plus the
// NaN rollback. The "solver" here only sets the initial guess x = xInertial,
// so these tests isolate predict / velocity / rollback.
#include <cmath>

#include <gtest/gtest.h>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/gpu_stepper.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

class InertialCpuSolver final : public Solver {
 public:
  SolverKind kind() const override { return SolverKind::Pbd; }
  void reset(const SimModel&, State&) override {}
  void solveSubstep(const SimModel&, const SolverSettings&, float, State& state, StepDiagnostics&) override {
    state.x = state.xInertial;
  }
};

class InertialGpuSolver final : public GpuSolver {
 public:
  SolverKind kind() const override { return SolverKind::Pbd; }
  Status reset(const ClContext&, const SimModel&, DeviceState&) override { return Ok{}; }
  cl_int enqueueSubstep(const ClContext& ctx, const SolverSettings&, float, DeviceState& state,
                        Profiler& profiler) override {
    return ctx.queue.enqueueCopyBuffer(state.xInertial.buffer(), state.x.buffer(), 0, 0, state.x.bytes(), nullptr,
                                       profiler.record(profiler.addStage(Stage::Init, "init guess")));
  }
  void setAttachment(const Attachment&) override {}
  std::string pollKernels() override { return {}; }
};

SimModel smallBox() {
  BodyDesc body{makeBoxTetMesh(glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.4f, 0.2f, 0.2f), glm::uvec3(4, 2, 2)),
                Material{}, "box"};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << model.error().message;
  return std::move(*model);
}

TEST(GpuStepper, FreeFallMatchesCpuStepperAndTheDiscreteSolution) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = smallBox();
  State cpu = makeState(model);
  // Pin one vertex: it must not move on either side.
  pinVertices(cpu, std::vector<uint32_t>{0});
  for (size_t i = 0; i < cpu.v.size(); ++i) cpu.v[i] = cpu.x[i].w > 0.0f ? glm::vec4(0.3f, 0.0f, -0.1f, 0.0f) : glm::vec4(0.0f);

  auto device = createDeviceState(ctx, model, cpu);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok()) << stepper.error().message;
  InertialGpuSolver gpuSolver;
  InertialCpuSolver cpuSolver;
  Profiler profiler;

  SolverSettings settings;
  settings.step.substeps = 5;
  settings.step.velocityDamping = 0.5f;
  const int frames = 10;
  const State start = cpu;
  for (int f = 0; f < frames; ++f) {
    StepDiagnostics diag;
    stepSimulation(model, settings, cpuSolver, cpu, diag);
    ASSERT_TRUE(diag.finite);
    ASSERT_TRUE(stepper->enqueueStep(ctx, model, settings, gpuSolver, *device, profiler).ok());
  }
  State gpu;
  ASSERT_TRUE(downloadState(ctx, *device, gpu).ok());
  auto bad = stepper->readBadVertex(ctx);
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(*bad, -1);

  // Same expressions in the same order: agreement to a few float roundings of
  // the largest coordinate involved.
  const float h = settings.step.dt / float(settings.step.substeps);
  const int n = frames * settings.step.substeps;
  const float d = std::exp(-settings.step.velocityDamping * h);
  for (size_t i = 0; i < cpu.x.size(); ++i) {
    for (int c = 0; c < 4; ++c) {
      EXPECT_NEAR(gpu.x[i][c], cpu.x[i][c], 1e-5f * (1.0f + std::abs(cpu.x[i][c]))) << i << "," << c;
      EXPECT_NEAR(gpu.v[i][c], cpu.v[i][c], 1e-4f * (1.0f + std::abs(cpu.v[i][c]))) << i << "," << c;
    }
  }
  // Analytic: with damping d per substep, v_k = d (v_{k-1} + h g) and
  // x_k = x_{k-1} + h (v_{k-1} + h g), so v_n = sum_{j=1..n} d^j h g + d^n v0.
  const glm::vec3 g = settings.step.gravity;
  glm::vec3 vExpect = glm::vec3(start.v[1]);
  glm::vec3 xExpect = glm::vec3(start.x[1]);
  for (int k = 0; k < n; ++k) {
    xExpect += h * (vExpect + h * g);
    vExpect = d * (vExpect + h * g);
  }
  // Recovering v from positions, (x - xPrev) / h, loses about one ulp of |x|
  // per substep: |dv| <= 2 eps |x| / h each time, accumulating over n
  // substeps; x inherits h times the velocity error of each substep.
  const float eps = std::ldexp(1.0f, -23);
  const float xScale = 2.0f;  // |x| stays below 2 m here
  const float tolV = float(n) * 2.0f * eps * xScale / h;
  const float tolX = float(n) * (h * tolV + eps * xScale);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(gpu.x[1][c], xExpect[c], tolX);
    EXPECT_NEAR(gpu.v[1][c], vExpect[c], tolV);
  }
  EXPECT_EQ(glm::vec3(gpu.x[0]), glm::vec3(start.x[0]));  // pinned
  EXPECT_EQ(gpu.x[0].w, 0.0f);

  StepStats stats = profiler.resolve();
  ASSERT_TRUE(stats.valid);
  ASSERT_NE(stats.find("predict"), nullptr);
  // One predict and one initial guess per substep.
  EXPECT_EQ(stats.find("predict")->launches, uint32_t(n));
  EXPECT_EQ(stats.find("init guess")->launches, uint32_t(n));
  // Per frame: one velocity per substep plus the rollback check.
  EXPECT_EQ(stats.find("velocity")->launches, uint32_t(frames * (settings.step.substeps + 1)));
}

TEST(GpuStepper, NonFiniteVertexRollsBackTheFailingSubstepLikeTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = smallBox();
  State cpu = makeState(model);
  const uint32_t badIndex = 7;
  cpu.v[badIndex] = glm::vec4(std::nanf(""), 0.0f, 0.0f, 0.0f);
  auto device = createDeviceState(ctx, model, cpu);
  ASSERT_TRUE(device.ok());
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok());
  InertialGpuSolver gpuSolver;
  InertialCpuSolver cpuSolver;
  Profiler profiler;
  SolverSettings settings;
  settings.step.substeps = 3;

  const State start = cpu;
  StepDiagnostics diag;
  stepSimulation(model, settings, cpuSolver, cpu, diag);
  EXPECT_FALSE(diag.finite);
  EXPECT_EQ(diag.badVertex, int64_t(badIndex));

  ASSERT_TRUE(stepper->enqueueStep(ctx, model, settings, gpuSolver, *device, profiler).ok());
  auto bad = stepper->readBadVertex(ctx);
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(*bad, int64_t(badIndex));
  auto again = stepper->readBadVertex(ctx);  // read clears it
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, -1);

  State gpu;
  ASSERT_TRUE(downloadState(ctx, *device, gpu).ok());
  for (size_t i = 0; i < gpu.x.size(); ++i) {
    EXPECT_EQ(gpu.x[i], start.x[i]) << i;  // the first substep failed: back to the start
    EXPECT_EQ(gpu.x[i], cpu.x[i]) << i;
    EXPECT_EQ(gpu.v[i], glm::vec4(0.0f)) << i;
  }
}

}  // namespace
}  // namespace tetlab
