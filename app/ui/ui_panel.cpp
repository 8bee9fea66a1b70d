#include "app/ui/ui_panel.h"

#include <algorithm>
#include <cfloat>

#include <imgui.h>

#include "app/ui/force_field_panel.h"
#include "app/ui/springs_panel.h"
#include "app/ui/keyed_pins_panel.h"
#include "app/ui/numbers_panel.h"

namespace tetlab {

namespace {

const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kWarnColor(1.0f, 0.8f, 0.35f, 1.0f);
const ImVec4 kChosenColor(0.45f, 0.9f, 0.5f, 1.0f);
const ImVec4 kDimColor(0.65f, 0.67f, 0.72f, 1.0f);

// One collapsing section; `key` is its kPanelSections name.
bool section(PanelLayout& layout, const char* title, std::string_view key, bool openByDefault) {
  const std::vector<std::string>& asked = layout.openAtStart;
  const bool named = std::find(asked.begin(), asked.end(), key) != asked.end();
  ImGui::SetNextItemOpen(asked.empty() ? openByDefault : named, ImGuiCond_Once);
  const bool open = ImGui::CollapsingHeader(title);
  // The first named section at the top of the panel for the first frames (the
  // scroll lands one frame after it is asked for, once the content is measured).
  if (layout.scrollFrames > 0 && named && key == asked.front()) {
    ImGui::SetScrollHereY(0.0f);
    --layout.scrollFrames;
  }
  if (open) layout.openNow.emplace_back(key);
  if (ImGui::IsItemVisible()) layout.inViewNow.emplace_back(key);
  return open;
}

bool drawLook(RenderSettings& settings) {
  ImGui::Checkbox("grid", &settings.showGrid);
  itemTooltip("The ground grid at the ground plane's height.");
  ImGui::SameLine();
  ImGui::Checkbox("shadow", &settings.showShadow);
  itemTooltip("A soft contact shadow under the bodies.");
  ImGui::SameLine();
  const bool fit = ImGui::Button("fit view (F)");
  itemTooltip("Point the camera at the whole scene.");
  ImGui::ColorEdit3("material", &settings.albedo.x, ImGuiColorEditFlags_NoInputs);
  itemTooltip("Surface colour when no field is shown (sRGB).");
  return fit;
}

// Lists every platform/device; clicking a device asks the app to use it.
std::optional<DeviceChoice> drawOpenCl(const OpenClStatus& opencl, const std::string& glInterop) {
  std::optional<DeviceChoice> picked;
  if (!opencl.error.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kWarnColor, "%s", opencl.error.c_str());
    ImGui::TextColored(kDimColor, "Rendering and the CPU reference work; the OpenCL backend is unavailable.");
    ImGui::PopTextWrapPos();
  }
  for (size_t p = 0; p < opencl.platforms.size(); ++p) {
    const ClPlatformInfo& platform = opencl.platforms[p];
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (!ImGui::TreeNode(reinterpret_cast<void*>(p), "platform %zu: %s", p, platform.name.c_str())) continue;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDimColor, "%s", platform.version.c_str());
    ImGui::PopTextWrapPos();
    for (size_t d = 0; d < platform.devices.size(); ++d) {
      const ClDeviceInfo& device = platform.devices[d];
      const bool chosen = opencl.chosen && opencl.chosen->platform == static_cast<int>(p) &&
                          opencl.chosen->device == static_cast<int>(d);
      // A short clickable row, the (often long) name and the facts that decide the
      // choice wrapped under it: a panel-wide row would cut the name off.
      const std::string label = (chosen ? "> device " : "  device ") + std::to_string(d) + " (" + device.typeName +
                                ")" + (chosen ? "  [in use]" : "  click to use");
      ImGui::PushID(static_cast<int>(d));
      if (chosen) ImGui::PushStyleColor(ImGuiCol_Text, kChosenColor);
      if (ImGui::Selectable(label.c_str(), chosen) && !chosen) picked = DeviceChoice{int(p), int(d)};
      if (chosen) ImGui::PopStyleColor();
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s\nClick to run the OpenCL backend on this device.", describeDevice(device).c_str());
      ImGui::PopID();
      ImGui::Indent();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(device.name.c_str());
      ImGui::TextColored(kDimColor, "%u compute units, %.1f GiB, GL sharing: %s", device.computeUnits,
                         double(device.globalMemBytes) / double(1ull << 30),
                         device.glSharing ? (device.glEvent ? "yes (with GL events)" : "yes") : "no (copy path)");
      ImGui::PopTextWrapPos();
      ImGui::Unindent();
    }
    ImGui::TreePop();
  }
  ImGui::PushTextWrapPos(0.0f);
  if (!opencl.platforms.empty())
    ImGui::TextColored(kDimColor, "Click a device to move the running simulation onto it (positions and velocities "
                                  "are kept), or start with --cl-platform I --cl-device J.");
  ImGui::PopTextWrapPos();
  if (!glInterop.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDimColor, "GL interop: %s", glInterop.c_str());
    ImGui::PopTextWrapPos();
  }
  return picked;
}

bool drawMessages(const std::vector<UiMessage>& messages) {
  if (messages.empty()) return false;
  ImGui::PushTextWrapPos(0.0f);
  // Newest last; show the last few, the rest went to stderr as well.
  const size_t first = messages.size() > 6 ? messages.size() - 6 : 0;
  for (size_t i = first; i < messages.size(); ++i)
    ImGui::TextColored(messages[i].error ? kErrorColor : kWarnColor, "%s", messages[i].text.c_str());
  ImGui::PopTextWrapPos();
  const bool clear = ImGui::SmallButton("dismiss messages");
  ImGui::Separator();
  return clear;
}

}  // namespace

