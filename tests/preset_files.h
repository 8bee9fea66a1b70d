#pragma once
// The preset scene files of assets/scenes as the tests load them: the same
// search path as the app (the scenes folder, then assets/), so a relative mesh
// path resolves as it does for a user.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/scene/scene_build.h"
#include "core/scene/scene_json.h"

namespace tetlab::test {

inline std::filesystem::path assetsDir() { return std::filesystem::path(TETLAB_SOURCE_DIR) / "assets"; }

// The stems of assets/scenes/*.json, sorted: one test case per preset, so a
// new preset file is covered without editing a test.
inline std::vector<std::string> presetStems() {
  std::vector<std::string> stems;
  for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(assetsDir() / "scenes"))
    if (e.path().extension() == ".json") stems.push_back(e.path().stem().string());
  std::sort(stems.begin(), stems.end());
  return stems;
}

inline SceneBuildOptions presetBuildOptions() {
  SceneBuildOptions options;
  options.searchDirs = {assetsDir() / "scenes", assetsDir()};
  return options;
}

// assets/scenes/<file>; a failure is a test failure with the loader's message.
inline Result<SceneDesc> loadPresetDesc(const std::string& file) {
  Result<SceneDesc> desc = loadSceneFile(assetsDir() / "scenes" / file);
  EXPECT_TRUE(desc.ok()) << desc.error().message;
  return desc;
}

inline Result<BuiltScene> buildPresetDesc(const SceneDesc& desc) {
  Result<BuiltScene> built = buildScene(desc, presetBuildOptions());
  EXPECT_TRUE(built.ok()) << built.error().message;
  return built;
}

}  // namespace tetlab::test
