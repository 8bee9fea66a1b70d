// ImGui sections for the view, recording and export; see view_panel.h.
#include "app/ui/view_panel.h"

#include <cmath>
#include <cstring>

#include <imgui.h>

namespace tetlab {

namespace {

const ImVec4 kDim{0.62f, 0.64f, 0.70f, 1.0f};

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

}  // namespace

ViewMode cycleViewMode(ViewMode mode) { return static_cast<ViewMode>((static_cast<int>(mode) + 1) % kViewModeCount); }

ColorField cycleColorField(ColorField field) {
  return static_cast<ColorField>((static_cast<int>(field) + 1) % kColorFieldCount);
}

bool drawViewControls(ViewSettings& view) {
  bool changed = false;
  int mode = static_cast<int>(view.mode);
  for (int m = 0; m < kViewModeCount; ++m) {
    if (m > 0) ImGui::SameLine();
    changed |= ImGui::RadioButton(std::string(viewModeName(static_cast<ViewMode>(m))).c_str(), &mode, m);
  }
  tooltip("Shaded: the loaded surface. Tet wireframe: every simulation edge, see-through. "
          "Cut-away: the tets behind a plane, shrunk so each one shows (key V cycles).");
  view.mode = static_cast<ViewMode>(mode);

  const std::string current(colorFieldName(view.field));
  if (ImGui::BeginCombo("colour by", current.c_str())) {
    for (int f = 0; f < kColorFieldCount; ++f) {
      const auto field = static_cast<ColorField>(f);
      const bool selected = field == view.field;
      if (ImGui::Selectable(std::string(colorFieldName(field)).c_str(), selected)) {
        view.field = field;
        changed = true;
      }
      tooltip(std::string(colorFieldTooltip(field)).c_str());
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  tooltip(std::string(colorFieldTooltip(view.field)).c_str());

  if (view.field != ColorField::kNone && !isCategorical(view.field)) {
    changed |= ImGui::Checkbox("auto range", &view.autoRange);
    tooltip("Colours span 0 .. the largest value on screen (smoothed over frames); off: the range below.");
    if (!view.autoRange) {
      changed |= ImGui::DragFloatRange2("range", &view.rangeMin, &view.rangeMax, 0.001f * (std::abs(view.rangeMax) + 1e-3f),
                                        0.0f, 0.0f, "%.3g", "%.3g");
      tooltip("Values at or below min get the darkest colour, at or above max the brightest (field units).");
    }
  }

  if (view.mode == ViewMode::kCutaway) {
    ImGui::TextColored(kDim, "cut plane normal");
    ImGui::SameLine();
    const struct {
      const char* label;
      glm::vec3 normal;
    } presets[] = {{"X", {1, 0, 0}}, {"Y", {0, 1, 0}}, {"Z", {0, 0, 1}}, {"-X", {-1, 0, 0}}, {"-Y", {0, -1, 0}}};
    for (const auto& p : presets) {
      ImGui::SameLine();
      if (ImGui::SmallButton(p.label)) view.cutNormal = p.normal, changed = true;
    }
    changed |= ImGui::SliderFloat3("normal", &view.cutNormal.x, -1.0f, 1.0f, "%.2f");
    tooltip("Tets whose centre lies on the positive side of the plane are removed (need not be unit length).");
    changed |= ImGui::SliderFloat("offset", &view.cutOffset, -1.0f, 1.0f, "%.2f");
    tooltip("Plane position as a fraction of the body's bounding radius: -1 removes everything, 1 nothing.");
    changed |= ImGui::SliderFloat("shrink", &view.tetShrink, 0.3f, 1.0f, "%.2f");
    tooltip("Each kept tet is scaled about its centre by this factor so the single tets show (1 = solid).");
    changed |= ImGui::SliderInt("layers", &view.cutLayers, 0, 8);
    tooltip("Tet layers drawn under the exposed surface of the kept part (0 = every kept tet). Deeper tets only "
            "show through the gaps the shrink leaves; fewer layers draw much faster on big meshes.");
    changed |= ImGui::Checkbox("show surface", &view.cutShowSurface);
    tooltip("Also draw the loaded surface, clipped at the plane (its inside darker).");
  }
  if (view.mode == ViewMode::kWireframe) {
    changed |= ImGui::SliderFloat("edge opacity", &view.wireOpacity, 0.05f, 1.0f, "%.2f");
    tooltip("Opacity of each edge: lower shows dense regions as denser colour instead of a solid blob.");
    changed |= ImGui::SliderFloat("surface ghost", &view.ghostOpacity, 0.0f, 1.0f, "%.2f");
    tooltip("Opacity of the loaded surface drawn under the edges (0 hides it).");
  }

  changed |= ImGui::Checkbox("pins", &view.showPins);
  tooltip("Pinned (fixed) vertices as red spheres.");
  ImGui::SameLine();
  changed |= ImGui::Checkbox("colliders", &view.showColliders);
  tooltip("Plane, sphere, box and capsule colliders (the ground is the grid).");
  ImGui::SameLine();
  changed |= ImGui::Checkbox("drag line", &view.showAttachment);
  tooltip("The mouse drag: a line from the grabbed point to where the cursor pulls it.");
  return changed;
}

RecordingOptions recordingOptionsFrom(const RecordUiState& state) {
  RecordingOptions options;
  options.output = state.output;
  options.format = recordFormatForPath(options.output);
  options.fps = state.fps;
  options.hideUi = state.hideUi;
  return options;
}

RecordUiActions drawRecordControls(RecordUiState& state, bool recording, int recordedFrames, bool exporting,
                                   int exportedFrames, bool ffmpegAvailable) {
  RecordUiActions actions;
  const bool video = recordFormatForPath(state.output) == RecordFormat::kMp4;
  ImGui::BeginDisabled(recording);
  ImGui::InputText("output", state.output, sizeof(state.output));
  tooltip("A .mp4 (or .mkv/.mov) file records video through ffmpeg; any other name is a folder of "
          "frame_00000.png ... files.");
  ImGui::SliderInt("fps", &state.fps, 10, 60);
  tooltip("Video frames per second. Each video frame advances the simulation by 1/fps simulated seconds, "
          "so the video plays at real speed however slow the simulation runs.");
  ImGui::Checkbox("hide UI in video", &state.hideUi);
  tooltip("Record only the 3D view, without the panels.");
  ImGui::EndDisabled();

  if (!recording) {
    const bool blocked = video && !ffmpegAvailable;
    ImGui::BeginDisabled(blocked);
    actions.start = ImGui::Button(video ? "Record video" : "Record PNGs");
    ImGui::EndDisabled();
    if (blocked) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "ffmpeg missing");
      tooltip(kFfmpegMissingMessage);
    }
  } else {
    actions.stop = ImGui::Button("Stop recording");
    ImGui::SameLine();
    ImGui::TextColored(kDim, "%d frames", recordedFrames);
  }
  ImGui::SameLine();
  actions.screenshot = ImGui::Button("Screenshot (F12)");
  tooltip("Saves the current view as tetlab_NNNN.png in the working folder.");

  ImGui::BeginDisabled(exporting);
  ImGui::InputText("OBJ folder", state.exportDir, sizeof(state.exportDir));
  tooltip("Each frame's simulated surface (with normals) is written as surface_00000.obj, ... for Blender.");
  ImGui::EndDisabled();
  if (!exporting) {
    actions.exportStart = ImGui::Button("Export OBJ sequence");
  } else {
    actions.exportStop = ImGui::Button("Stop export");
    ImGui::SameLine();
    ImGui::TextColored(kDim, "%d files", exportedFrames);
  }
  return actions;
}

}  // namespace tetlab
