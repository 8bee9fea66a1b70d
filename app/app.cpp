// The frame loop's steps; see app.h for the shape of main().
#include "app/app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app/render/colormap.h"
#include "core/scene/enum_names.h"
#include "core/scene/scene_json.h"
#include "core/sim/presets.h"
#include "gpu/solvers/opencl_simulator.h"

namespace tetlab {

App::~App() {
  // Finish files before the GL context goes (the recorder owns a child process).
  if (recorder_) (void)recorder_->stop();
  job_.reset();
}

Result<std::unique_ptr<App>> App::create(AppOptions options) {
  std::unique_ptr<App> app(new App());
  app->options_ = std::move(options);
  const AppOptions& o = app->options_;
  app->panelLayout_.openAtStart = o.uiOpen;

  // The scene is read and built before any window exists, so a bad file fails fast, display or not.
  Result<SceneDesc> desc = Error{""};
  std::filesystem::path sceneDir;
  if (!o.scenePath.empty()) {
    desc = loadSceneFile(o.scenePath);
    sceneDir = o.scenePath.parent_path();
  } else {
    desc = makeMeshDropScene(o.meshPath.string(), o.targetTets);
  }
  if (!desc) return desc.error();
  applyOverrides(o.overrides, *desc);
  Result<BuiltScene> built = buildScene(*desc, app->buildOptionsFor(sceneDir));
  if (!built) return Error{(o.scenePath.empty() ? o.sceneArgument : o.scenePath.string()) + ": " + built.error().message};

  WindowOptions windowOptions;
  windowOptions.width = o.width;
  windowOptions.height = o.height;
  windowOptions.visible = !o.headless;
  windowOptions.vsync = !o.headless;
  windowOptions.title = "tetlab " TETLAB_VERSION " - " + desc->name;
  Result<std::unique_ptr<Window>> window = Window::create(windowOptions);
  if (!window) return window.error();
  app->window_ = std::move(*window);
  app->glVersion_ = "OpenGL " + app->window_->glVersionString();

  Result<std::unique_ptr<ImGuiLayer>> imgui = ImGuiLayer::create(app->window_->handle());
  if (!imgui) return imgui.error();
  app->imgui_ = std::move(*imgui);
  Result<Renderer> renderer = Renderer::create();
  if (!renderer) return renderer.error();
  app->renderer_ = std::move(*renderer);
  const auto* glRenderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const int samples = chooseMsaaSamples(glRenderer ? glRenderer : "", o.msaaSamples);
  Result<OffscreenTarget> target = OffscreenTarget::create(app->targetSize(), samples);
  if (!target) return target.error();
  app->target_ = std::move(*target);

  std::vector<std::string> presetErrors;
  app->presets_ = listPresets(o.assetDirs, presetErrors);
  for (const std::string& e : presetErrors) app->reportError("preset skipped: " + e);
  app->ffmpegAvailable_ = findExecutableOnPath("ffmpeg").has_value();

  if (Status s = app->installScene(std::move(*desc), std::move(*built), o.scenePath); !s) return s.error();
  if (o.backend == Backend::OpenCl)
    if (Status s = app->switchBackend(Backend::OpenCl); !s) return s.error();
  if (!o.backend) app->startOnBestBackend();
  // Compare mode from `tetlab compare` (its flags over the scene file's lanes) or the scene file alone.
  CompareSpec compare = app->session_->desc().compare;
  if (o.compare) {
    Result<CompareSpec> spec = compareSpecOf(*o.compare, compare);
    if (!spec) return spec.error();
    compare = *spec;
  }
  if (compare.active())
    if (Status s = app->startCompare(compare); !s) return s.error();
  if (o.compare && !o.compare->csv.empty()) {
    Result<CompareCsv> csv = CompareCsv::open(o.compare->csv);
    if (!csv) return csv.error();
    app->compareCsv_ = std::move(*csv);
  }
  if (o.deform) {
    Result<DeformSettings> settings = deformSettingsFrom(*o.deform);
    if (!settings) return settings.error();
    if (Status s = app->openDeformer(o.deform->rest, o.deform->anim, *settings, o.deform->targetTets); !s)
      return s.error();
    if (!o.deform->holdVertices.empty()) {
      if (Status s = loadDeformHold(*o.deform, app->deform_->rest().positions.size(), app->deform_->settings()); !s)
        return s.error();
      (void)app->deform_->resolve();
    }
    app->deform_->playing = true;
    if (o.deform->overlay) app->deformUi_.layout = 1;
  }
  if (o.startPaused) app->session_->setPaused(true);
  if (!o.framesDir.empty()) app->sequence_.emplace(o.framesDir);
  if (!o.exportObjDir.empty()) app->objExport_.emplace(o.exportObjDir);
  if (!o.recordPath.empty()) {
    RecordingOptions record;
    record.output = o.recordPath;
    record.format = recordFormatForPath(o.recordPath);
    record.fps = o.recordFps;
    // `tetlab compare --record`: one video frame per simulated frame, so the
    // video, --frames and the CSV's rows count the same frames (real time at 1/dt).
    if (o.compare) record.fps = std::clamp(int(std::lround(1.0 / double(app->session_->settings().step.dt))), 1, 240);
    record.hideUi = o.recordHideUi;
    Result<std::unique_ptr<Recorder>> recorder = Recorder::start(record);
    if (!recorder) return recorder.error();
    app->recorder_ = std::move(*recorder);
  }

  // One measuring pass so the first rendered frame (maybe the only one, headless) shows the whole UI.
  app->newFrame();
  app->drawUi();
  app->imgui_->discardFrame();
  if (o.headless)
    std::printf("tetlab: headless %dx%d, %d frame(s), %s\n", o.width, o.height, o.frames, app->glVersion_.c_str());
  return app;
}

glm::ivec2 App::targetSize() const {
  if (options_.headless) return {options_.width, options_.height};
  return window_->framebufferSize();
}

glm::vec2 App::displaySize() const { return glm::vec2(options_.headless ? targetSize() : window_->windowSize()); }

void App::fitView(bool toLanding) {
  camera_.lensShift.x = panelLensShift(displaySize().x);
  const glm::ivec2 size = targetSize();
  const float aspect = size.y > 0 ? static_cast<float>(size.x) / static_cast<float>(size.y) : 1.0f;
  if (deformRow_) {
    deformRow_->frame(camera_, aspect);
    return;
  }
  if (!simView_) return;
  glm::vec3 lo = simView_->bounds().min, hi = simView_->bounds().max;
  if (toLanding && session_) {
    const GroundPlane& ground = session_->settings().colliders.ground;
    extendToLanding(ground.enabled, ground.height, session_->settings().step.gravity, lo, hi);
  }
  camera_.fitToBounds(lo, hi, aspect);
}

void App::reportError(const std::string& message) {
  std::fprintf(stderr, "tetlab: %s\n", message.c_str());
  messages_.push_back(UiMessage{true, message});
}

void App::reportNotice(const std::string& message) {
  std::printf("tetlab: %s\n", message.c_str());
  messages_.push_back(UiMessage{false, message});
}

void App::requestClose() { window_->requestClose(); }

void App::frame() {
  pollEvents();
  newFrame();
  drawUi();
  step();
  render();
  present();
}

bool App::running() const {
  if (failed_ || window_->shouldClose()) return false;
  return options_.frames == 0 || framesRendered_ < options_.frames;
}

void App::pollEvents() {
  glfwPollEvents();
  timer_.tick(glfwGetTime());
}

void App::newFrame() {
  const glm::ivec2 size = targetSize();
  if (size.x > 0 && size.y > 0)
    if (Status s = target_->resize(size); !s) reportError(s.error().message);
  imgui_->newFrame(options_.headless ? std::optional<glm::ivec2>(target_->size()) : std::nullopt);
  camera_.lensShift.x = panelLensShift(displaySize().x);
}

void App::drawUi() {
  const glm::vec2 display = displaySize();
  UiPanelInput input{timer_, options_.opencl, messages_, glVersion_, session_.get(), nullptr, {}, {}, {}, false, 0,
                     false, 0, false, display, {}, {}};
  ScenePanelInput& scene = input.scene;
  scene.presets = &presets_;
  if (session_) {
    scene.built = &session_->built();
    scene.desc = &session_->desc();
  }
  scene.currentFile = sceneFile_;
  if (job_ && job_->running()) {
    const SceneBuildJob::Progress p = job_->progress();
    scene.loading = true;
    scene.loadingWhat = loadingWhat_;
    scene.loadingStage = p.stage;
    scene.loadingFraction = p.fraction;
    scene.loadingSeconds = p.elapsedSeconds;
  }
  input.solver.openClAvailable = options_.opencl.chosen.has_value();
  if (renderPositions_) {
    input.glInterop = renderPositions_->pathName();
    input.solver.glInterop = renderPositions_->pathName();
    input.solver.glInteropWhy = renderPositions_->decision().reason;
  } else if (!gpuRenderProblem_.empty()) {
    input.solver.glInterop = "surfaces embedded on the CPU";
    input.solver.glInteropWhy = gpuRenderProblem_;
  }
  if (options_.opencl.chosen) {
    const DeviceChoice c = *options_.opencl.chosen;
    input.solver.openClDevice = options_.opencl.platforms[size_t(c.platform)].devices[size_t(c.device)].name;
  }
  input.solver.recording = recorder_ != nullptr;
  input.recording = recorder_ != nullptr;
  input.recordedFrames = recorder_ ? recorder_->framesWritten() : 0;
  input.exporting = objExport_.has_value();
  input.exportedFrames = objExport_ ? objExport_->framesWritten() : 0;
  input.ffmpegAvailable = ffmpegAvailable_;
  input.deform = deform_.get();
  input.compare.primary = session_.get();
  input.compare.compare = compare_.get();
  input.compare.view = compareView_;
  input.compare.openClAvailable = options_.opencl.chosen.has_value();
  input.compare.lastPickedVertex = lastPickedVertex_;
  if (compare_) {
    const size_t lane = std::min(size_t(std::max(compareUi_.parametersLane, 0)), compare_->laneCount() - 1);
    input.parametersLane = &compare_->lane(lane);
    input.parametersLaneLabel = std::to_string(lane + 1) + " " + compare_->laneLabel(lane);
  }

  const UiActions actions =
      drawUiPanel(input, settings_, view_, scenePanel_, recordUi_, compareUi_, deformUi_, panelLayout_);
  const char* brushDrag[] = {"orbit", "paint hold (on a body)", "erase hold (on a body)"};
  drawViewportHint(display, deform_ ? brushDrag[int(deformUi_.brush)] : nullptr);
  drawDeformOverlay(display);
  drawCompareLabels(display);
  if (simView_) {
    LegendInput legend;
    legend.field = simView_->shownField();
    legend.min = simView_->displayMin();
    legend.max = simView_->displayMax();
    legend.categories = simView_->categoryCount();
    legend.displaySize = display;
    drawColorLegend(legend);
  }
  if (recorder_) drawRecordingIndicator(recorder_->videoSeconds(), recorder_->framesWritten(), display);
  if (scene.loading && drawLoadingOverlay(scene, viewCenterX(display.x), display.y) && job_) job_->cancel();
  applyUiActions(actions);
  applyDeformActions(actions.deform);
}

void App::step() {
  for (const InputEvent& event : window_->takeEvents()) handleEvent(event);
  pollLoad();
  if (deform_) {
    stepDeformer();
    return;
  }
  if (!session_) return;
  int steps = 1;
  if (recorder_) {
    // Video time is frame time: one video frame covers 1/fps s of simulated time at any wall speed.
    const double dt = double(session_->settings().step.dt) * double(session_->slowMotion);
    steps = simStepsPerVideoFrame(dt, recorder_->options().fps);
  }
  // With the device drawing the surfaces, the host copy of x is only needed
  // for what reads it every frame: fields, wireframe/cut views, a drag, export.
  session_->hostPositionsEveryFrame = !renderPositions_ || dragging_ || draggedCollider_ >= 0 ||
                                      view_.mode != ViewMode::kShaded || view_.field != ColorField::kNone ||
                                      objExport_.has_value();
  if (compare_)
    stepCompare(steps);
  else
    session_->advance(steps);
  // A breakable drag lets go by itself (MouseSpec::breakForce): the cursor no longer holds anything.
  if (!compare_ && session_->takeDragBroke()) dragging_ = false;
  if (session_->backend() == Backend::OpenCl && framesRendered_ % 30 == 0) {
    // Live kernel editing (--kernels DIR): a failed build is shown once; the old kernels keep running.
    const std::string log = session_->pollKernels();
    if (!log.empty() && log != lastKernelLog_)
      reportError("OpenCL kernel rebuild failed; the previous kernels keep running:\n" + log);
    lastKernelLog_ = log;
    if (renderEmbed_ && renderEmbed_->poll() == HotProgram::PollResult::BuildFailed)
      reportError("OpenCL kernel rebuild of render_embed.cl failed; the previous kernels keep running");
  }
  for (const std::string& n : compare_ ? compare_->takeNotices() : session_->takeNotices()) {
    const bool error = n.find("blew up") != std::string::npos || n.find("explosion") != std::string::npos ||
                       n.find("failed") != std::string::npos;
    if (error)
      reportError(n);
    else
      reportNotice(n);
  }
}

void App::render() {
  syncGpuRendering();
  if (renderPositions_) {
    // The device embeds the surfaces from x straight into the GL buffer the
    // renderer reads (shared, or one copy into mapped memory).
    if (Status s = renderPositions_->update(*renderEmbed_, session_->openCl()->deviceState().x.buffer()); !s) {
      gpuRenderProblem_ = s.error().message;
      reportError("drawing from the OpenCL buffer failed, back to embedding on the CPU: " + gpuRenderProblem_);
      stopGpuRendering();
    }
  }
  target_->bindForDrawing();
  if (deform_) {
    renderDeformer();
  } else if (compare_ && simView_) {
    renderCompare();
  } else {
    if (simView_ && session_)
      simView_->update(session_->model(), session_->state(), session_->settings().colliders, view_);
    if (simView_) renderer_.render(camera_, target_->size(), *simView_, view_, settings_);
  }
  if (renderPositions_) renderPositions_->fenceAfterDraw();
  const bool recordWithoutUi = recorder_ && recorder_->options().hideUi;
  if (recordWithoutUi) {
    target_->resolve();
    if (Status s = recorder_->addFrame(target_->readPixels()); !s) {
      reportError(s.error().message);
      recorder_.reset();
    }
    target_->bindForDrawing();
  }
  imgui_->render();
  target_->resolve();
  ++framesRendered_;
  if (recorder_ && !recordWithoutUi) {
    if (Status s = recorder_->addFrame(target_->readPixels()); !s) {
      reportError(s.error().message);
      recorder_.reset();
    }
  }
  if (sequence_) {
    if (Status s = sequence_->write(target_->readPixels()); !s) {
      reportError(s.error().message);
      failed_ = true;  // a half-written sequence is not what the user asked for
    }
  }
  if (objExport_) exportObjFrame();
  if (screenshotRequested_) {
    screenshotRequested_ = false;
    Result<std::filesystem::path> written = saveScreenshot(target_->readPixels(), "screenshots");
    if (written)
      reportNotice("screenshot: " + written->string());
    else
      reportError(written.error().message);
  }
}

void App::discardFrame() { imgui_->discardFrame(); }

void App::present() {
  if (options_.headless) return;
  target_->blitToWindow(window_->framebufferSize());
  window_->swapBuffers();
}

Status App::writeScreenshot(const std::filesystem::path& path) const {
  if (framesRendered_ == 0) return Error{"no frame rendered yet to write to '" + path.string() + "'"};
  return writePng(path, target_->readPixels());
}

int App::finish() {
  if (!options_.screenshotPath.empty() && framesRendered_ > 0) {
    const Image image = target_->readPixels();
    if (Status s = writePng(options_.screenshotPath, image); !s) {
      reportError(s.error().message);
      failed_ = true;
    } else {
      std::printf("tetlab: wrote %s (%dx%d)\n", options_.screenshotPath.c_str(), image.width, image.height);
    }
  }
  if (sequence_ && sequence_->framesWritten() > 0)
    std::printf("tetlab: wrote %d frame(s) to %s/frame_%%05d.png\n", sequence_->framesWritten(),
                sequence_->directory().c_str());
  if (objExport_ && objExport_->framesWritten() > 0)
    std::printf("tetlab: wrote %d OBJ frame(s) to %s\n", objExport_->framesWritten(), objExport_->directory().c_str());
  if (recorder_) {
    const std::string summary = recorder_->summary();
    if (Status s = recorder_->stop(); !s) {
      reportError(s.error().message);
      failed_ = true;
    } else {
      std::printf("tetlab: %s\n", summary.c_str());
    }
    recorder_.reset();
  }
  if (session_ && options_.headless && session_->backend() == Backend::OpenCl)
    std::printf("tetlab: surfaces drawn via %s\n",
                renderPositions_ ? renderPositions_->pathName().c_str() : "the CPU embedding (device path off)");
  if (deform_ && options_.headless) {
    const DeformFrameReport& r = deform_->report();
    std::printf("tetlab: deformer on %s, frame %zu of %zu (%s): %d iterations, volume %+.2f %% -> %+.2f %%\n",
                deform_->pattern().c_str(), deform_->frame() + 1, deform_->frames(), deform_->frameFile().c_str(),
                r.iterations, 100.0 * r.volumeError(r.animatedVolume), 100.0 * r.volumeError(r.solvedVolume));
  } else if (session_ && options_.headless)
    std::printf("tetlab: %s, %s on %s, %llu frames, t = %.3f s, mean step %.2f ms%s\n",
                session_->desc().name.c_str(), solverDisplayName(session_->solver()), backendName(session_->backend()),
                static_cast<unsigned long long>(session_->frame()), session_->time(), session_->meanStepWallMs(),
                session_->blownUp() ? ", BLEW UP" : "");
  bool laneBlewUp = false;
  if (compare_) {
    for (size_t i = 0; i < compare_->laneCount(); ++i) {
      const SimSession& s = compare_->lane(i);
      laneBlewUp |= s.blownUp();
      if (options_.headless)
        std::printf("tetlab: lane %zu %s: %llu frames, mean step %.2f ms%s%s\n", i + 1, compare_->laneLabel(i).c_str(),
                    static_cast<unsigned long long>(s.frame()), s.meanStepWallMs(),
                    compare_->error(i).valid() && !compare_->isReference(i)
                        ? (", last distance to the reference " + std::to_string(compare_->error(i).rms) + " m").c_str()
                        : "",
                    s.blownUp() ? ", BLEW UP" : "");
    }
    if (compareCsv_)
      if (Status s = compareCsv_->close(); !s) {
        reportError(s.error().message);
        failed_ = true;
      }
  }
  if (failed_) return 1;
  // Headless runs are scripts: a blow-up is a failure they must see (as `tetlab run` exits 2).
  return options_.headless && session_ && (session_->blownUp() || laneBlewUp) ? 2 : 0;
}

}  // namespace tetlab
