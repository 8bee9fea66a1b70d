#pragma once
// GPU PBD/XPBD against the CPU reference (core/cpu): same model, same
// settings, N frames through GpuStepper, then every vertex compared
// (position_based_parity_test.cpp gives the bound and its reasoning;
// pb_schedule_parity_test.cpp runs the same scenes on each launch schedule).
#include <cmath>
#include <cstdio>
#include <limits>

#include <gtest/gtest.h>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/gpu_solver_factory.h"
#include "gpu/solvers/gpu_stepper.h"
#include "gpu_test_context.h"
#include "parity_scenes.h"

namespace tetlab::test {

using Scene = ParityScene;

// The parity beam (parity_scenes.h).
inline Scene beam(float youngs = 2.0e5f, float poisson = 0.3f, float damping = 0.0f) {
  return clampedBeam(youngs, poisson, damping);
}

// The soft beam with tethers on (5 cm slack) and its tip corner dragged up
// and sideways by the mouse with a force cap that binds: tethers, the
// attachment and its cap in one scene.
inline Scene tetheredBeamDraggedWithACap(SolverSettings& s) {
  s.step.constraints.tethers = true;
  s.positionBased.tetherSlack = 0.05f;
  Scene scene = beam(5.0e4f);
  const uint32_t tip = scene.model.vertexCount() - 1;
  scene.state.mouse.active = true;
  scene.state.mouse.vertices = {tip, tip - 1};
  scene.state.mouse.weights = {0.75f, 0.25f};
  scene.state.mouse.target = glm::vec3(scene.model.restPositions[tip]) + glm::vec3(0.0f, 0.3f, 0.2f);
  scene.state.mouse.stiffness = 2.0e3f;
  scene.state.mouse.maxForce = 5.0f;
  return scene;
}

// A free box dropped onto the ground and the analytic colliders.
inline Scene droppedBox() {
  BodyDesc body{makeBoxTetMesh(glm::vec3(-0.1f, 0.25f, -0.1f), glm::vec3(0.2f), glm::uvec3(2, 2, 2)), Material{},
                "box"};
  body.material.youngsModulus = 5.0e4f;
  Scene s = makeParityScene(body);
  for (glm::vec4& v : s.state.v) v = glm::vec4(0.4f, -1.0f, 0.2f, 0.0f);
  return s;
}

struct Comparison {
  double maxError = 0.0;
  double diagonal = 0.0;
  double maxDisplacement = 0.0;  // how far the CPU result moved from the start: the test is not vacuous
  double relative() const { return maxError / diagonal; }
};

using GpuFactory = Result<std::unique_ptr<GpuSolver>> (*)(const ClContext&, const KernelSourceOptions&);

inline Result<std::unique_ptr<GpuSolver>> makeXpbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source) {
  return makeGpuSolver(SolverKind::Xpbd, ctx, source);
}
inline Result<std::unique_ptr<GpuSolver>> makePbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source) {
  return makeGpuSolver(SolverKind::Pbd, ctx, source);
}

inline Comparison runBoth(const ClContext& ctx, Scene scene, const SolverSettings& settings, GpuFactory factory,
                   int frames = 100) {
  Comparison out;
  std::unique_ptr<Solver> cpu = makeCpuSolver(settings.solver);
  State cpuState = scene.state;
  cpu->reset(scene.model, cpuState);

  auto device = createDeviceState(ctx, scene.model, scene.state);
  EXPECT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  EXPECT_TRUE(stepper.ok()) << stepper.error().message;
  auto gpu = factory(ctx, {});
  EXPECT_TRUE(gpu.ok()) << gpu.error().message;
  if (!device.ok() || !stepper.ok() || !gpu.ok()) return out;
  Status reset = (*gpu)->reset(ctx, scene.model, *device);
  EXPECT_TRUE(reset.ok()) << reset.error().message;
  (*gpu)->setAttachment(scene.state.mouse);

  Profiler profiler;
  for (int f = 0; f < frames; ++f) {
    StepDiagnostics diag;
    stepSimulation(scene.model, settings, *cpu, cpuState, diag);
    EXPECT_TRUE(diag.finite) << diag.problem;
    Status st = stepper->enqueueStep(ctx, scene.model, settings, **gpu, *device, profiler);
    EXPECT_TRUE(st.ok()) << st.error().message;
    profiler.discard();
  }
  std::vector<glm::vec4> gpuX;
  EXPECT_TRUE(downloadPositions(ctx, *device, gpuX).ok());
  auto bad = stepper->readBadVertex(ctx);
  EXPECT_TRUE(bad.ok() && *bad == -1);

  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (size_t i = 0; i < cpuState.x.size(); ++i) {
    const glm::vec3 c(cpuState.x[i]), g(gpuX[i]);
    lo = glm::min(lo, c);
    hi = glm::max(hi, c);
    out.maxError = std::max(out.maxError, double(glm::length(g - c)));
    out.maxDisplacement = std::max(out.maxDisplacement, double(glm::length(c - glm::vec3(scene.state.x[i]))));
    EXPECT_EQ(gpuX[i].w, cpuState.x[i].w) << "inverse mass of vertex " << i;
  }
  out.diagonal = glm::length(hi - lo);
  return out;
}

inline SolverSettings baseSettings(SolverKind kind) {
  SolverSettings s;
  s.solver = kind;
  s.step.substeps = 5;
  s.step.iterations = 3;
  return s;
}

#define EXPECT_PB_PARITY(cmp, minMove, bound)                                                      \
  do {                                                                                            \
    std::printf("  parity: max |dx| %.3g m, relative %.3g, CPU moved %.3g m\n", (cmp).maxError,         \
                (cmp).relative(), (cmp).maxDisplacement);                                         \
    EXPECT_GT((cmp).maxDisplacement, (minMove)) << "the scene did not move: the test is vacuous"; \
    EXPECT_LT((cmp).relative(), (bound))                                                          \
        << "max |dx| = " << (cmp).maxError << " m over a body of " << (cmp).diagonal << " m";     \
  } while (0)

}  // namespace tetlab::test
