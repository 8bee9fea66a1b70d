// makeGpuSolver and live solver switching on the device: every kind comes out
// ready to step; a switch keeps x and v on the device and re-initialises only
// the new solver's data (AVBD's rows in the CPU's layout); a run switching
// XPBD -> VBD -> AVBD matches the CPU reference switching the same way; and a
// syntax error in a VBD kernel header leaves VBD running on its last good build.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/cpu/avbd_constraints.h"
#include "vbd_parity_util.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

double maxDifference(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  double m = 0.0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, double(glm::length(glm::vec3(a[i]) - glm::vec3(b[i]))));
  return m;
}

TEST(GpuSolverFactory, EveryKindIsReadyToStep) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const test::VbdScene scene = test::vbdDroppedBox();
  for (SolverKind kind : {SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd}) {
    SCOPED_TRACE(int(kind));
    auto device = createDeviceState(ctx, scene.model, scene.state);
    ASSERT_TRUE(device.ok()) << device.error().message;
    auto stepper = GpuStepper::create(ctx);
    ASSERT_TRUE(stepper.ok()) << stepper.error().message;
    auto solver = makeGpuSolver(kind, ctx, scene.model, *device);
    ASSERT_TRUE(solver.ok()) << solver.error().message;
    EXPECT_EQ((*solver)->kind(), kind);
    SolverSettings s = test::vbdBaseSettings(kind);
    Profiler profiler;
    for (int f = 0; f < 5; ++f) ASSERT_TRUE(stepper->enqueueStep(ctx, scene.model, s, **solver, *device, profiler).ok());
    profiler.discard();
    auto bad = stepper->readBadVertex(ctx);
    ASSERT_TRUE(bad.ok());
    EXPECT_EQ(*bad, -1);
    // Thrown down at 1 m/s under gravity: after 5 frames every vertex is lower.
    std::vector<glm::vec4> x;
    ASSERT_TRUE(downloadPositions(ctx, *device, x).ok());
    for (size_t i = 0; i < x.size(); ++i) EXPECT_LT(x[i].y, scene.state.x[i].y) << "vertex " << i;
  }
}

TEST(GpuSolverFactory, SwitchKeepsPositionsAndVelocitiesAndResetsOnlyTheSolverRows) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const test::VbdScene scene = test::vbdBeam();
  auto device = createDeviceState(ctx, scene.model, scene.state);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok());
  auto xpbd = makeGpuSolver(SolverKind::Xpbd, ctx, scene.model, *device);
  ASSERT_TRUE(xpbd.ok()) << xpbd.error().message;
  Profiler profiler;
  profiler.setEnabled(false);
  for (int f = 0; f < 10; ++f)
    ASSERT_TRUE(stepper->enqueueStep(ctx, scene.model, test::vbdBeamSettings(SolverKind::Xpbd), **xpbd, *device, profiler).ok());
  State before;
  ASSERT_TRUE(downloadState(ctx, *device, before).ok());

  auto avbd = makeGpuSolver(SolverKind::Avbd, ctx, scene.model, *device);
  ASSERT_TRUE(avbd.ok()) << avbd.error().message;
  State after;
  ASSERT_TRUE(downloadState(ctx, *device, after).ok());
  EXPECT_EQ(maxDifference(before.x, after.x), 0.0);
  EXPECT_EQ(maxDifference(before.v, after.v), 0.0);
  const AvbdLayout layout = AvbdLayout::make(scene.model);
  ASSERT_EQ(after.lambda.size(), layout.size);
  ASSERT_EQ(after.penalty.size(), layout.size);
  for (size_t r = 0; r < layout.size; ++r) {
    ASSERT_EQ(after.lambda[r], 0.0f) << "row " << r;             // AVBD Eq. 10
    ASSERT_EQ(after.penalty[r], AvbdParams{}.kStart) << "row " << r;
  }

  auto vbd = makeGpuSolver(SolverKind::Vbd, ctx, scene.model, *device);
  ASSERT_TRUE(vbd.ok()) << vbd.error().message;
  ASSERT_TRUE(downloadState(ctx, *device, after).ok());
  EXPECT_EQ(maxDifference(before.x, after.x), 0.0);
  EXPECT_TRUE(after.lambda.empty() && after.penalty.empty()) << "VBD keeps no multipliers";
}

