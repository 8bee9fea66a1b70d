// On the OpenCL backend the host copy of x is read back every frame only when
// the drawing needs it; otherwise the device runs ahead and the host copy is
// refreshed on demand (syncPositions, before a pick) or with the periodic
// diagnostics. Edits made on a stale host copy must not roll the device back.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>

#include "tests/app/app_test_util.h"
#include "core/session/sim_session.h"
#include "core/scene/enum_names.h"
#include "core/scene/scene_json.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<SimSession> hangOnOpenCl(const ClContext& ctx) {
  std::unique_ptr<SimSession> session = test::loadPresetSession("hang.json");
  if (!session) return nullptr;
  session->setSolver(SolverKind::Vbd);
  Status s = session->setBackend(Backend::OpenCl, &ctx);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return session;
}

TEST(SandboxReadback, DevicePositionsReachTheHostOnlyWhenAsked) {
  Result<ClContext> ctx = createClContext();
  if (!ctx) GTEST_SKIP() << ctx.error().message;
  std::unique_ptr<SimSession> session = hangOnOpenCl(*ctx);
  ASSERT_TRUE(session);
  ASSERT_EQ(session->backend(), Backend::OpenCl);

  session->hostPositionsEveryFrame = false;
  const std::vector<glm::vec4> before = session->state().x;
  // Frames 1-3: before the first periodic diagnostics read (every 10th frame).
  for (int f = 0; f < 3; ++f) session->advance();
  ASSERT_FALSE(session->blownUp()) << session->blowUpMessage();
  EXPECT_EQ(session->state().x, before) << "x was read back although no one asked";

  ASSERT_TRUE(session->syncPositions().ok());
  EXPECT_NE(session->state().x, before) << "the slab did not move on the device in 3 frames";
  const std::vector<glm::vec4> synced = session->state().x;

  // Two more device frames, then an edit from the (stale) host copy: the edit
  // pulls the device state first, so the device keeps its two frames.
  for (int f = 0; f < 2; ++f) session->advance();
  const uint32_t free = [&] {
    for (uint32_t i = 0; i < synced.size(); ++i)
      if (synced[i].w > 0.0f) return i;
    return 0u;
  }();
  session->togglePin(free);
  EXPECT_NE(session->state().x, synced) << "the pin edit rolled the device back to the stale host copy";
  EXPECT_EQ(session->state().x[free].w, 0.0f);

  session->hostPositionsEveryFrame = true;
  session->advance();
  const std::vector<glm::vec4> afterEdit = session->state().x;
  session->advance();
  EXPECT_NE(session->state().x, afterEdit) << "with every-frame read-back on, x follows each frame";
}

// The residual plot on OpenCL: VBD and AVBD bring the last substep's curve
// back every frame (one value per iteration, a decreasing solve), PBD and XPBD
// bring none and the panel says they are CPU-only.
TEST(SandboxReadback, DeviceResidualCurveEveryFrameForTheVbdFamily) {
  Result<ClContext> ctx = createClContext();
  if (!ctx) GTEST_SKIP() << ctx.error().message;
  std::unique_ptr<SimSession> session = hangOnOpenCl(*ctx);
  ASSERT_TRUE(session);
  const size_t iterations = size_t(std::max(session->settings().step.iterations, 1));
  for (SolverKind kind : {SolverKind::Vbd, SolverKind::Avbd, SolverKind::Pbd}) {
    session->setSolver(kind);
    for (int f = 0; f < 3; ++f) {
      session->advance();
      ASSERT_FALSE(session->blownUp()) << session->blowUpMessage();
      const std::vector<float>& curve = session->diagnostics().residualHistory;
      if (kind == SolverKind::Pbd) {
        EXPECT_TRUE(curve.empty()) << "PBD measures its residual on the CPU only";
        continue;
      }
      ASSERT_EQ(curve.size(), iterations) << solverDisplayName(kind);
      EXPECT_GT(curve.front(), 0.0f);
      EXPECT_LE(curve.back(), curve.front()) << solverDisplayName(kind) << ": the iterations reduce the residual";
      EXPECT_EQ(session->diagnostics().residual, curve.back());
    }
  }
}

}  // namespace
}  // namespace tetlab
