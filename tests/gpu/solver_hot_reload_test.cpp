// Live kernel editing on a running solver (issue: "a kernel syntax error
// introduced while running is reported with its log and the sim keeps running
// on the previous kernels"): XPBD runs from a copy of shaders/ on disk, an
// included kernel header gets a syntax error, the step goes on with the old
// kernels (and still matches the CPU), and the fix is picked up.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/gpu_stepper.h"
#include "gpu/solvers/gpu_solver_factory.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

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

double maxDifference(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  double m = 0.0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, double(glm::length(glm::vec3(a[i]) - glm::vec3(b[i]))));
  return m;
}

TEST(SolverHotReload, SyntaxErrorKeepsTheSimulationRunningOnThePreviousKernels) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  std::random_device rd;
  const fs::path root = fs::temp_directory_path() / ("tetlab_solver_reload_" + std::to_string(rd()));
  fs::copy(fs::path(TETLAB_SOURCE_DIR) / "shaders", root, fs::copy_options::recursive);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{root};

  BodyDesc body{makeBoxTetMesh(glm::vec3(0.0f, 0.2f, 0.0f), glm::vec3(0.3f, 0.1f, 0.1f), glm::uvec3(3, 1, 1)),
                Material{}, "beam"};
  body.material.youngsModulus = 1.0e5f;
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  ASSERT_TRUE(model.ok()) << model.error().message;
  State cpuState = makeState(*model);
  pinVertices(*model, cpuState, [](glm::vec3 p) { return p.x < 1e-4f; });

  SolverSettings settings;
  settings.solver = SolverKind::Xpbd;
  settings.step.substeps = 4;
  settings.step.iterations = 2;
  std::unique_ptr<Solver> cpu = makeCpuSolver(SolverKind::Xpbd);
  cpu->reset(*model, cpuState);

  const KernelSourceOptions disk{root};
  auto device = createDeviceState(ctx, *model, cpuState);
  auto stepper = GpuStepper::create(ctx, disk);
  auto gpu = makeGpuSolver(SolverKind::Xpbd, ctx, disk);
  ASSERT_TRUE(device.ok() && stepper.ok() && gpu.ok());
  ASSERT_TRUE((*gpu)->reset(ctx, *model, *device).ok());
  Profiler profiler;
  profiler.setEnabled(false);

  auto stepBoth = [&](int frames) {
    for (int f = 0; f < frames; ++f) {
      StepDiagnostics diag;
      stepSimulation(*model, settings, *cpu, cpuState, diag);
      ASSERT_TRUE(stepper->enqueueStep(ctx, *model, settings, **gpu, *device, profiler).ok());
    }
  };
  std::vector<glm::vec4> gpuX;
  stepBoth(5);
  EXPECT_EQ((*gpu)->pollKernels(), "");

  // Break the shared projection header (included by xpbd.cl).
  const fs::path header = root / "cl" / "pb_projection.clh";
  const std::string good = readFile(header);
  writeFileNewer(header, good + "\nthis is not OpenCL C;\n");
  const std::string log = (*gpu)->pollKernels();
  ASSERT_FALSE(log.empty());
  EXPECT_NE(log.find("pb_projection.clh"), std::string::npos) << log;  // #line markers name the file
  EXPECT_NE(log.find("error"), std::string::npos) << log;
  EXPECT_EQ((*gpu)->pollKernels(), log) << "the error stays visible until fixed";

  // Still stepping, on the previous kernels: still the CPU's result.
  stepBoth(5);
  ASSERT_TRUE(downloadPositions(ctx, *device, gpuX).ok());
  EXPECT_LT(maxDifference(gpuX, cpuState.x), 1e-5);

  // Fix it: rebuilt, error cleared, still matching.
  writeFileNewer(header, good);
  EXPECT_EQ((*gpu)->pollKernels(), "");
  stepBoth(5);
  ASSERT_TRUE(downloadPositions(ctx, *device, gpuX).ok());
  EXPECT_LT(maxDifference(gpuX, cpuState.x), 1e-5);
  EXPECT_GT(maxDifference(cpuState.x, makeState(*model).x), 1e-3) << "the beam must have moved";
}

}  // namespace
}  // namespace tetlab
