#include "core/scene/mesh_collider_load.h"

#include <memory>
#include <string>

#include "core/mesh/obj_loader.h"
#include "core/scene/scene_build.h"
#include "core/sim/sdf_grid.h"

namespace tetlab {

Status loadMeshCollider(MeshCollider& collider, const std::vector<std::filesystem::path>& searchDirs) {
  Result<std::filesystem::path> path = resolveSceneMeshPath(collider.mesh, searchDirs);
  if (!path) return Error{"mesh collider: " + path.error().message};
  const std::string file = path->string();
  ObjLoadOptions load;
  load.normalizeScale = true;
  load.fitSize = 1.0f;
  Result<LoadedSurface> loaded = loadObj(file, load);
  if (!loaded) return Error{"mesh collider: " + loaded.error().message};
  Result<SdfGrid> grid = sampleSdfGrid(loaded->mesh, collider.resolution, "mesh collider '" + file + "'");
  if (!grid) return grid.error();
  collider.grid = std::make_shared<const SdfGrid>(std::move(grid).value());
  collider.surface = std::make_shared<const SurfaceMesh>(std::move(loaded->mesh));
  return Ok{};
}

Status loadMeshColliders(Colliders& colliders, const std::vector<std::filesystem::path>& searchDirs) {
  for (MeshCollider& m : colliders.meshes)
    if (!m.grid)
      if (Status s = loadMeshCollider(m, searchDirs); !s) return s;
  return Ok{};
}

}  // namespace tetlab
