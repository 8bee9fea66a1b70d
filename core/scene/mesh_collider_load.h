#pragma once
// Fills a MeshCollider's grid and surface (core/sim/colliders.h) from its OBJ:
// the path is looked up like a body's mesh (resolveSceneMeshPath), the surface
// is fitted into a unit cube centred at the origin (the collider's `size`
// scales it live), and its signed distance field is sampled once
// (sampleSdfGrid). Errors name the file and say what to do.
#include <filesystem>
#include <vector>

#include "core/result.h"
#include "core/sim/colliders.h"

namespace tetlab {

Status loadMeshCollider(MeshCollider& collider, const std::vector<std::filesystem::path>& searchDirs);

// Every mesh collider of `colliders` without a grid (a scene just parsed).
Status loadMeshColliders(Colliders& colliders, const std::vector<std::filesystem::path>& searchDirs);

}  // namespace tetlab
