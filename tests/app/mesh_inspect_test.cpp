// runInspectCommand (the `tetlab inspect` subcommand) called in-process: one
// JSON object on stdout that agrees with itself, a cache hit on the second
// run, and a clear stderr message plus non-zero exit on a bad file. No GL.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/commands/commands.h"

namespace tetlab {
namespace {

// Points TETLAB_CACHE_DIR at a fresh directory for the test's lifetime.
class ScopedCacheDir {
 public:
  ScopedCacheDir() : dir_(std::filesystem::temp_directory_path() / ("tetlab_inspect_cache_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(dir_);
    const char* old = std::getenv("TETLAB_CACHE_DIR");
    hadOld_ = old != nullptr;
    if (old) old_ = old;
    setenv("TETLAB_CACHE_DIR", dir_.c_str(), 1);
  }
  ~ScopedCacheDir() {
    if (hadOld_) setenv("TETLAB_CACHE_DIR", old_.c_str(), 1);
    else unsetenv("TETLAB_CACHE_DIR");
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

 private:
  std::filesystem::path dir_;
  std::string old_;
  bool hadOld_ = false;
};

nlohmann::json runJson(const std::string& file, int targetTets, int& outExit) {
  InspectArgs args;
  args.file = file;
  args.targetTets = targetTets;
  args.json = true;
  testing::internal::CaptureStdout();
  outExit = runInspectCommand(args);
  const std::string out = testing::internal::GetCapturedStdout();
  return nlohmann::json::parse(out);  // throws (and fails the test) unless stdout is exactly one JSON value
}

TEST(MeshInspect, JsonReportIsCompleteAndCachedOnSecondRun) {
  ScopedCacheDir cacheDir;
  const std::string file = std::string(TETLAB_SOURCE_DIR) + "/assets/meshes/torus.obj";
  int exitCode = -1;
  const nlohmann::json first = runJson(file, 2000, exitCode);
  ASSERT_EQ(exitCode, 0) << first.dump(2);
  EXPECT_TRUE(first["ok"].get<bool>());
  EXPECT_TRUE(first["surface"]["watertight"].get<bool>());
  EXPECT_EQ(first["tetrahedralization"]["path"], "tetgen");
  EXPECT_EQ(first["tetrahedralization"]["cache"], "miss, stored");
  const nlohmann::json& model = first["model"];
  EXPECT_GT(model["tets"].get<int>(), 0);
  EXPECT_EQ(model["flippedTets"].get<int>(), 0);
  for (const char* k : {"tets", "edges", "vertices"}) {
    const nlohmann::json& c = model["coloring"][k];
    EXPECT_GE(c["colors"].get<int>(), c["lowerBound"].get<int>()) << k;
    EXPECT_LE(c["colors"].get<int>(), c["greedyBound"].get<int>()) << k;
  }
  EXPECT_EQ(first["embedding"]["renderVertices"], first["load"]["vertices"]);

  const nlohmann::json second = runJson(file, 2000, exitCode);
  ASSERT_EQ(exitCode, 0);
  EXPECT_EQ(second["tetrahedralization"]["cache"], "hit");
  EXPECT_EQ(second["model"]["tets"], model["tets"]);
  EXPECT_EQ(second["model"]["vertices"], model["vertices"]);
  EXPECT_EQ(second["tetrahedralization"]["reason"], first["tetrahedralization"]["reason"]);
}

TEST(MeshInspect, BadFileFailsWithAMessageOnStderr) {
  ScopedCacheDir cacheDir;
  const std::filesystem::path bad = std::filesystem::temp_directory_path() / ("tetlab_inspect_bad_" + std::to_string(::getpid()) + ".obj");
  std::ofstream(bad) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n";
  testing::internal::CaptureStderr();
  int exitCode = 0;
  const nlohmann::json j = runJson(bad.string(), 1000, exitCode);
  const std::string err = testing::internal::GetCapturedStderr();
  std::filesystem::remove(bad);
  EXPECT_NE(exitCode, 0);
  EXPECT_FALSE(j["ok"].get<bool>());
  EXPECT_NE(err.find(bad.string() + ":4:"), std::string::npos) << err;
  EXPECT_NE(err.find("only 3 vertices"), std::string::npos) << err;
}

TEST(MeshInspect, TextReportNamesThePathAndTheColourings) {
  ScopedCacheDir cacheDir;
  InspectArgs args;
  args.file = std::string(TETLAB_SOURCE_DIR) + "/assets/meshes/cube_5.obj";
  args.targetTets = 1000;
  testing::internal::CaptureStdout();
  const int exitCode = runInspectCommand(args);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(exitCode, 0) << out;
  for (const char* s : {"path         tetgen", "why", "colours tets", "colours edges", "colours vertices", "watertight   yes"})
    EXPECT_NE(out.find(s), std::string::npos) << "missing '" << s << "' in:\n" << out;
}

}  // namespace
}  // namespace tetlab