float panelRight() { return kPanelPosition.x * 2.0f + kPanelWidth; }

float panelLensShift(float displayWidth) {
  const float panelRight = tetlab::panelRight();
  if (displayWidth < 2.5f * panelRight) return 0.0f;
  // Centre of [panelRight, width] in NDC: ((panelRight + width) / 2) / width * 2 - 1.
  return panelRight / displayWidth;
}

float viewCenterX(float displayWidth) { return 0.5f * (panelLensShift(displayWidth) + 1.0f) * displayWidth; }

UiActions drawUiPanel(const UiPanelInput& in, RenderSettings& settings, ViewSettings& view,
                      ScenePanelState& sceneState, RecordUiState& recordState, CompareUiState& compareState,
                      DeformUiState& deformState, PanelLayout& layout) {
  UiActions actions;
  ImGui::SetNextWindowPos(ImVec2(kPanelPosition.x, kPanelPosition.y), ImGuiCond_FirstUseEver);
  const float height = std::max(200.0f, in.displaySize.y - 2.0f * kPanelPosition.y - 36.0f);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, height), ImGuiCond_Always);
  ImGui::Begin("tetlab " TETLAB_VERSION, nullptr, ImGuiWindowFlags_NoResize);
  ImGui::PushItemWidth(-130.0f);
  actions.clearMessages = drawMessages(in.messages);

  layout.openNow.clear();
  layout.inViewNow.clear();
  if (in.deform) {
    // Deformer mode: its own section first; the simulation waits behind it.
    if (section(layout, "Deformer", "deform", true)) actions.deform = drawDeformPanel(in.deform, deformState);
  } else if (section(layout, "Scene", "scene", true)) {
    actions.scene = drawScenePanel(sceneState, in.scene);
  }
  if (in.session && !in.deform) {
    SimSession& s = *in.session;
    if (section(layout, "Simulation", "simulation", true)) {
      actions.solver = drawRunControls(s, in.solver);
      ImGui::Separator();
      const SolverPanelActions more = drawSolverControls(s, in.solver);
      if (more.backend) actions.solver.backend = more.backend;
    }
    if (section(layout, "Solver parameters", "parameters", true)) {
      if (in.parametersLane && in.parametersLane != in.session) {
        ImGui::TextColored(kChosenColor, "editing lane %s", in.parametersLaneLabel.c_str());
        drawSolverParameters(*in.parametersLane);
      } else {
        drawSolverParameters(s);
      }
    }
    if (section(layout, "Constraints", "constraints", false)) drawConstraintToggles(s);
    if (section(layout, "Materials", "materials", false)) drawMaterials(s);
    if (section(layout, "Colliders", "colliders", false))
      actions.scene.addMeshCollider = drawColliders(s, sceneState.colliderMeshPath, sizeof(sceneState.colliderMeshPath));
    if (section(layout, "Wind (cloth, strands)", "wind", false)) drawWind(s);
    if (section(layout, "Motion and separation spheres", "spheres", false)) drawSpheres(s);
    if (section(layout, "Force fields", "fields", false)) drawForceFields(s);
    if (!s.springs().empty() && section(layout, "Springs", "springs", true)) drawSprings(s);
    if (section(layout, "Keyed pins", "keys", false)) drawKeyedPins(s);
    if (section(layout, "Mouse drag", "drag", false)) drawMouseSpring(s);
    const bool numbersShown = section(layout, "Numbers and plots", "numbers", true);
    if (numbersShown) drawNumbersPanel(s, in.timer);
    s.setStageTiming(numbersShown);  // device profiling events only while the table is on screen
    if (section(layout, "Compare solvers", "compare", false)) actions.compare = drawComparePanel(in.compare, compareState);
    if (section(layout, "Deformer", "deform", false)) actions.deform = drawDeformPanel(nullptr, deformState);
  }
  if (section(layout, "View", "view", false)) {
    drawViewControls(view);
    actions.fitView = drawLook(settings);
  }
  if (section(layout, "Record and export", "record", false))
    actions.record = drawRecordControls(recordState, in.recording, in.recordedFrames, in.exporting,
                                        in.exportedFrames, in.ffmpegAvailable);
  if (section(layout, "OpenCL devices", "opencl", false)) actions.selectDevice = drawOpenCl(in.opencl, in.glInterop);
  if (section(layout, "OpenGL", "opengl", false)) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDimColor, "%s", in.glVersion.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::PopItemWidth();
  ImGui::End();
  return actions;
}

void drawViewportHint(glm::vec2 displaySize, const char* deformerDrag) {
  ImGui::SetNextWindowPos(ImVec2(viewCenterX(displaySize.x), displaySize.y - 8.0f), ImGuiCond_Always,
                          ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.45f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  ImGui::Begin("##hint", nullptr, flags);
  if (deformerDrag) {
    // The deformer's bodies are not simulated: nothing to pull or pin.
    ImGui::TextColored(kDimColor, "drag: %s   right-drag: pan   wheel: zoom   space: play/pause   F: fit   F12: shot",
                       deformerDrag);
  } else {
    ImGui::TextColored(kDimColor,
                       "drag body: pull (H: leave a spring there)   shift-click: pin/unpin   ctrl-drag: move collider   "
                       "drag elsewhere: orbit   right-drag: pan");
    ImGui::TextColored(kDimColor,
                       "wheel: zoom   space: pause   S: step   R: reset   1-4: PBD/XPBD/VBD/AVBD   V/C: view/colour   F: fit   F12: shot");
  }
  ImGui::End();
}

}  // namespace tetlab
