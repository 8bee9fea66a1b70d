#pragma once
// SceneDesc -> the simulation model plus what is drawn.
//
//   per body:  OBJ --load, fit--> surface --tetrahedralize (cache)--> tets      generator --> tets
//              transform (scale, rotate, translate, seeded random yaw/offset, lift) both alike
//   all:       buildSimModel(bodies)  ->  pins (regions + file lists)  ->  render surfaces
//
// Render surfaces: an OBJ body draws the user's own surface, each vertex
// embedded in a tet (core/mesh/embedding.h); a generated body draws the tet
// mesh's boundary triangles, as an embedding with weight 1 on one vertex. Both
// use the same SurfaceEmbedding with MODEL vertex ids (body offsets applied),
// so the app, picking and export treat every body alike.
//
// Slow parts (TetGen, the model build) report progress and honour a cancel
// flag; SceneBuildJob runs the whole build on a worker thread.
#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/mesh/embedding.h"
#include "core/model/model_builder.h"
#include "core/result.h"
#include "core/scene/scene_desc.h"
#include "core/sim/scene.h"

namespace tetlab {

struct BodySurface {
  std::string name;
  uint32_t body = 0;
  SurfaceMesh surface;          // rest positions (world, after the transform) and triangles
  SurfaceEmbedding embedding;   // per surface vertex: model vertex ids and weights
  bool fromBoundary = false;    // the tet mesh's own boundary (generated bodies), or a cloth's own triangles
  bool cloth = false;           // a cloth sheet (SimModel::isCloth): drawn two-sided in its own colours
};

struct BodyRange {
  std::string name;
  uint32_t vertexBegin = 0, vertexEnd = 0;  // model vertices [begin, end)
  uint32_t tets = 0;
  std::string note;                         // how the tets were made (TetGen / fallback / cache / generator)
};

struct BuiltScene {
  Scene scene;                            // model, settings, pinned vertices
  std::vector<BodySurface> surfaces;    // one per body
  std::vector<BodyRange> bodies;
  std::vector<glm::vec3> initialVelocity; // per body [m/s]
  std::vector<uint32_t> regionPins;       // pinned by the bodies' pin regions alone
  // Per model tet: its density as a multiple of its body's material density
  // (1 unless a density region covers it); empty = all 1. recomputeLumpedMass
  // uses it after a density edit.
  std::vector<float> tetDensityScale;
  std::vector<std::string> warnings;      // loader repairs, fallbacks: for the UI
  ModelBuildReport report;
};

struct SceneBuildOptions {
  // Where relative OBJ paths are looked up, in order (the scene file's folder,
  // then the asset folders and their meshes/ subfolders).
  std::vector<std::filesystem::path> searchDirs;
  bool useTetCache = true;
};

// stage: one short phrase ("tetrahedralizing bunny (TetGen)"); fraction of the whole build, 0..1.
using SceneBuildProgress = std::function<void(const std::string& stage, float fraction)>;

// Errors name the body, the file and the failing stage. cancel may be null.
Result<BuiltScene> buildScene(const SceneDesc& desc, const SceneBuildOptions& options,
                              const SceneBuildProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

// model.mass[i] = sum over incident tets of rho_t V_t / 4, rho_t = the tet's
// body density times tetDensityScale[t] (empty scale: 1).
void recomputeLumpedMass(SimModel& model, std::span<const float> tetDensityScale);

// Rest positions, the scene's pins, every body's initial velocity.
State makeInitialState(const BuiltScene& built);

// A relative path is tried as given (working folder) and then in each search
// folder; errors list where it looked.
Result<std::filesystem::path> resolveSceneMeshPath(const std::string& path,
                                                   const std::vector<std::filesystem::path>& searchDirs);

// Runs buildScene on a worker thread so the UI stays responsive:
//   job.start(desc, options);  each frame: job.progress(); if (job.finished()) result = job.take();
// The destructor cancels and joins.
class SceneBuildJob {
 public:
  struct Progress {
    std::string stage;
    float fraction = 0.0f;
    double elapsedSeconds = 0.0;
  };

  SceneBuildJob() = default;
  SceneBuildJob(const SceneBuildJob&) = delete;
  SceneBuildJob& operator=(const SceneBuildJob&) = delete;
  ~SceneBuildJob();

  void start(SceneDesc desc, SceneBuildOptions options);  // cancels and joins a running build first
  void cancel();
  bool running() const { return running_.load(); }
  bool finished() const { return finished_.load(); }
  Progress progress() const;
  const SceneDesc& desc() const { return desc_; }  // what is being built (valid while running/finished)
  std::optional<Result<BuiltScene>> take();

 private:
  void stop();

  SceneDesc desc_;
  std::thread worker_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> running_{false};
  std::atomic<bool> finished_{false};
  mutable std::mutex mutex_;
  Progress progress_;
  std::optional<Result<BuiltScene>> result_;
  double startSeconds_ = 0.0;
};

}  // namespace tetlab
