#pragma once
// The "Scene" section: built-in presets, an OBJ path with tetrahedralization
// options, scene files (open / save), the loading progress with cancel, and
// what the current scene is made of. Returns what the user asked for; the app
// starts the (asynchronous) load or the save.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/scene/scene_build.h"
#include "core/scene/scene_desc.h"

namespace tetlab {

struct PresetEntry {
  std::filesystem::path path;
  std::string name;         // the file's "name"
  std::string description;  // the file's "description"
};

// Every assets/scenes/*.json that parses, sorted by file name; files that do
// not parse are reported in outErrors.
std::vector<PresetEntry> listPresets(const std::vector<std::filesystem::path>& assetDirs,
                                     std::vector<std::string>& outErrors);

struct ScenePanelState {
  char objPath[512] = "";
  char scenePath[512] = "";
  char colliderMeshPath[512] = "bunny_10k.obj";  // the colliders section's mesh field
  TetSpec tets;                   // for OBJs loaded from the path field or dropped on the window
};

struct ScenePanelInput {
  const std::vector<PresetEntry>* presets = nullptr;
  const BuiltScene* built = nullptr;       // the scene running now (may be null)
  const SceneDesc* desc = nullptr;
  std::filesystem::path currentFile;       // where the running scene came from ("" = not a file)
  bool loading = false;
  std::string loadingWhat;
  std::string loadingStage;
  float loadingFraction = 0.0f;
  double loadingSeconds = 0.0;
};

struct ScenePanelActions {
  std::optional<std::filesystem::path> openScene;  // a preset or a scene file
  std::optional<std::string> openObj;              // with state.tets
  std::optional<std::string> addMeshCollider;      // the colliders section's "+ mesh" (a closed OBJ)
  std::optional<std::string> saveScene;
  bool retetrahedralize = false;                   // rebuild the current scene's OBJ bodies with state.tets
  bool cancelLoad = false;
};

ScenePanelActions drawScenePanel(ScenePanelState& state, const ScenePanelInput& input);

// The loading overlay in the middle of the 3D view (progress bar + cancel);
// returns true when cancel was pressed.
bool drawLoadingOverlay(const ScenePanelInput& input, float viewCenterX, float displayHeight);

}  // namespace tetlab