TEST(GpuSolverFactory, SwitchingXpbdVbdAvbdMidRunMatchesTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  test::VbdScene scene = test::vbdBeam(1.0e5f, 0.3f, 0.005f);
  State cpuState = scene.state;
  auto device = createDeviceState(ctx, scene.model, scene.state);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok());
  Profiler profiler;
  profiler.setEnabled(false);
  for (SolverKind kind : {SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd}) {
    SolverSettings s = test::vbdBeamSettings(kind);
    s.step.constraints.edges = kind != SolverKind::Xpbd;
    std::unique_ptr<Solver> cpu = makeCpuSolver(kind);
    cpu->reset(scene.model, cpuState);
    auto gpu = makeGpuSolver(kind, ctx, scene.model, *device);
    ASSERT_TRUE(gpu.ok()) << gpu.error().message;
    for (int f = 0; f < 20; ++f) {
      StepDiagnostics diag;
      stepSimulation(scene.model, s, *cpu, cpuState, diag);
      ASSERT_TRUE(diag.finite) << diag.problem;
      ASSERT_TRUE(stepper->enqueueStep(ctx, scene.model, s, **gpu, *device, profiler).ok());
    }
  }
  std::vector<glm::vec4> gpuX;
  ASSERT_TRUE(downloadPositions(ctx, *device, gpuX).ok());
  const double moved = maxDifference(cpuState.x, scene.state.x);
  const double err = maxDifference(cpuState.x, gpuX);
  std::printf("  after XPBD, VBD, AVBD: max |dx| %.3g m, CPU moved %.3g m\n", err, moved);
  EXPECT_GT(moved, 0.01);
  EXPECT_LT(err / 0.6, 1e-4);  // relative to the beam's length, as the parity tests
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeFileNewer(const fs::path& p, const std::string& text) {
  const auto before = fs::last_write_time(p);
  { std::ofstream(p, std::ios::binary | std::ios::trunc) << text; }
  if (fs::last_write_time(p) <= before) fs::last_write_time(p, before + std::chrono::seconds(1));
}

TEST(VbdGpuHotReload, SyntaxErrorInTheVertexHeaderKeepsVbdRunning) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  std::random_device rd;
  const fs::path root = fs::temp_directory_path() / ("tetlab_vbd_reload_" + std::to_string(rd()));
  fs::copy(fs::path(TETLAB_SOURCE_DIR) / "shaders", root, fs::copy_options::recursive);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{root};

  const test::VbdScene scene = test::vbdBeam();
  auto device = createDeviceState(ctx, scene.model, scene.state);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok());
  auto gpu = makeGpuSolver(SolverKind::Vbd, ctx, scene.model, *device, KernelSourceOptions{root});
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  std::unique_ptr<Solver> cpu = makeCpuSolver(SolverKind::Vbd);
  State cpuState = scene.state;
  cpu->reset(scene.model, cpuState);
  const SolverSettings s = test::vbdBeamSettings(SolverKind::Vbd);
  Profiler profiler;
  profiler.setEnabled(false);
  auto stepBoth = [&](int frames) {
    for (int f = 0; f < frames; ++f) {
      StepDiagnostics diag;
      stepSimulation(scene.model, s, *cpu, cpuState, diag);
      ASSERT_TRUE(stepper->enqueueStep(ctx, scene.model, s, **gpu, *device, profiler).ok());
    }
  };
  stepBoth(5);

  const fs::path header = root / "cl" / "vbd_vertex.clh";
  const std::string good = readFile(header);
  writeFileNewer(header, good + "\nthis is not OpenCL C;\n");
  const std::string log = (*gpu)->pollKernels();
  EXPECT_NE(log.find("vbd_vertex.clh"), std::string::npos) << "the log should name the broken file:\n" << log;
  stepBoth(5);  // still on the previous kernels
  std::vector<glm::vec4> gpuX;
  ASSERT_TRUE(downloadPositions(ctx, *device, gpuX).ok());
  EXPECT_LT(maxDifference(cpuState.x, gpuX) / 0.6, 1e-4) << "the last good kernels should keep running";

  writeFileNewer(header, good);
  EXPECT_EQ((*gpu)->pollKernels(), "") << "the fixed file should build";
  stepBoth(5);
  ASSERT_TRUE(downloadPositions(ctx, *device, gpuX).ok());
  EXPECT_LT(maxDifference(cpuState.x, gpuX) / 0.6, 1e-4);
  EXPECT_GT(maxDifference(cpuState.x, scene.state.x), 0.001) << "the beam should have moved";
}

}  // namespace
}  // namespace tetlab
