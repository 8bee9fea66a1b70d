// Fuzz target: the scene file (core/scene/scene_json.h) and the scene build
// (core/scene/scene_build.h). Bytes are parsed as a scene JSON; a scene that
// parses must save and parse again to the same text (a saved scene is never
// lost), and a small one is built into a model with its initial state.
//
// Only small scenes are built, so one input runs in milliseconds: generators up
// to kMaxCells lattice cells (or cloth cells, or hair points) in all, and OBJ
// files (bodies, mesh colliders) only from the source tree's assets/, under a
// size cap, with few target tets (TetGen runs in a child process per body).
// Everything else stops after the parse.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/scene/scene_build.h"
#include "core/scene/scene_json.h"

namespace {

using namespace tetlab;
namespace fs = std::filesystem;

constexpr uint64_t kMaxCells = 2000;                 // all generated bodies together
constexpr int kMaxMeshBodies = 2;
constexpr uintmax_t kMaxMeshBytes = 64 * 1024;       // an OBJ body's file
constexpr uintmax_t kMaxColliderBytes = 20 * 1024;   // a mesh collider's file (its SDF is sampled)
constexpr int kMaxTargetTets = 1000;
constexpr int kMaxVoxelResolution = 24;
constexpr int kMaxColliderResolution = 16;

const fs::path& assetDir() {
  static const fs::path dir = fs::path(TETLAB_SOURCE_DIR) / "assets";
  return dir;
}

// A mesh path the build would open, when it is a small file inside assets/
// (never a file elsewhere on the machine: /proc and friends are not OBJ files).
bool smallAssetFile(const std::string& path, uintmax_t maxBytes) {
  Result<fs::path> resolved = resolveSceneMeshPath(path, {assetDir()});
  if (!resolved) return true;  // the build stops at once with "cannot find the mesh"
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(*resolved, ec);
  const fs::path assets = fs::weakly_canonical(assetDir(), ec);
  if (ec) return false;
  const std::string c = canonical.string(), a = assets.string() + "/";
  if (c.compare(0, a.size(), a) != 0) return false;
  const uintmax_t bytes = fs::file_size(canonical, ec);
  return !ec && bytes <= maxBytes;
}

uint64_t cellsOf(const BodySpec& b) {
  switch (b.source) {
    case BodySource::Box:
      return uint64_t(b.box.cells.x) * b.box.cells.y * b.box.cells.z;
    case BodySource::Sphere:
      return uint64_t(b.sphere.cellsAcross) * b.sphere.cellsAcross * b.sphere.cellsAcross;
    case BodySource::Torus:
      return uint64_t(b.torus.ringSegments) * b.torus.cellsAcross * b.torus.cellsAcross;
    case BodySource::Cloth:
      return uint64_t(b.cloth.cells.x) * b.cloth.cells.y;
    case BodySource::Hair:
      return uint64_t(b.hair.strands) * b.hair.points;
    case BodySource::Mesh:
      return 0;
  }
  return 0;
}

bool smallEnoughToBuild(const SceneDesc& scene) {
  uint64_t cells = 0;
  int meshes = 0;
  for (const BodySpec& b : scene.bodies) {
    cells += cellsOf(b);
    if (b.source != BodySource::Mesh) continue;
    if (++meshes > kMaxMeshBodies) return false;
    const bool mayMakeTets = b.kind == BodyKindChoice::Solid || b.kind == BodyKindChoice::Auto;
    if (mayMakeTets && (b.tets.targetTets > kMaxTargetTets || b.tets.voxelResolution > kMaxVoxelResolution))
      return false;
    if (!smallAssetFile(b.meshPath, kMaxMeshBytes)) return false;
  }
  if (cells > kMaxCells) return false;
  for (const MeshCollider& m : scene.settings.colliders.meshes)
    if (m.resolution > kMaxColliderResolution || !smallAssetFile(m.mesh, kMaxColliderBytes)) return false;
  return true;
}

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_scene: %s\n%s\n", what, detail.c_str());
  std::abort();
}

// TETLAB_FUZZ_VERBOSE=1: say how far each input got (to see what a corpus reaches).
void note(const std::string& what) {
  static const bool verbose = std::getenv("TETLAB_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "fuzz_scene: %s\n", what.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<SceneDesc> desc = parseSceneJson(text, "fuzz.json");
  if (!desc) {
    note("not parsed: " + desc.error().message);
    return 0;
  }

  // What the scene panel's "save" writes must load again, unchanged.
  const std::string saved = sceneToJsonText(*desc);
  Result<SceneDesc> reloaded = parseSceneJson(saved, "saved.json");
  if (!reloaded) fail("a parsed scene, saved, does not parse again", reloaded.error().message + "\n" + saved);
  if (sceneToJsonText(*reloaded) != saved) fail("a saved scene, loaded and saved again, changed", saved);

  if (!smallEnoughToBuild(*desc)) {
    note("parsed, too large to build");
    return 0;
  }
  SceneBuildOptions options;
  options.searchDirs = {assetDir()};
  options.useTetCache = false;  // never write the user's cache from a fuzz run
  Result<BuiltScene> built = buildScene(*desc, options);
  if (!built) {
    note("parsed, not built: " + built.error().message);
    return 0;
  }
  const State state = makeInitialState(*built);
  note("built: " + std::to_string(state.x.size()) + " vertices");
  return 0;
}
