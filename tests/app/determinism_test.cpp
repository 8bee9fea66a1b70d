// Reproducible figures (issue 16, "determinism"): the same scene, seed and
// backend give bit-identical positions after N frames, across two runs and
// across a save and load of the scene file. The pile preset draws random yaws
// and offsets from its seed and has five bodies in contact; cloth_drape adds a
// sheet with two-sided contacts. A different seed must change the result (the
// check is not vacuous). The hash is FNV-1a over the float bits of x.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "tests/app/app_test_util.h"
#include "core/scene/scene_json.h"
#include "core/session/sim_session.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

uint64_t hashPositions(const std::vector<glm::vec4>& x) {
  uint64_t h = 1469598103934665603ull;
  for (const glm::vec4& p : x) {
    uint32_t bits[4];
    std::memcpy(bits, &p, sizeof bits);
    for (uint32_t b : bits) h = (h ^ b) * 1099511628211ull;
  }
  return h;
}

// Runs `frames` frames of desc on the backend and hashes the final positions.
uint64_t runAndHash(const SceneDesc& desc, Backend backend, const ClContext* ctx, int frames) {
  std::unique_ptr<SimSession> session = test::makeSession(desc);
  EXPECT_TRUE(session);
  if (!session) return 0;
  if (backend == Backend::OpenCl) {
    Status s = session->setBackend(Backend::OpenCl, ctx);
    EXPECT_TRUE(s.ok()) << s.error().message;
  }
  for (int f = 0; f < frames; ++f) session->advance();
  EXPECT_FALSE(session->blownUp()) << session->blowUpMessage();
  EXPECT_TRUE(session->syncPositions().ok());
  return hashPositions(session->state().x);
}

void expectReproducible(const std::string& preset, Backend backend, const ClContext* ctx) {
  SCOPED_TRACE(preset);
  Result<SceneDesc> desc = test::loadPresetDesc(preset);
  ASSERT_TRUE(desc.ok()) << desc.error().message;
  constexpr int kFrames = 40;
  const uint64_t first = runAndHash(*desc, backend, ctx, kFrames);
  EXPECT_EQ(runAndHash(*desc, backend, ctx, kFrames), first) << "two runs of the same scene differ";

  const fs::path file = fs::temp_directory_path() / ("tetlab_determinism_" + preset);
  ASSERT_TRUE(saveSceneFile(file, *desc).ok());
  Result<SceneDesc> loaded = loadSceneFile(file);
  fs::remove(file);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  for (BodySpec& b : loaded->bodies)  // the copy in the temp folder finds its meshes like the original
    if (b.source == BodySource::Mesh) b.meshPath = desc->bodies[size_t(&b - loaded->bodies.data())].meshPath;
  EXPECT_EQ(runAndHash(*loaded, backend, ctx, kFrames), first) << "a saved and reloaded scene runs differently";

  SceneDesc reseeded = *desc;
  reseeded.seed += 1;
  const bool randomized = [&] {
    for (const BodySpec& b : desc->bodies)
      if (b.transform.randomYawDegrees > 0.0f || b.transform.randomOffset != glm::vec3(0.0f)) return true;
    return false;
  }();
  if (randomized) EXPECT_NE(runAndHash(reseeded, backend, ctx, kFrames), first) << "the seed changed nothing";
}

TEST(Determinism, SameSceneAndSeedGiveTheSameBitsOnTheCpu) {
  expectReproducible("pile.json", Backend::Cpu, nullptr);
  expectReproducible("cloth_drape.json", Backend::Cpu, nullptr);
}

TEST(Determinism, SameSceneAndSeedGiveTheSameBitsOnOpenCl) {
  Result<ClContext> ctx = createClContext();
  if (!ctx) GTEST_SKIP() << ctx.error().message;
  expectReproducible("pile.json", Backend::OpenCl, &*ctx);
  expectReproducible("cloth_drape.json", Backend::OpenCl, &*ctx);
}

}  // namespace
}  // namespace tetlab
