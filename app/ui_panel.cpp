#include "app/ui_panel.h"

#include <algorithm>
#include <cfloat>

#include <imgui.h>

namespace tetlab {

namespace {

const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kWarnColor(1.0f, 0.8f, 0.35f, 1.0f);
const ImVec4 kChosenColor(0.45f, 0.9f, 0.5f, 1.0f);
const ImVec4 kDimColor(0.65f, 0.67f, 0.72f, 1.0f);

void drawPerformance(const FrameTimer& timer) {
  if (timer.frameCount() == 0) {
    ImGui::TextColored(kDimColor, "measuring frame time...");
    return;
  }
  ImGui::Text("%.1f FPS   %.2f ms/frame", timer.fps(), timer.frameSeconds() * 1000.0);
  // Plot only recorded frames; until the ring wraps, leave out the first one,
  // which includes start-up work and would flatten the rest of the curve.
  const auto& history = timer.historyMs();
  const bool wrapped = timer.frameCount() > FrameTimer::kHistory;
  const size_t skip = !wrapped && timer.frameCount() > 1 ? 1 : 0;
  const float* values = history.data() + skip;
  const size_t count = wrapped ? FrameTimer::kHistory : timer.frameCount() - skip;
  const size_t offset = wrapped ? timer.historyOffset() : 0;
  float maxMs = 1.0f;
  for (size_t i = 0; i < count; ++i) maxMs = std::max(maxMs, values[i]);
  ImGui::PlotLines("##frametimes", values, static_cast<int>(count), static_cast<int>(offset), "frame time [ms]", 0.0f,
                   maxMs * 1.25f, ImVec2(kPanelWidth - 2.0f * ImGui::GetStyle().WindowPadding.x, 42.0f));
}

void drawMesh(const MeshInfo& mesh) {
  if (mesh.name.empty()) {
    ImGui::TextColored(kDimColor, "no mesh loaded");
    return;
  }
  ImGui::Text("%s", mesh.name.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", mesh.path.c_str());
  ImGui::Text("%zu vertices, %zu triangles", mesh.vertices, mesh.triangles);
  ImGui::Text("size %.2f x %.2f x %.2f m", mesh.size.x, mesh.size.y, mesh.size.z);
  if (mesh.scaleToOriginal != 1.0f)
    ImGui::TextColored(kDimColor, "scaled to fit 1 m (file units x %.3g)", 1.0f / mesh.scaleToOriginal);
  if (!mesh.warnings.empty() && ImGui::TreeNode("repairs", "%zu loader repair(s)", mesh.warnings.size())) {
    for (const std::string& w : mesh.warnings) ImGui::BulletText("%s", w.c_str());
    ImGui::TreePop();
  }
}

bool drawView(RenderSettings& settings) {
  ImGui::Checkbox("grid", &settings.showGrid);
  ImGui::SameLine();
  ImGui::Checkbox("shadow", &settings.showShadow);
  ImGui::SameLine();
  const bool fit = ImGui::Button("fit view (F)");
  ImGui::ColorEdit3("material", &settings.albedo.x, ImGuiColorEditFlags_NoInputs);
  return fit;
}

void drawOpenCl(const OpenClStatus& opencl) {
  if (!opencl.error.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kWarnColor, "%s", opencl.error.c_str());
    ImGui::TextColored(kDimColor, "Rendering works; the OpenCL solvers are unavailable.");
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
      ImGui::PushTextWrapPos(0.0f);
      if (chosen)
        ImGui::TextColored(kChosenColor, "> device %zu: %s  [in use]", d, device.name.c_str());
      else
        ImGui::Text("  device %zu: %s", d, device.name.c_str());
      ImGui::PopTextWrapPos();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", describeDevice(device).c_str());
    }
    ImGui::TreePop();
  }
  if (opencl.platforms.size() > 0) ImGui::TextColored(kDimColor, "choose with --cl-platform I --cl-device J");
}

void drawErrors(const std::vector<std::string>& errors) {
  if (errors.empty()) return;
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);
  for (const std::string& e : errors) ImGui::TextColored(kErrorColor, "%s", e.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace

float panelLensShift(float displayWidth) {
  const float panelRight = kPanelPosition.x * 2.0f + kPanelWidth;
  if (displayWidth < 2.5f * panelRight) return 0.0f;
  // Centre of [panelRight, width] in NDC: ((panelRight + width) / 2) / width * 2 - 1.
  return panelRight / displayWidth;
}

UiActions drawUiPanel(const UiPanelInput& input, RenderSettings& settings) {
  UiActions actions;
  ImGui::SetNextWindowPos(ImVec2(kPanelPosition.x, kPanelPosition.y), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSizeConstraints(ImVec2(kPanelWidth, 0.0f), ImVec2(kPanelWidth, FLT_MAX));
  ImGui::Begin("tetlab " TETLAB_VERSION, nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("Performance")) drawPerformance(input.timer);
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("Mesh")) drawMesh(input.mesh);
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("View")) actions.fitView = drawView(settings);
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("OpenCL")) drawOpenCl(input.opencl);
  if (ImGui::CollapsingHeader("OpenGL")) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDimColor, "%s", input.glVersion.c_str());
    ImGui::PopTextWrapPos();
  }
  drawErrors(input.errors);
  ImGui::End();
  return actions;
}

void drawViewportHint(glm::vec2 displaySize) {
  // NDC centre s maps to pixel (s + 1) / 2 * width.
  const float centerX = 0.5f * (panelLensShift(displaySize.x) + 1.0f) * displaySize.x;
  ImGui::SetNextWindowPos(ImVec2(centerX, displaySize.y - 12.0f), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.45f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  ImGui::Begin("##hint", nullptr, flags);
  ImGui::TextColored(kDimColor, "left-drag: orbit    right/middle-drag: pan    wheel: zoom    F: fit view");
  ImGui::End();
}

}  // namespace tetlab
