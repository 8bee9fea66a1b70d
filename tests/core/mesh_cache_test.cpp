// Tet cache: hits are bit-identical, keys follow the input and the options,
// and damaged files are rejected and rebuilt instead of trusted.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "core/mesh/tet_cache.h"
#include "mesh_test_util.h"

namespace tetlab {
namespace {

TetResult smallResult() {
  TetOptions opt;
  opt.targetTets = 100;
  Result<TetResult> r = tetrahedralizeSurface(test::makeBox(), opt);
  EXPECT_TRUE(r.ok());
  return r.ok() ? std::move(r.value()) : TetResult{};
}

TEST(MeshCache, FnvMatchesTheReferenceValues) {
  // Published FNV-1a 64 test vectors.
  EXPECT_EQ(fnv1a64("", 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
}

TEST(MeshCache, KeyFollowsBytesAndOptions) {
  const ObjLoadOptions load;
  TetOptions tet;
  const uint64_t k = tetCacheKey("v 0 0 0\n", load, tet);
  EXPECT_EQ(k, tetCacheKey("v 0 0 0\n", load, tet));
  EXPECT_NE(k, tetCacheKey("v 0 0 1\n", load, tet));
  tet.targetTets += 1;
  EXPECT_NE(k, tetCacheKey("v 0 0 0\n", load, tet));
  TetOptions tet2;
  tet2.method = TetMethod::VoxelOnly;
  EXPECT_NE(k, tetCacheKey("v 0 0 0\n", load, tet2));
  ObjLoadOptions load2;
  load2.normalizeScale = true;
  EXPECT_NE(k, tetCacheKey("v 0 0 0\n", load2, TetOptions{}));
}

TEST(MeshCache, HitReturnsIdenticalTets) {
  test::TempDir dir;
  const TetCache cache(dir.path() / "cache");
  const TetResult r = smallResult();
  EXPECT_FALSE(cache.load(42).has_value());
  ASSERT_TRUE(cache.store(42, r).ok());
  std::string rejected;
  std::optional<TetResult> hit = cache.load(42, &rejected);
  ASSERT_TRUE(hit.has_value()) << rejected;
  EXPECT_TRUE(hit->fromCache);
  EXPECT_EQ(hit->path, r.path);
  EXPECT_EQ(hit->reason, r.reason);
  EXPECT_EQ(hit->tetgenSwitches, r.tetgenSwitches);
  ASSERT_EQ(hit->mesh.tets.size(), r.mesh.tets.size());
  ASSERT_EQ(hit->mesh.positions.size(), r.mesh.positions.size());
  for (size_t i = 0; i < r.mesh.tets.size(); ++i) ASSERT_EQ(hit->mesh.tets[i], r.mesh.tets[i]);
  for (size_t i = 0; i < r.mesh.positions.size(); ++i) ASSERT_EQ(hit->mesh.positions[i], r.mesh.positions[i]);
  EXPECT_FALSE(cache.load(43).has_value());  // another key is a miss
}

TEST(MeshCache, CorruptOrShortFilesAreRejectedAndRebuilt) {
  test::TempDir dir;
  const TetCache cache(dir.path());
  const TetResult r = smallResult();
  ASSERT_TRUE(cache.store(7, r).ok());
  const std::filesystem::path file = cache.pathFor(7);
  const auto size = std::filesystem::file_size(file);

  // One flipped byte in the tet data.
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(size - 20));
    f.put('\x5a');
  }
  std::string rejected;
  EXPECT_FALSE(cache.load(7, &rejected).has_value());
  EXPECT_NE(rejected.find("checksum"), std::string::npos) << rejected;
  EXPECT_FALSE(std::filesystem::exists(file));  // removed, so the next load rebuilds

  // Truncated file.
  ASSERT_TRUE(cache.store(7, r).ok());
  std::filesystem::resize_file(file, size / 2);
  EXPECT_FALSE(cache.load(7, &rejected).has_value());

  // Tiny file.
  std::ofstream(cache.pathFor(8), std::ios::binary) << "TL";
  EXPECT_FALSE(cache.load(8, &rejected).has_value());
  EXPECT_NE(rejected.find("too short"), std::string::npos) << rejected;

  // A consistent file (checksum fine) whose content is wrong: a flipped tet.
  TetResult bad = r;
  std::swap(bad.mesh.tets[0].z, bad.mesh.tets[0].w);
  ASSERT_TRUE(cache.store(9, bad).ok());
  EXPECT_FALSE(cache.load(9, &rejected).has_value());
  EXPECT_NE(rejected.find("positively oriented"), std::string::npos) << rejected;

  // Stored under one key, read under another: rejected by the key field.
  ASSERT_TRUE(cache.store(10, r).ok());
  std::filesystem::copy_file(cache.pathFor(10), cache.pathFor(11));
  EXPECT_FALSE(cache.load(11, &rejected).has_value());
  EXPECT_NE(rejected.find("another input"), std::string::npos) << rejected;

  // Rebuild: store again, and the hit is identical.
  ASSERT_TRUE(cache.store(7, r).ok());
  std::optional<TetResult> hit = cache.load(7);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->mesh.tets, r.mesh.tets);
}

TEST(MeshCache, DefaultDirHonoursTheEnvironment) {
  const char* old = std::getenv("TETLAB_CACHE_DIR");
  const std::string saved = old ? old : "";
  setenv("TETLAB_CACHE_DIR", "/tmp/tetlab-test-cache-dir", 1);
  EXPECT_EQ(defaultTetCacheDir(), std::filesystem::path("/tmp/tetlab-test-cache-dir"));
  if (old) setenv("TETLAB_CACHE_DIR", saved.c_str(), 1);
  else unsetenv("TETLAB_CACHE_DIR");
  EXPECT_FALSE(defaultTetCacheDir().empty());
}

}  // namespace
}  // namespace tetlab
