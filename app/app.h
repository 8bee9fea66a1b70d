#pragma once
// The sandbox application: owns the window, the UI layer, the renderer, the
// running SimSession and its view, and exposes the frame as the steps of Dear
// ImGui's example loop so main() reads like it:
//
//   while (app.running()) { pollEvents; newFrame; drawUi; step; render; present; }
//
//   step:    input (camera, drag, pins, keys, dropped files) -> session.advance (1 frame, or the
//            fixed steps of one video frame while recording) -> a finished scene load is installed
//   render:  SimView.update(model, state) -> Renderer (3D) -> [record if the UI is hidden] -> ImGui
//            -> [record, PNG sequence, OBJ export]
//
// Headless and windowed runs share every step; they differ only in the window
// being invisible and in present() skipping the blit and swap. Files: app.cpp
// (frame), app_input.cpp (events), app_scene.cpp (loading, saving, camera).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app_options.h"
#include "app/commands/compare_csv.h"
#include "app/render/compare_layout.h"
#include "app/render/camera.h"
#include "app/ui/frame_timer.h"
#include "app/render/gl_interop.h"
#include "app/ui/imgui_layer.h"
#include "app/output/obj_export.h"
#include "app/render/offscreen_target.h"
#include "app/output/recording.h"
#include "app/render/renderer.h"
#include "app/ui/scene_panel.h"
#include "app/output/screenshot.h"
#include "core/session/compare_session.h"
#include "core/session/deform_session.h"
#include "app/commands/deform_view.h"
#include "app/ui/deform_panel.h"
#include "core/session/sim_session.h"
#include "app/ui/ui_panel.h"
#include "app/render/view_modes.h"
#include "app/ui/view_panel.h"
#include "app/render/view_scene.h"
#include "app/window.h"
#include "core/result.h"
#include "core/scene/scene_build.h"

namespace tetlab {

class App {
 public:
  static Result<std::unique_ptr<App>> create(AppOptions options);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  bool running() const;
  // One pass of the main loop: pollEvents, newFrame, drawUi, step, render, present.
  void frame();
  void pollEvents();
  void newFrame();
  void drawUi();
  void step();     // input, simulation, scene loads
  void render();   // 3D view + UI into the offscreen target; recording and exports
  void present();  // windowed: blit and swap
  // Ends the UI frame without drawing anything (a frame that is simulated but not shown).
  void discardFrame();
  // Writes the screenshot of the last frame if asked, finishes recordings; returns the exit code.
  int finish();
  // What the window's close button does: running() turns false after this frame.
  void requestClose();

  // Saves the running scene as it is now (settings, materials, pins, camera); relative
  // mesh paths are rewritten relative to the new file's folder. Also the UI's "save".
  Status saveScene(const std::string& path);

  // Writes the last rendered frame (3D view and UI) as a PNG.
  Status writeScreenshot(const std::filesystem::path& path) const;

  // For tests and scripts: the same objects the frame loop uses.
  Window& window() { return *window_; }
  SimSession* session() { return session_.get(); }
  // Compare mode (issue 14): null when one solver runs. Lane 0 is session().
  CompareSession* compare() { return compare_.get(); }
  // Starts comparing the running scene (every lane from its initial state; the
  // window's side-by-side or overlay view), or stops (lane 0 runs on alone).
  Status startCompare(CompareSpec spec);
  void stopCompare();
  CompareView compareView() const { return compareView_; }
  void setCompareView(CompareView view) { compareView_ = view; }
  // The split view's cells, lane by lane, in display coordinates (empty unless split-comparing).
  std::vector<ScreenRect> compareCells() const;
  // Deformer mode (issue 15): null while the simulation is shown.
  DeformSession* deformer() { return deform_.get(); }
  DeformUiState& deformUi() { return deformUi_; }
  const DeformRow* deformRow() const { return deformRow_ ? &*deformRow_ : nullptr; }
  // Opens the deformer on a rest mesh and its animation (paths as typed: the
  // asset folders are searched too); the simulation stays loaded, paused, behind it.
  Status openDeformer(std::string rest, std::string anim, const DeformSettings& settings, int targetTets);
  void closeDeformer();
  OrbitCamera& camera() { return camera_; }
  const std::vector<UiMessage>& messages() const { return messages_; }
  bool loading() const { return job_ && job_->running(); }
  glm::vec2 displaySize() const;
  const PanelLayout& panelLayout() const { return panelLayout_; }

  // Runs the OpenCL backend on another device (the OpenCL panel's device
  // list): x and v are kept, the simulator and drawing path are rebuilt.
  Status selectOpenClDevice(DeviceChoice choice);

 private:
  App() = default;
  glm::ivec2 targetSize() const;
  // F and the panel's fit frame the bodies as they are; a scene's first fit
  // (no camera in the file) also frames where they will land (extendToLanding).
  void fitView(bool toLanding = false);
  void reportError(const std::string& message);
  void reportNotice(const std::string& message);

  // app_input.cpp
  void handleEvent(const InputEvent& event);
  void handleKey(const InputEvent& event);
  bool handleLeftPress(const InputEvent& event);  // true: consumed (drag or pin)
  std::optional<ScenePick> pickAt(glm::vec2 cursor) const;

