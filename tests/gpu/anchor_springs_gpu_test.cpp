// Anchor springs on OpenCL (issue 15 item 4): the hung cube of
// tests/spring_scenes.h on all four device solvers against the CPU reference.
// The spring breaks in the same frame on both backends (the device's
// end-of-frame check reads the springs' vertices back, anchor_springs.h), the
// trajectories agree to the parity bound of the other device tests, and a
// reset (writeState) makes it whole again on the device.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/scene/scene_build.h"
#include "core/sim/scene.h"
#include "core/sim/simulator.h"
#include "gpu/solvers/opencl_simulator.h"
#include "gpu_test_context.h"
#include "tests/spring_scenes.h"

namespace tetlab {
namespace {

using namespace springtest;

class AnchorSpringsGpu : public testing::TestWithParam<SolverKind> {};

TEST_P(AnchorSpringsGpu, BreaksInTheSameFrameAsTheCpuReference) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SolverKind kind = GetParam();
  const float limit = 1.5f * kMass * kG;
  Result<BuiltScene> built = buildScene(hungCube(limit, 0.0f), SceneBuildOptions{});
  ASSERT_TRUE(built.ok()) << built.error().message;
  const Scene& scene = built->scene;
  const SolverSettings settings = settingsFor(scene.settings, kind);
  CpuSimulator cpu(scene.model, makeSceneState(scene), kind);
  auto gpu = OpenClSimulator::create(scene.model, makeSceneState(scene), kind, ctx);
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  const int frames = analyticFirstFrameAbove(limit) + 5;
  int cpuBroke = -1, gpuBroke = -1;
  double worst = 0.0;
  std::vector<glm::vec4> x;
  for (int f = 1; f <= frames; ++f) {
    StepDiagnostics dc, dg;
    ASSERT_TRUE(cpu.step(settings, dc).ok());
    ASSERT_TRUE((*gpu)->step(settings, dg).ok());
    if (dc.springsBroken && cpuBroke < 0) cpuBroke = f;
    if (dg.springsBroken && gpuBroke < 0) gpuBroke = f;
    ASSERT_TRUE((*gpu)->readPositions(x).ok());
    for (size_t i = 0; i < x.size(); ++i)
      worst = std::max(worst, double(glm::length(glm::vec3(x[i]) - glm::vec3(cpu.state().x[i]))));
  }
  std::printf("  %s: broke in frame %d on the CPU, %d on OpenCL; largest position difference %.3g m\n",
              kind == SolverKind::Pbd ? "PBD" : kind == SolverKind::Xpbd ? "XPBD" : kind == SolverKind::Vbd ? "VBD" : "AVBD",
              cpuBroke, gpuBroke, worst);
  EXPECT_GT(cpuBroke, 0);
  EXPECT_EQ(gpuBroke, cpuBroke);
  EXPECT_TRUE((*gpu)->springs().springs[0].broken);
  // The cube moves ~0.3 m over the run; float rounding in other orders stays far below a millimetre.
  EXPECT_LT(worst, 1e-3);

  // A reset on the device: whole again, and it holds (the cube is back at the top a frame later).
  ASSERT_TRUE((*gpu)->writeState(makeSceneState(scene)).ok());
  EXPECT_EQ((*gpu)->springs().brokenCount(), 0u);
  StepDiagnostics d;
  ASSERT_TRUE((*gpu)->step(settings, d).ok());
  EXPECT_EQ(d.springsBroken, 0u);
  EXPECT_EQ((*gpu)->springs().frames, 1);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, AnchorSpringsGpu,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         [](const testing::TestParamInfo<SolverKind>& info) {
                           switch (info.param) {
                             case SolverKind::Pbd: return std::string("PBD");
                             case SolverKind::Xpbd: return std::string("XPBD");
                             case SolverKind::Vbd: return std::string("VBD");
                             case SolverKind::Avbd: return std::string("AVBD");
                           }
                           return std::string("unknown");
                         });

}  // namespace
}  // namespace tetlab
