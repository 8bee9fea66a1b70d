#include "app/ui/scene_panel.h"

#include <algorithm>
#include <cstring>

#include <imgui.h>

#include "app/ui/solver_panel.h"
#include "core/scene/scene_json.h"

namespace tetlab {

namespace {

const ImVec4 kWarnColor(1.0f, 0.8f, 0.35f, 1.0f);
const ImVec4 kDimColor(0.65f, 0.67f, 0.72f, 1.0f);

void drawProgress(const ScenePanelInput& in) {
  ImGui::TextColored(kWarnColor, "loading %s", in.loadingWhat.c_str());
  char overlay[96];
  std::snprintf(overlay, sizeof(overlay), "%.0f%%  %.1f s", 100.0 * in.loadingFraction, in.loadingSeconds);
  ImGui::ProgressBar(in.loadingFraction, ImVec2(-1.0f, 0.0f), overlay);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(kDimColor, "%s", in.loadingStage.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace

std::vector<PresetEntry> listPresets(const std::vector<std::filesystem::path>& assetDirs,
                                     std::vector<std::string>& outErrors) {
  namespace fs = std::filesystem;
  std::vector<PresetEntry> out;
  for (const fs::path& dir : assetDirs) {
    std::error_code ec;
    if (!fs::is_directory(dir / "scenes", ec)) continue;
    for (const auto& entry : fs::directory_iterator(dir / "scenes", ec)) {
      if (entry.path().extension() != ".json") continue;
      Result<SceneDesc> desc = loadSceneFile(entry.path());
      if (!desc) {
        outErrors.push_back(desc.error().message);
        continue;
      }
      out.push_back(PresetEntry{entry.path(), desc->name, desc->description});
    }
    if (!out.empty()) break;  // the first asset folder with scenes wins (source tree before copies)
  }
  std::sort(out.begin(), out.end(),
            [](const PresetEntry& a, const PresetEntry& b) { return a.path.filename() < b.path.filename(); });
  return out;
}

ScenePanelActions drawScenePanel(ScenePanelState& state, const ScenePanelInput& in) {
  ScenePanelActions actions;
  if (in.loading) {
    drawProgress(in);
    if (ImGui::Button("cancel loading")) actions.cancelLoad = true;
    itemTooltip("Stop tetrahedralizing; the current scene keeps running.");
    ImGui::Separator();
  }
  if (in.desc) {
    ImGui::Text("%s", in.desc->name.c_str());
    if (!in.currentFile.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", in.currentFile.c_str());
    if (!in.desc->description.empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(kDimColor, "%s", in.desc->description.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  if (in.built && !in.built->warnings.empty() &&
      ImGui::TreeNode("repairs", "%zu loader note(s)", in.built->warnings.size())) {
    for (const std::string& w : in.built->warnings) ImGui::BulletText("%s", w.c_str());
    ImGui::TreePop();
  }

  if (in.presets && !in.presets->empty()) {
    ImGui::TextUnformatted("presets");
    // Buttons flow and wrap at the panel's edge, each as wide as its name: fixed
    // columns clipped the longer names (cloth_tablecloth) at the scrollbar.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const ImGuiStyle& style = ImGui::GetStyle();
    float lastRight = 0.0f;
    bool first = true;
    for (const PresetEntry& p : *in.presets) {
      const std::string label = p.path.stem().string();
      const float width = ImGui::CalcTextSize(label.c_str()).x + 2.0f * style.FramePadding.x;
      if (!first && lastRight + style.ItemSpacing.x + width <= right) ImGui::SameLine();
      first = false;
      if (ImGui::Button(label.c_str())) actions.openScene = p.path;
      lastRight = ImGui::GetItemRectMax().x;
      itemTooltip((p.name + ": " + p.description).c_str());
    }
  }

  ImGui::Separator();
  ImGui::SetNextItemWidth(-70);
  ImGui::InputTextWithHint("##obj", "mesh.obj (or drop a file on the window)", state.objPath, sizeof(state.objPath));
  itemTooltip("Path of a triangle mesh (OBJ) to tetrahedralize and drop onto the ground.");
  ImGui::SameLine();
  if (ImGui::Button("load OBJ") && std::strlen(state.objPath) > 0) actions.openObj = std::string(state.objPath);
  if (ImGui::TreeNode("tetrahedralization")) {
    ImGui::SliderInt("target tets", &state.tets.targetTets, 100, 100000, "%d", ImGuiSliderFlags_Logarithmic);
    itemTooltip("Approximate number of tets TetGen aims for (fewer is faster, coarser) [-].");
    ImGui::Checkbox("quality (TetGen -q)", &state.tets.quality);
    itemTooltip("Refine badly shaped tets until their radius-edge ratio is below the bound [-].");
    if (state.tets.quality) {
      float ratio = float(state.tets.radiusEdgeRatio);
      if (ImGui::SliderFloat("radius-edge bound", &ratio, 1.1f, 3.0f, "%.3f")) state.tets.radiusEdgeRatio = ratio;
      itemTooltip("Largest allowed circumradius / shortest edge of a tet; lower is better shaped [-].");
    }
    ImGui::SliderInt("fallback resolution", &state.tets.voxelResolution, 0, 128);
    itemTooltip("Voxel cells along the longest axis when TetGen cannot mesh the surface; 0 = from target tets [-].");
    int method = int(state.tets.method);
    ImGui::Combo("method", &method, "auto\0TetGen only\0voxel fallback only\0");
    itemTooltip("Auto tries TetGen and falls back to the voxel lattice on a bad surface [-].");
    state.tets.method = TetMethod(method);
    if (in.desc) {
      const bool hasMesh = std::any_of(in.desc->bodies.begin(), in.desc->bodies.end(),
                                       [](const BodySpec& b) { return b.source == BodySource::Mesh; });
      if (hasMesh && ImGui::Button("re-tetrahedralize this scene")) actions.retetrahedralize = true;
      if (hasMesh) itemTooltip("Rebuild the current scene's OBJ bodies with these options.");
    }
    ImGui::TreePop();
  }

  ImGui::SetNextItemWidth(-110);
  ImGui::InputTextWithHint("##scene", "scene.json", state.scenePath, sizeof(state.scenePath));
  itemTooltip("Path of a scene file (JSON): bodies, materials, solver settings, colliders, pins and camera.");
  ImGui::SameLine();
  if (ImGui::Button("open") && std::strlen(state.scenePath) > 0) actions.openScene = std::filesystem::path(state.scenePath);
  itemTooltip("Load the scene file; the current scene keeps running until it is ready.");
  ImGui::SameLine();
  if (ImGui::Button("save") && std::strlen(state.scenePath) > 0) actions.saveScene = std::string(state.scenePath);
  itemTooltip("Write the whole set-up as it is now (settings, materials, pins, camera) to the path.");
  return actions;
}

bool drawLoadingOverlay(const ScenePanelInput& in, float viewCenterX, float displayHeight) {
  ImGui::SetNextWindowPos(ImVec2(viewCenterX, 0.5f * displayHeight), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(360, 0));
  ImGui::SetNextWindowBgAlpha(0.85f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize;
  ImGui::Begin("##loading", nullptr, flags);
  drawProgress(in);
  const bool cancel = ImGui::Button("cancel");
  ImGui::End();
  return cancel;
}

}  // namespace tetlab
