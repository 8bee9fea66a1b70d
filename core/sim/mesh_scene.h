#pragma once
// A scene from a user's OBJ: the mesh pipeline (core/mesh: load, repair,
// tetrahedralize through the cache) then the same layout as the `drop`
// preset: the body scaled to fit a cube of side fitSize, centred on x = z = 0,
// its lowest point dropHeight above the ground plane y = 0.
#include <string>

#include "core/model/material.h"
#include "core/result.h"
#include "core/sim/presets.h"

namespace tetlab {

struct MeshSceneOptions {
  Material material;
  int targetTets = 5000;    // approximate tet count (TetOptions::targetTets)
  float fitSize = 0.3f;     // [m] side of the cube the mesh is scaled into
  float dropHeight = 0.5f;  // [m] lowest point above the ground
  bool useCache = true;     // tet cache (core/mesh/tet_cache.h)
};

// Errors name the file and the failing stage (load, tetrahedralize, model).
// outPipelineNote (optional) says which tetrahedralization path was taken and why.
Result<Scene> makeMeshScene(const std::string& objPath, const MeshSceneOptions& options,
                            std::string* outPipelineNote = nullptr);

}  // namespace tetlab
