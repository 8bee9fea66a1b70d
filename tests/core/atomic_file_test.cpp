// Nothing lost (issue 16, item 6): a file written through writeFileAtomically,
// a saved scene among them, is replaced whole or not at all. A full disk is
// simulated by RLIMIT_FSIZE (tests/file_size_limit.h): the write fails part-way,
// as it would on a real full disk, and the old file must be left as it was.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/file_size_limit.h"
#include "tests/preset_files.h"
#include "core/atomic_file.h"
#include "core/scene/scene_json.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh folder per test, removed after.
struct TempFolder {
  fs::path path;
  explicit TempFolder(const std::string& name)
      : path(fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  size_t entries() const { return size_t(std::distance(fs::directory_iterator(path), fs::directory_iterator())); }
};

TEST(AtomicFile, WritesAndReplacesLeavingNoTemporary) {
  TempFolder dir("tetlab_atomic_write");
  const fs::path file = dir.path / "sub" / "a.txt";
  ASSERT_TRUE(writeFileAtomically(file, "first").ok());
  EXPECT_EQ(readAll(file), "first");
  ASSERT_TRUE(writeFileAtomically(file, "second, longer").ok());
  EXPECT_EQ(readAll(file), "second, longer");
  EXPECT_EQ(size_t(std::distance(fs::directory_iterator(file.parent_path()), fs::directory_iterator())), 1u);
}

TEST(AtomicFile, FullDiskLeavesTheOldFileIntact) {
  TempFolder dir("tetlab_atomic_full");
  const fs::path file = dir.path / "a.txt";
  ASSERT_TRUE(writeFileAtomically(file, "the old contents").ok());
  const std::string big(64 * 1024, 'x');
  Status s = Ok{};
  {
    test::FileSizeLimit limit(4096);
    s = writeFileAtomically(file, big);
  }
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("disk full"), std::string::npos) << s.error().message;
  EXPECT_EQ(readAll(file), "the old contents");
  EXPECT_EQ(dir.entries(), 1u) << "the temporary was not removed";
}

TEST(AtomicFile, AFolderInTheWayIsAnErrorAndStaysAsItWas) {
  TempFolder dir("tetlab_atomic_folder");
  const fs::path folder = dir.path / "scene.json";
  fs::create_directories(folder / "inside");
  Status s = writeFileAtomically(folder, "{}");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("folder"), std::string::npos) << s.error().message;
  EXPECT_TRUE(fs::is_directory(folder / "inside"));
}

TEST(AtomicFile, FailedSceneSaveKeepsTheSavedSceneAndSaysSo) {
  TempFolder dir("tetlab_atomic_scene");
  Result<SceneDesc> beam = test::loadPresetDesc("beam.json");
  Result<SceneDesc> pile = test::loadPresetDesc("pile.json");
  ASSERT_TRUE(beam.ok() && pile.ok());
  const fs::path file = dir.path / "tuned.json";
  ASSERT_TRUE(saveSceneFile(file, *beam).ok());
  const std::string saved = readAll(file);
  const std::string bigger = sceneToJsonText(*pile);
  ASSERT_GT(bigger.size(), 512u);
  Status s = Ok{};
  {
    test::FileSizeLimit limit(512);  // below the pile scene's size
    s = saveSceneFile(file, *pile);
  }
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find(file.string()), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("unchanged"), std::string::npos) << s.error().message;
  EXPECT_EQ(readAll(file), saved);
  Result<SceneDesc> reloaded = loadSceneFile(file);
  ASSERT_TRUE(reloaded.ok()) << reloaded.error().message;
  EXPECT_EQ(reloaded->name, beam->name);
  EXPECT_EQ(dir.entries(), 1u);
}

}  // namespace
}  // namespace tetlab
