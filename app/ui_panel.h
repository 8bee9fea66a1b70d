#pragma once
// The ImGui side panel and the hint line over the 3D view. Drawing functions
// take plain read-only inputs plus the settings they may edit, and return what
// the user asked for (UiActions), so the panel never reaches into the app.
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "app/frame_timer.h"
#include "app/opencl_status.h"
#include "app/renderer.h"

namespace tetlab {

// Where the panel first appears (pixels from the top-left) and its width; the
// headless screenshot test looks for the panel here.
inline constexpr glm::vec2 kPanelPosition{10.0f, 10.0f};
inline constexpr float kPanelWidth = 340.0f;

// Lens shift (OrbitCamera::lensShift.x, in NDC) that centres the 3D view on
// the part of a window of this width that the panel leaves free; 0 when the
// window is too narrow for that to help.
float panelLensShift(float displayWidth);

struct MeshInfo {
  std::string name;  // file name
  std::string path;  // as resolved
  size_t vertices = 0;
  size_t triangles = 0;
  glm::vec3 size{0.0f};               // bounding box in working units [m]
  float scaleToOriginal = 1.0f;       // file units per working unit
  std::vector<std::string> warnings;  // loader repairs
};

struct UiPanelInput {
  const FrameTimer& timer;
  const MeshInfo& mesh;
  const OpenClStatus& opencl;
  const std::vector<std::string>& errors;
  std::string glVersion;
};

struct UiActions {
  bool fitView = false;
};

UiActions drawUiPanel(const UiPanelInput& input, RenderSettings& settings);

// One line at the bottom of the 3D view saying how to move the camera,
// centred on the area the panel leaves free.
void drawViewportHint(glm::vec2 displaySize);

}  // namespace tetlab
