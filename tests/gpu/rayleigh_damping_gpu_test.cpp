// The device Rayleigh damping pass (shaders/cl/rayleigh_damping.cl) against the
// CPU reference (core/sim/rayleigh_damping.cpp) on one state: a box body with
// a pinned face, deformed, with a velocity field that mixes rigid motion,
// strain rates and springs. Both run the same CG in the same order, so they
// must land on the same v' up to float rounding.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/rayleigh_damping.h"
#include "core/sim/state_setup.h"
#include "gpu/solvers/rayleigh_damping_gpu.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

SimModel dampedBox(float damping) {
  BodyDesc body{makeBoxTetMesh(glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.4f, 0.1f, 0.1f), glm::uvec3(8, 2, 2)),
                Material{1.0e6f, 0.3f, 1000.0f, damping}, "box"};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << model.error().message;
  return std::move(*model);
}

State deformedMovingState(const SimModel& model) {
  State s = makeState(model);
  std::vector<uint32_t> pinned;
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (s.x[i].x < -0.19f) pinned.push_back(i);
  pinVertices(s, pinned);
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::vec3 p(s.x[i]);
    if (s.x[i].w > 0.0f) s.x[i] += glm::vec4(0.0f, -0.05f * (p.x + 0.2f) * (p.x + 0.2f), 0.01f * p.y, 0.0f);
    s.v[i] = s.x[i].w > 0.0f ? glm::vec4(0.2f * std::sin(9.0f * p.x), -0.5f * (p.x + 0.2f), 0.3f * p.z, 0.0f)
                             : glm::vec4(0.0f);
  }
  return s;
}

void runBoth(const SimModel& model, State cpu, bool springs, const char* label) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const std::vector<glm::vec4> v0 = cpu.v;
  StepSettings step;
  step.constraints.edges = springs;
  step.rayleigh.maxIterations = 400;
  step.rayleigh.tolerance = 1e-5f;

  auto device = createDeviceState(ctx, model, cpu);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto pass = RayleighDampingGpu::create(ctx);
  ASSERT_TRUE(pass.ok()) << pass.error().message;
  Profiler profiler;
  profiler.setEnabled(false);
  ASSERT_TRUE(pass->enqueue(ctx, model, step, *device, profiler).ok());
  State gpu;
  ASSERT_TRUE(downloadState(ctx, *device, gpu).ok());
  auto report = pass->readReport(ctx);
  ASSERT_TRUE(report.ok()) << report.error().message;

  const RayleighDampingReport cpuReport =
      applyRayleighDamping(model, step.rayleigh, springChoice(step.constraints), step.dt, cpu);
  ASSERT_TRUE(cpuReport.applied && report->applied);
  EXPECT_GT(report->iterations, 0);
  EXPECT_LE(cpuReport.relativeResidual, 1e-5f) << "converged within 400 iterations";

  double largestChange = 0.0, worst = 0.0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    largestChange = std::max(largestChange, double(glm::length(glm::vec3(cpu.v[i] - v0[i]))));
    worst = std::max(worst, double(glm::length(glm::vec3(gpu.v[i] - cpu.v[i]))));
    if (cpu.x[i].w == 0.0f) EXPECT_EQ(gpu.v[i], v0[i]) << "pinned vertex " << i << " keeps its velocity";
  }
  std::printf("[ measured ] %s: |dv| up to %.3e m/s, GPU - CPU up to %.3e m/s, CG %d (CPU %d) iterations\n", label,
              largestChange, worst, report->iterations, cpuReport.iterations);
  ASSERT_GT(largestChange, 1e-3) << "the pass must do something here";
  // The CPU follows the device's summation order (corner terms gathered in CSR
  // order, dot products in rd_scalars' lanes), so the two agree to the last
  // bits (measured: identical); 1e-6 leaves room for another compiler's rounding.
  EXPECT_EQ(report->iterations, cpuReport.iterations);
  EXPECT_LT(worst, 1e-6 * largestChange);
}

TEST(RayleighDampingGpu, MatchesTheCpuPassOnTets) {
  const SimModel model = dampedBox(0.01f);
  runBoth(model, deformedMovingState(model), false, "tets");
}
TEST(RayleighDampingGpu, MatchesTheCpuPassOnTetsAndSprings) {
  const SimModel model = dampedBox(0.01f);
  runBoth(model, deformedMovingState(model), true, "tets and springs");
}

// A damped cloth patch (its membrane, cloth_membrane.h), stretched one way and
// compressed the other so both signs of the stress term are exercised.
TEST(RayleighDampingGpu, MatchesTheCpuPassOnClothMembranes) {
  BodyDesc body = clothBody(makeClothPatch(glm::vec3(-0.2f, 1.0f, -0.2f), glm::vec2(0.4f), glm::uvec2(8, 8)));
  body.material = Material{2.0e6f, 0.3f, 300.0f, 0.01f, 2.0e-3f};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  ASSERT_TRUE(model.ok()) << model.error().message;
  ASSERT_GT(model->membraneCount(), 0u);
  State s = makeState(*model);
  for (uint32_t i = 0; i < model->vertexCount(); ++i) {
    const glm::vec3 p(s.x[i]);
    s.x[i] = glm::vec4(1.03f * p.x, p.y + 0.02f * p.x * p.z, 0.97f * p.z, s.x[i].w);
    s.v[i] = glm::vec4(0.3f * std::sin(9.0f * p.x), 0.5f * p.z, -0.2f * p.x, 0.0f);
  }
  runBoth(*model, s, false, "cloth membranes");
}

// No damped body: nothing is enqueued and the velocities stay bit for bit.
TEST(RayleighDampingGpu, UndampedModelIsLeftAlone) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = dampedBox(0.0f);
  const State state = deformedMovingState(model);
  auto device = createDeviceState(ctx, model, state);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto pass = RayleighDampingGpu::create(ctx);
  ASSERT_TRUE(pass.ok()) << pass.error().message;
  Profiler profiler;
  ASSERT_TRUE(pass->enqueue(ctx, model, StepSettings{}, *device, profiler).ok());
  State out;
  ASSERT_TRUE(downloadState(ctx, *device, out).ok());
  EXPECT_EQ(out.v, state.v);
  auto report = pass->readReport(ctx);
  ASSERT_TRUE(report.ok());
  EXPECT_FALSE(report->applied);
}

}  // namespace
}  // namespace tetlab
