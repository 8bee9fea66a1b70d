#include "core/sim/mesh_scene.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <glm/common.hpp>

#include "core/mesh/obj_loader.h"
#include "core/mesh/tet_cache.h"
#include "core/mesh/tetrahedralize.h"
#include "core/model/model_builder.h"

namespace tetlab {

Result<Scene> makeMeshScene(const std::string& objPath, const MeshSceneOptions& options,
                            std::string* outPipelineNote) {
  ObjLoadOptions load;
  load.normalizeScale = true;
  load.fitSize = options.fitSize;
  Result<LoadedSurface> loaded = loadObj(objPath, load);
  if (!loaded) return Error{loaded.error().message};

  TetOptions tetOptions;
  tetOptions.targetTets = options.targetTets;
  std::optional<TetResult> tets;
  const TetCache cache(defaultTetCacheDir());
  Result<uint64_t> key = tetCacheKeyForFile(objPath, load, tetOptions);
  if (options.useCache && key) tets = cache.load(*key);
  if (!tets) {
    Result<TetResult> made = tetrahedralizeSurface(loaded->mesh, tetOptions);
    if (!made) return Error{objPath + ": tetrahedralization failed: " + made.error().message};
    tets = std::move(made).value();
    if (options.useCache && key) (void)cache.store(*key, *tets);  // a cache write failure only costs time
  }
  if (outPipelineNote)
    *outPipelineNote = std::string(toString(tets->path)) + (tets->fromCache ? " (cached)" : "") +
                       (tets->reason.empty() ? "" : ": " + tets->reason);

  BodyDesc body;
  body.mesh = std::move(tets->mesh);
  body.material = options.material;
  body.name = objPath;
  if (body.mesh.positions.empty()) return Error{objPath + ": tetrahedralization produced no vertices"};
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec3& p : body.mesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const glm::vec3 shift{-0.5f * (lo.x + hi.x), options.dropHeight - lo.y, -0.5f * (lo.z + hi.z)};
  for (glm::vec3& p : body.mesh.positions) p += shift;

  Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  if (!model) return Error{model.error().message};
  Scene scene;
  scene.name = objPath;
  scene.model = std::move(model).value();
  return scene;
}

}  // namespace tetlab
