// Scenes in the app: the synchronous first load happens in App::create; later
// loads (presets, files, OBJs, drops, re-tetrahedralization) run on a
// SceneBuildJob while the current scene keeps simulating, and are installed
// when finished. Saving writes the session's current set-up with the camera.
#include <cmath>
#include <cstdio>

#include "app/app.h"
#include "app/commands/asset_paths.h"
#include "core/scene/mesh_collider_load.h"
#include "core/scene/scene_json.h"
#include "core/sim/presets.h"

namespace tetlab {

namespace {

constexpr float kDegrees = 180.0f / 3.14159265358979323846f;

}  // namespace

SceneBuildOptions App::buildOptionsFor(const std::filesystem::path& sceneDir) const {
  SceneBuildOptions o;
  if (!sceneDir.empty()) o.searchDirs.push_back(sceneDir);
  for (const std::filesystem::path& d : options_.assetDirs) o.searchDirs.push_back(d);
  return o;
}

void App::applyCamera(const CameraSpec& spec) {
  if (!spec.set) return;
  camera_.target = spec.target;
  camera_.distance = spec.distance;
  camera_.yaw = spec.yawDegrees / kDegrees;
  camera_.pitch = std::clamp(spec.pitchDegrees / kDegrees, -OrbitCamera::kMaxPitch, OrbitCamera::kMaxPitch);
  camera_.minDistance = 0.01f * spec.distance;
  camera_.maxDistance = 100.0f * spec.distance;
}

CameraSpec App::currentCamera() const {
  CameraSpec c;
  c.set = true;
  c.target = camera_.target;
  c.distance = camera_.distance;
  c.yawDegrees = camera_.yaw * kDegrees;
  c.pitchDegrees = camera_.pitch * kDegrees;
  return c;
}

Status App::installScene(SceneDesc desc, BuiltScene built, const std::filesystem::path& file) {
  std::vector<RenderSurface> surfaces = renderSurfacesFrom(built.surfaces);
  const CameraSpec camera = desc.camera;
  Result<std::unique_ptr<SimSession>> session = SimSession::create(std::move(desc), std::move(built));
  if (!session) return session.error();
  (*session)->setKernelSource(KernelSourceOptions{options_.kernelDir});
  Result<SimView> view = SimView::create((*session)->model(), std::move(surfaces));
  if (!view) return view.error();
  const Backend previous = session_ ? session_->backend() : Backend::Cpu;
  stopCompare();  // its lanes are the old scene's
  if (dragging_) dragging_ = false;
  stopGpuRendering();  // the device embedding belongs to the old scene's surfaces
  gpuRenderProblem_.clear();
  simView_ = std::move(*view);
  session_ = std::move(*session);
  sceneFile_ = file;
  if (!file.empty()) std::snprintf(scenePanel_.scenePath, sizeof(scenePanel_.scenePath), "%s", file.c_str());
  glfwSetWindowTitle(window_->handle(), ("tetlab " TETLAB_VERSION " - " + session_->desc().name).c_str());
  for (const std::string& w : session_->built().warnings) reportNotice(w);
  for (const std::string& n : session_->takeNotices()) reportNotice(n);
  // The view needs one update for its bounds (the automatic camera fit) before the first frame.
  simView_->update(session_->model(), session_->state(), session_->settings().colliders, view_);
  if (camera.set)
    applyCamera(camera);
  else
    fitView(true);
  if (previous == Backend::OpenCl)
    if (Status s = switchBackend(Backend::OpenCl); !s) reportError(s.error().message);
  return Ok{};
}

void App::startLoad(SceneDesc desc, std::string what, std::filesystem::path file) {
  if (!job_) job_ = std::make_unique<SceneBuildJob>();
  loadingWhat_ = std::move(what);
  loadingFile_ = std::move(file);
  job_->start(std::move(desc), buildOptionsFor(loadingFile_.parent_path()));
}

void App::pollLoad() {
  if (!job_ || !job_->finished()) return;
  SceneDesc desc = job_->desc();
  std::optional<Result<BuiltScene>> result = job_->take();
  if (!result) return;
  if (!*result) {
    reportError("loading " + loadingWhat_ + " failed: " + result->error().message);
    return;
  }
  if (Status s = installScene(std::move(desc), std::move(**result), loadingFile_); !s) {
    reportError("cannot show " + loadingWhat_ + ": " + s.error().message);
    return;
  }
  if (session_->desc().compare.active())
    if (Status s = startCompare(session_->desc().compare); !s) reportError(s.error().message);
}

void App::openSceneFile(const std::filesystem::path& path) {
  Result<SceneDesc> desc = loadSceneFile(path);
  if (!desc) {
    reportError(desc.error().message);
    return;
  }
  startLoad(std::move(*desc), path.filename().string(), path);
}

void App::openObj(const std::string& path) {
  Result<std::filesystem::path> resolved = resolveMeshPath(path, options_.assetDirs);
  if (!resolved) {
    reportError(resolved.error().message);
    return;
  }
  SceneDesc desc = makeMeshDropScene(std::filesystem::absolute(*resolved).string(), scenePanel_.tets.targetTets);
  desc.bodies.front().tets = scenePanel_.tets;
  if (session_) desc.settings = session_->settings();  // keep the solver set-up the user is comparing
  desc.settings.colliders = Colliders{};
  startLoad(std::move(desc), resolved->filename().string(), {});
}

void App::addMeshCollider(const std::string& path) {
  MeshCollider m;
  m.mesh = path;
  m.center = {0.0f, 0.5f * m.size, 0.0f};  // resting on the ground at the origin
  if (Status s = loadMeshCollider(m, buildOptionsFor(sceneFile_.parent_path()).searchDirs); !s) {
    reportError(s.error().message);
    return;
  }
  session_->settings().colliders.meshes.push_back(std::move(m));
  reportNotice("added a mesh collider from " + path);
}

Status App::saveScene(const std::string& path) {
  if (!session_) return Error{"no scene is loaded to save"};
  namespace fs = std::filesystem;
  SceneDesc desc = session_->describe();
  desc.camera = currentCamera();
  // The comparison as it runs (lanes, budgets, view); none when not comparing.
  desc.compare = compare_ ? compare_->describe() : CompareSpec{};
  if (compare_) desc.compare.view = compareView_;
  // Relative mesh paths are written relative to the new file's folder.
  const fs::path targetDir = fs::absolute(fs::path(path)).parent_path();
  const SceneBuildOptions from = buildOptionsFor(sceneFile_.parent_path());
  auto relocate = [&](std::string& meshPath) {
    Result<fs::path> found = resolveSceneMeshPath(meshPath, from.searchDirs);
    if (!found) return;  // keep it as written; loading will say what is missing
    std::error_code ec;
    const fs::path relative = fs::relative(fs::absolute(*found), targetDir, ec);
    meshPath = ec || relative.empty() ? fs::absolute(*found).string() : relative.string();
  };
  for (BodySpec& b : desc.bodies)
    if (b.source == BodySource::Mesh) relocate(b.meshPath);
  for (MeshCollider& m : desc.settings.colliders.meshes) relocate(m.mesh);
  if (Status s = saveSceneFile(path, desc); !s) return s;
  sceneFile_ = fs::path(path);
  reportNotice("saved the scene to " + path);
  return Ok{};
}

void App::startOnBestBackend() {
  Status s = options_.opencl.chosen ? switchBackend(Backend::OpenCl)
                                    : Status(Error{options_.opencl.error.empty() ? "no OpenCL device found"
                                                                                 : options_.opencl.error});
  if (s) return;
  const std::string notice = "running on the CPU reference: " + s.error().message;
  reportNotice(notice);
  std::fprintf(stderr, "tetlab: %s\n", notice.c_str());
}

Status App::ensureClContext() {
  if (clContext_) return Ok{};
  if (!options_.opencl.chosen)
    return Error{"no OpenCL device: " + (options_.opencl.error.empty() ? std::string("none found")
                                                                       : options_.opencl.error)};
  ClContextOptions o;
  o.choice = *options_.opencl.chosen;
  // Ask for a GL-sharing context; createClContext falls back to a plain one
  // (and says why) when the device or driver cannot share.
  o.glSharingProperties = glxSharingProperties(window_->handle());
  Result<ClContext> ctx = createClContext(o);
  if (!ctx) return Error{"cannot create the OpenCL context: " + ctx.error().message};
  clContext_ = std::move(*ctx);
  return Ok{};
}

Status App::switchBackend(Backend backend) {
  if (!session_) return Ok{};
  if (backend == Backend::OpenCl)
    if (Status s = ensureClContext(); !s) return s;
  Status s = session_->setBackend(backend, clContext_ ? &*clContext_ : nullptr);
  for (const std::string& n : session_->takeNotices()) reportNotice(n);
  return s;
}

Status App::selectOpenClDevice(DeviceChoice choice) {
  auto resolved = chooseDevice(options_.opencl.platforms, choice);
  if (!resolved) return resolved.error();
  const bool onOpenCl = session_ && session_->backend() == Backend::OpenCl;
  // Everything holding the old context goes first: the device drawing path,
  // the session's simulator (x and v come home), then the context itself.
  stopGpuRendering();
  gpuRenderProblem_.clear();
  if (session_) {
    if (Status s = session_->dropOpenCl(); !s) return s;
  }
  clContext_.reset();
  options_.opencl.chosen = *resolved;
  reportNotice("OpenCL device: " + describeDevice(options_.opencl.platforms[size_t(resolved->platform)]
                                                      .devices[size_t(resolved->device)]));
  return onOpenCl ? switchBackend(Backend::OpenCl) : Ok{};
}

void App::applyUiActions(const UiActions& a) {
  if (a.selectDevice)
    if (Status s = selectOpenClDevice(*a.selectDevice); !s) reportError(s.error().message);
  if (a.clearMessages) messages_.clear();
  if (a.fitView || a.solver.fitView) fitView();
  if (a.scene.cancelLoad && job_) job_->cancel();
  if (a.scene.openScene) openSceneFile(*a.scene.openScene);
  if (a.scene.openObj) openObj(*a.scene.openObj);
  if (a.scene.addMeshCollider && session_) addMeshCollider(*a.scene.addMeshCollider);
  if (a.scene.saveScene)
    if (Status s = saveScene(*a.scene.saveScene); !s) reportError(s.error().message);
  if (a.scene.retetrahedralize && session_) {
    SceneDesc desc = session_->describe();
    for (BodySpec& b : desc.bodies)
      if (b.source == BodySource::Mesh) b.tets = scenePanel_.tets;
    // Vertex ids change with the tets: explicit pin lists no longer apply.
    desc.pinnedVertices.clear();
    desc.unpinnedVertices.clear();
    desc.camera = currentCamera();
    startLoad(std::move(desc), "re-tetrahedralized " + session_->desc().name, sceneFile_);
  }
  if (session_) {
    if (a.solver.backend)
      if (Status s = switchBackend(*a.solver.backend); !s) reportError(s.error().message);
    if (a.solver.reset) resetRun();
    if (a.solver.restore) {
      if (compare_)
        compare_->restoreLastGood();
      else
        session_->restoreLastGood();
    }
  }
  applyCompareActions(a.compare);
  if (a.record.start) startRecording(recordingOptionsFrom(recordUi_));
  if (a.record.stop) stopRecording();
  if (a.record.screenshot) screenshotRequested_ = true;
  if (a.record.exportStart) objExport_.emplace(recordUi_.exportDir);
  if (a.record.exportStop && objExport_) {
    reportNotice("wrote " + std::to_string(objExport_->framesWritten()) + " OBJ frame(s) to " +
                 objExport_->directory().string());
    objExport_.reset();
  }
}

void App::startRecording(const RecordingOptions& options) {
  Result<std::unique_ptr<Recorder>> r = Recorder::start(options);
  if (!r) {
    reportError(r.error().message);
    return;
  }
  recorder_ = std::move(*r);
}

void App::stopRecording() {
  if (!recorder_) return;
  const std::string summary = recorder_->summary();
  if (Status s = recorder_->stop(); !s)
    reportError(s.error().message);
  else
    reportNotice(summary);
  recorder_.reset();
}

void App::exportObjFrame() {
  if (!simView_ || !session_) return;
  // On the device path the view's CPU copies of the surfaces are not kept up to date.
  if (simView_->usesExternalSurfaceBuffer()) simView_->refreshCpuSurfaces(session_->state().x);
  std::vector<ExportSurface> surfaces;
  for (size_t i = 0; i < simView_->surfaceCount(); ++i)
    surfaces.push_back(ExportSurface{simView_->surface(i).name, simView_->surfacePositions(i),
                                     simView_->surfaceNormals(i), simView_->surface(i).triangles});
  char comment[64];
  std::snprintf(comment, sizeof(comment), "t = %.6f s", session_->time());
  if (Status s = objExport_->write(surfaces, comment); !s) {
    reportError(s.error().message);
    objExport_.reset();
  }
}

}  // namespace tetlab
