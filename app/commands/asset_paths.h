#pragma once
// Finding assets/ whether tetlab runs from the build tree, from the source
// tree, or from a copied folder: the source tree's assets/ (TETLAB_ASSET_DIR,
// baked in at build time) first, then assets/ next to or above the executable.
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"

namespace tetlab {

inline constexpr const char* kDefaultMesh = "meshes/bunny_10k.obj";  // relative to assets/

// Folder holding the running executable (/proc/self/exe), or argv0's folder as a fallback.
std::filesystem::path executableDir(const char* argv0);

// Existing asset folders in search order.
std::vector<std::filesystem::path> assetSearchDirs(const std::filesystem::path& exeDir);

// A user-given path is used as given when it exists (relative to the working
// folder); otherwise, if relative, it is also looked up in each asset folder
// and its meshes/ subfolder. Errors name the path as the user typed it and the
// system's reason, e.g. "cannot open mesh 'x.obj': No such file or directory: check the path".
Result<std::filesystem::path> resolveMeshPath(const std::string& userPath,
                                              const std::vector<std::filesystem::path>& assetDirs);

// The names (file stems) of the scenes in each asset folder's scenes/, sorted, each once.
std::vector<std::string> sceneNames(const std::vector<std::filesystem::path>& assetDirs);

// A scene argument as typed, else NAME, NAME.json, scenes/NAME(.json) in each asset folder.
// An unknown name's error lists the preset names found.
Result<std::filesystem::path> resolveScenePath(const std::string& typed,
                                               const std::vector<std::filesystem::path>& assetDirs);

}  // namespace tetlab
