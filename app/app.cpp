// The frame loop's steps; see app.h for the shape of main().
#include "app/app.h"

#include <cstdio>

#include "core/mesh/obj_loader.h"

namespace tetlab {

Result<SurfaceMesh> loadDisplayMesh(const std::filesystem::path& path, MeshInfo& outInfo) {
  ObjLoadOptions options;
  options.normalizeScale = true;
  options.fitSize = 1.0f;
  Result<LoadedSurface> loaded = loadObj(path.string(), options);
  if (!loaded) return loaded.error();
  SurfaceMesh mesh = std::move(loaded->mesh);
  const Bounds bounds = computeBounds(mesh.positions);
  for (glm::vec3& p : mesh.positions) p.y -= bounds.min.y;

  outInfo.name = path.filename().string();
  outInfo.path = path.string();
  outInfo.vertices = mesh.positions.size();
  outInfo.triangles = mesh.triangles.size();
  outInfo.size = bounds.size();
  outInfo.scaleToOriginal = loaded->scaleToOriginal;
  outInfo.warnings = loaded->report.warnings;
  return mesh;
}

Result<std::unique_ptr<App>> App::create(AppOptions options) {
  std::unique_ptr<App> app(new App());
  app->options_ = std::move(options);
  const AppOptions& o = app->options_;

  // The mesh is read before any window exists so a bad file fails fast, display or not.
  Result<SurfaceMesh> surface = loadDisplayMesh(o.meshPath, app->meshInfo_);
  if (!surface) return surface.error();

  WindowOptions windowOptions;
  windowOptions.width = o.width;
  windowOptions.height = o.height;
  windowOptions.visible = !o.headless;
  windowOptions.vsync = !o.headless;
  windowOptions.title = "tetlab " TETLAB_VERSION " - " + app->meshInfo_.name;
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
  Result<GpuMesh> mesh = GpuMesh::create(*surface);
  if (!mesh) return Error{"cannot display '" + o.meshArgument + "': " + mesh.error().message};
  app->mesh_ = std::move(*mesh);

  for (const std::string& w : app->meshInfo_.warnings)
    std::fprintf(stderr, "tetlab: %s: %s\n", o.meshArgument.c_str(), w.c_str());
  if (!o.framesDir.empty()) app->sequence_.emplace(o.framesDir);
  app->fitView();
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

void App::fitView() {
  camera_.lensShift.x = panelLensShift(displaySize().x);
  const glm::ivec2 size = targetSize();
  const float aspect = size.y > 0 ? static_cast<float>(size.x) / static_cast<float>(size.y) : 1.0f;
  if (mesh_) camera_.fitToBounds(mesh_->bounds().min, mesh_->bounds().max, aspect);
}

void App::reportError(const std::string& message) {
  std::fprintf(stderr, "tetlab: %s\n", message.c_str());
  errors_.push_back(message);
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
  const UiPanelInput input{timer_, meshInfo_, options_.opencl, errors_, glVersion_};
  const UiActions actions = drawUiPanel(input, settings_);
  drawViewportHint(displaySize());
  if (actions.fitView) fitView();
}

void App::step() {
  const float viewportHeight = static_cast<float>(window_->windowSize().y);
  for (const InputEvent& event : window_->takeEvents()) {
    if (event.type == InputEvent::Type::kKeyPress) {
      if (!imgui_->wantsKeyboard() && event.key == GLFW_KEY_F) fitView();
      continue;
    }
    cameraController_.handle(event, imgui_->wantsMouse(), viewportHeight, camera_);
  }
}

void App::render() {
  target_->bindForDrawing();
  const GpuMesh* meshes[] = {mesh_ ? &*mesh_ : nullptr};
  renderer_.render(camera_, target_->size(), meshes, settings_);
  imgui_->render();
  target_->resolve();
  ++framesRendered_;
  if (sequence_) {
    if (Status s = sequence_->write(target_->readPixels()); !s) {
      reportError(s.error().message);
      failed_ = true;  // a half-written sequence is not what the user asked for
    }
  }
}

void App::present() {
  if (options_.headless) return;
  target_->blitToWindow(window_->framebufferSize());
  window_->swapBuffers();
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
  return failed_ ? 1 : 0;
}

}  // namespace tetlab
