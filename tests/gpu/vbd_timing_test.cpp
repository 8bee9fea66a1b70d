// Per-frame time of the GPU VBD/AVBD against their CPU references on the
// built-in presets (core/sim/presets.h) with the presets' own settings. A
// measurement, not a test: it never asserts on time, and it is DISABLED so CI
// skips it. Run it by hand:
//
//   tetlab_tests_gpu --gtest_also_run_disabled_tests --gtest_filter='VbdGpuTiming.*'
//
// GPU wall time = enqueueStep + queue.finish() per frame (what the app waits
// for); device time = the sum of the profiled kernel times (Profiler). The
// first frames (kernel JIT, buffer first-touch) are excluded.
#include <chrono>
#include <cstdio>

#include "core/sim/presets.h"
#include "vbd_parity_util.h"

namespace tetlab {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

void timePreset(const ClContext& ctx, const char* name, uint32_t cellsThick, SolverKind kind, int frames) {
  PresetOptions options;
  options.material = presetDefaultMaterial(name);
  options.cellsThick = cellsThick;
  auto scene = makePresetScene(name, options);
  ASSERT_TRUE(scene.ok()) << scene.error().message;
  SolverSettings settings = scene->settings;
  settings.solver = kind;
  const State start = makeSceneState(*scene);
  constexpr int kWarmup = 5;

  std::unique_ptr<Solver> cpu = makeCpuSolver(kind);
  State cpuState = start;
  cpu->reset(scene->model, cpuState);
  double cpuMs = 0.0, cpuSolveMs = 0.0;
  for (int f = 0; f < kWarmup + frames; ++f) {
    StepDiagnostics diag;
    const auto t0 = Clock::now();
    stepSimulation(scene->model, settings, *cpu, cpuState, diag);
    if (f >= kWarmup) {
      cpuMs += msSince(t0);
      cpuSolveMs += diag.stages[Stage::Solve];
    }
  }

  auto device = createDeviceState(ctx, scene->model, start);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok()) << stepper.error().message;
  auto gpu = makeGpuSolver(kind, ctx, scene->model, *device);
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  Profiler profiler;
  double gpuMs = 0.0, deviceMs = 0.0, solveMs = 0.0;
  uint32_t launches = 0;
  for (int f = 0; f < kWarmup + frames; ++f) {
    const auto t0 = Clock::now();
    ASSERT_TRUE(stepper->enqueueStep(ctx, scene->model, settings, **gpu, *device, profiler).ok());
    ctx.queue.finish();
    const double wall = msSince(t0);
    const StepStats stats = profiler.resolve();
    if (f < kWarmup) continue;
    gpuMs += wall;
    deviceMs += stats.totalMs;
    for (const StageTime& st : stats.stages) {
      launches += st.launches;
      if (st.name.find(".solve.c") != std::string::npos) solveMs += st.ms;
    }
  }
  std::vector<glm::vec4> gpuX;
  ASSERT_TRUE(downloadPositions(ctx, *device, gpuX).ok());
  double err = 0.0;
  for (size_t i = 0; i < gpuX.size(); ++i)
    err = std::max(err, double(glm::length(glm::vec3(gpuX[i]) - glm::vec3(cpuState.x[i]))));
  std::printf("%-4s %s cellsThick %u: %u vertices, %u tets, %u colours, %d substeps x %d iterations\n",
              kind == SolverKind::Vbd ? "VBD" : "AVBD", name, cellsThick, scene->model.vertexCount(),
              scene->model.tetCount(), scene->model.vertexColors.count(), settings.step.substeps,
              settings.step.iterations);
  std::printf("     CPU %.2f ms/frame (solve %.2f) | GPU wall %.2f ms/frame, device %.2f (solve %.2f), %.0f launches/frame"
              " | max |x_gpu - x_cpu| after %d frames: %.3g m\n",
              cpuMs / frames, cpuSolveMs / frames, gpuMs / frames, deviceMs / frames, solveMs / frames,
              double(launches) / frames, kWarmup + frames, err);
}

TEST(VbdGpuTiming, DISABLED_PresetFrameTimes) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  std::printf("device: %s (%s)\n", ctx.info.name.c_str(), ctx.platformName.c_str());
  for (SolverKind kind : {SolverKind::Vbd, SolverKind::Avbd}) {
    timePreset(ctx, "beam", 2, kind, 60);
    timePreset(ctx, "drop", 2, kind, 60);
    timePreset(ctx, "beam", 4, kind, 20);  // 8x the tets: how the two scale
  }
}

}  // namespace
}  // namespace tetlab
