#pragma once
// The ImGui side panel and the hint line over the 3D view. The panel is a
// column of collapsing sections (scene, simulation, solver parameters,
// constraints, materials, colliders, drag spring, numbers and plots, view,
// record, devices, messages); each section lives in its own file and either
// edits the plain settings it is given or returns what the user asked for
// (UiActions), so the panel never reaches into the app.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "app/ui/compare_panel.h"
#include "app/ui/deform_panel.h"
#include "app/ui/frame_timer.h"
#include "app/ui/panel_sections.h"
#include "app/opencl_status.h"
#include "app/render/renderer.h"
#include "app/ui/scene_panel.h"
#include "core/session/sim_session.h"
#include "app/ui/solver_panel.h"
#include "app/render/view_modes.h"
#include "app/ui/view_panel.h"
#include "core/result.h"

namespace tetlab {

// Where the panel first appears (pixels from the top-left) and its width; the
// headless screenshot test looks for the panel here.
inline constexpr glm::vec2 kPanelPosition{10.0f, 10.0f};
inline constexpr float kPanelWidth = 340.0f;

// Lens shift (OrbitCamera::lensShift.x, in NDC) that centres the 3D view on
// the part of a window of this width that the panel leaves free; 0 when the
// window is too narrow for that to help.
float panelLensShift(float displayWidth);

// Pixel x of the centre of the area the panel leaves free.
float viewCenterX(float displayWidth);

// Which sections are open. By default a few are open at start (scene,
// simulation, parameters, numbers); `--ui-open` replaces that set so a
// section further down (the OpenCL device list) is in view at start, e.g. for
// a screenshot: the named sections open, the others closed, and the panel
// scrolled to the first named one.
struct PanelLayout {
  std::vector<std::string> openAtStart;  // empty: the default set
  std::vector<std::string> openNow;      // written each frame: the sections drawn open
  std::vector<std::string> inViewNow;    // written each frame: the sections whose header is in view
  int scrollFrames = 3;                  // frames left to keep the first named section scrolled into view
};

struct UiMessage {
  bool error = false;  // red; otherwise a notice (amber)
  std::string text;
};

struct UiPanelInput {
  const FrameTimer& timer;
  const OpenClStatus& opencl;
  const std::vector<UiMessage>& messages;
  std::string glVersion;
  SimSession* session = nullptr;  // null while no scene is loaded
  // Compare mode: the lane whose solver parameters the parameters section edits (null: session).
  SimSession* parametersLane = nullptr;
  std::string parametersLaneLabel;
  ScenePanelInput scene;
  SolverPanelInput solver;
  bool recording = false;
  int recordedFrames = 0;
  bool exporting = false;
  int exportedFrames = 0;
  bool ffmpegAvailable = false;
  glm::vec2 displaySize{0.0f};
  std::string glInterop;  // how OpenCL results reach GL right now ("" = no OpenCL drawing)
  ComparePanelInput compare;
  DeformSession* deform = nullptr;  // deformer mode: its session (the simulation's sections are hidden)
};

struct UiActions {
  std::optional<DeviceChoice> selectDevice;  // the user picked another OpenCL device
  bool fitView = false;
  bool clearMessages = false;
  SolverPanelActions solver;
  ScenePanelActions scene;
  RecordUiActions record;
  CompareActions compare;
  DeformActions deform;
};

UiActions drawUiPanel(const UiPanelInput& input, RenderSettings& settings, ViewSettings& view,
                      ScenePanelState& sceneState, RecordUiState& recordState, CompareUiState& compareState,
                      DeformUiState& deformState, PanelLayout& layout);

// The panel's right edge [display units]: compare mode's split cells start there.
float panelRight();

// One line at the bottom of the 3D view saying how to drag, pin, step and move
// the camera, centred on the area the panel leaves free.
// deformerDrag: in the deformer, what a left drag does there ("orbit", "paint hold", ...); null: the simulation's keys.
void drawViewportHint(glm::vec2 displaySize, const char* deformerDrag = nullptr);

}  // namespace tetlab