  // app_scene.cpp
  SceneBuildOptions buildOptionsFor(const std::filesystem::path& sceneDir) const;
  Status installScene(SceneDesc desc, BuiltScene built, const std::filesystem::path& file);
  void startLoad(SceneDesc desc, std::string what, std::filesystem::path file);
  void openSceneFile(const std::filesystem::path& path);
  void openObj(const std::string& path);
  // Loads a closed OBJ as a mesh collider into the running scene (an error message when it cannot).
  void addMeshCollider(const std::string& path);
  void pollLoad();
  void applyCamera(const CameraSpec& spec);
  CameraSpec currentCamera() const;
  Status switchBackend(Backend backend);
  // The OpenCL context on the chosen device (GL-sharing where it can), made once.
  Status ensureClContext();
  // No --backend: OpenCL when a device works, else stay on the CPU reference and say why.
  void startOnBestBackend();
  void syncGpuRendering();
  void stopGpuRendering();
  void applyUiActions(const UiActions& actions);
  // app_compare.cpp
  // The camera, cursor and viewport a display cursor falls in: a split cell's
  // (its lane, the camera without the panel's lens shift) or the whole view's.
  struct CursorView {
    OrbitCamera camera;
    glm::vec2 cursor{0.0f};
    glm::vec2 size{1.0f};
    size_t lane = 0;
  };
  CursorView cursorView(glm::vec2 cursor, std::optional<size_t> lane = std::nullopt) const;
  SimSession& laneSession(size_t lane);
  void stepCompare(int steps);
  void renderCompare();
  void drawCompareLabels(glm::vec2 display);
  void applyCompareActions(const CompareActions& actions);
  // Space, S, R, restore: on every lane while comparing.
  void togglePause();
  void resetRun();
  // app_deform.cpp
  void applyDeformActions(const DeformActions& actions);
  void stepDeformer();
  void renderDeformer();
  // The painted hold's dots and the regions' boxes over the drawn bodies (ImGui draw list).
  void drawDeformOverlay(glm::vec2 display) const;
  // The hold brush at the cursor; true when it touched a body.
  bool paintDeformHold(glm::vec2 cursor);
  void startRecording(const RecordingOptions& options);
  void stopRecording();
  void exportObjFrame();

  AppOptions options_;
  // Declared first so it is destroyed last: every GL object below needs its context.
  std::unique_ptr<Window> window_;
  std::unique_ptr<ImGuiLayer> imgui_;
  Renderer renderer_;
  std::optional<OffscreenTarget> target_;

  std::unique_ptr<SimSession> session_;
  std::optional<SimView> simView_;
  // Compare mode: declared after session_ (its lane 0) so it goes first.
  std::unique_ptr<CompareSession> compare_;
  std::vector<SimView> laneViews_;  // lanes 1.. (lane 0 draws through simView_)
  CompareView compareView_ = CompareView::Split;
  CompareUiState compareUi_;
  std::optional<CompareCsv> compareCsv_;  // --csv of `tetlab compare --record`
  // Deformer mode: the session and its three drawn bodies (rest, animated, solved).
  std::unique_ptr<DeformSession> deform_;
  std::optional<DeformRow> deformRow_;
  DeformUiState deformUi_;
  std::optional<uint32_t> lastPickedVertex_;
  size_t dragLane_ = 0;  // the split cell a drag started in
  std::filesystem::path sceneFile_;  // where the running scene came from
  std::unique_ptr<SceneBuildJob> job_;
  std::string loadingWhat_;
  std::filesystem::path loadingFile_;
  std::vector<PresetEntry> presets_;
  std::optional<ClContext> clContext_;
  // OpenCL backend drawing: surfaces embedded on the device into a GL buffer
  // (shared or copied, see app/render/gl_interop.h). Declared after clContext_ and
  // session_: destroyed before them, since both keep CL objects of theirs.
  std::unique_ptr<RenderEmbedding> renderEmbed_;
  std::unique_ptr<RenderPositionsBuffer> renderPositions_;
  std::string gpuRenderProblem_;  // why the device path is off for this scene ("" = not tried / fine)
  std::string lastKernelLog_;  // the last failed kernel build reported (reported once)

  OrbitCamera camera_;
  CameraController cameraController_;
  RenderSettings settings_;
  ViewSettings view_;
  ScenePanelState scenePanel_;
  PanelLayout panelLayout_;
  RecordUiState recordUi_;
  FrameTimer timer_;
  std::string glVersion_;
  std::vector<UiMessage> messages_;

  // Mouse drag: the plane through the grabbed point, facing the camera at grab time.
  bool dragging_ = false;
  bool painting_ = false;  // a hold-brush stroke in the deformer (solved again on release)
  int32_t draggedCollider_ = -1;  // ctrl-drag: forEachCollider's id of the collider being moved
  glm::vec3 dragPlanePoint_{0.0f};

  std::optional<PngSequenceWriter> sequence_;
  std::unique_ptr<Recorder> recorder_;
  std::optional<ObjSequenceWriter> objExport_;
  bool ffmpegAvailable_ = false;
  bool screenshotRequested_ = false;  // F12 / the Record section: after the next render
  int framesRendered_ = 0;
  bool failed_ = false;
};

}  // namespace tetlab
