#pragma once
// The sandbox application: owns the window, the UI layer, the renderer and the
// scene, and exposes the frame as the steps of Dear ImGui's example loop so
// main() reads like it:
//
//   while (app.running()) { pollEvents; newFrame; drawUi; step; render; present; }
//
// Headless and windowed runs share every step; they differ only in the window
// being invisible and in present() skipping the blit and swap.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app_options.h"
#include "app/camera.h"
#include "app/frame_timer.h"
#include "app/imgui_layer.h"
#include "app/offscreen_target.h"
#include "app/renderer.h"
#include "app/screenshot.h"
#include "app/ui_panel.h"
#include "app/window.h"
#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

// Loads an OBJ for display: scaled to fit a 1 m cube and lifted to rest on the
// ground plane y = 0. Fills outInfo for the UI.
Result<SurfaceMesh> loadDisplayMesh(const std::filesystem::path& path, MeshInfo& outInfo);

class App {
 public:
  static Result<std::unique_ptr<App>> create(AppOptions options);
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  bool running() const;
  void pollEvents();
  void newFrame();
  void drawUi();
  void step();     // applies input to the camera (the simulation will step here too)
  void render();   // 3D view + UI into the offscreen target; writes the frame PNG if asked
  void present();  // windowed: blit and swap
  // Writes the screenshot of the last frame if asked; returns the exit code.
  int finish();

 private:
  App() = default;
  glm::ivec2 targetSize() const;
  glm::vec2 displaySize() const;
  void fitView();
  void reportError(const std::string& message);

  AppOptions options_;
  // Declared first so it is destroyed last: every GL object below needs its context.
  std::unique_ptr<Window> window_;
  std::unique_ptr<ImGuiLayer> imgui_;
  Renderer renderer_;
  std::optional<OffscreenTarget> target_;
  std::optional<GpuMesh> mesh_;
  MeshInfo meshInfo_;
  OrbitCamera camera_;
  CameraController cameraController_;
  RenderSettings settings_;
  FrameTimer timer_;
  std::string glVersion_;
  std::vector<std::string> errors_;
  std::optional<PngSequenceWriter> sequence_;
  int framesRendered_ = 0;
  bool failed_ = false;
};

}  // namespace tetlab
