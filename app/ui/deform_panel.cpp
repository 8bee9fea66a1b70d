#include "app/ui/deform_panel.h"

#include <algorithm>

#include <imgui.h>

#include <glm/geometric.hpp>

#include "app/ui/solver_panel.h"
#include "core/session/deform_session.h"

namespace tetlab {
namespace {

const ImVec4 kDim(0.65f, 0.67f, 0.72f, 1.0f);
const ImVec4 kWarn(0.95f, 0.70f, 0.25f, 1.0f);

void drawOpener(DeformUiState& state, DeformActions& actions) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(kDim, "Correct an animated mesh toward its rest shape: a rest OBJ and an OBJ sequence of the "
                           "same vertices (frame number as %%04d). Paths are also looked up in assets/.");
  ImGui::PopTextWrapPos();
  ImGui::InputText("rest mesh", state.rest, sizeof state.rest);
  ImGui::InputText("animation", state.anim, sizeof state.anim);
  ImGui::InputInt("target tets", &state.targetTets);
  state.targetTets = std::clamp(state.targetTets, 100, 500000);
  if (ImGui::Button("Open in the deformer")) actions.open = true;
}

// The deformer's settings; true when one changed.
bool drawSettings(DeformSettings& s) {
  bool changed = false;
  int solver = int(s.solver);
  const char* solvers[] = {"PBD", "XPBD", "VBD", "AVBD"};
  if (ImGui::Combo("solver", &solver, solvers, 4)) {
    s.solver = SolverKind(solver);
    changed = true;
  }
  itemTooltip("VBD/AVBD: the stable Neo-Hookean energy (volume stiffness is the Poisson ratio). PBD/XPBD: "
              "strain-based stretch and shear per rest axis, plus a volume constraint.");
  changed |= ImGui::SliderInt("max iterations", &s.maxIterations, 1, 2000);
  changed |= ImGui::DragFloat("tolerance", &s.tolerance, 1e-4f, 0.0f, 1.0f, "%.1e", ImGuiSliderFlags_Logarithmic);
  itemTooltip("A frame stops when its residual falls below this fraction of its first residual.");
  int start = int(s.start);
  const char* starts[] = {"animated positions", "previous solution"};
  if (ImGui::Combo("start from", &start, starts, 2)) {
    s.start = DeformStart(start);
    changed = true;
  }
  int hold = int(s.hold);
  const char* holds[] = {"none", "all animated", "box (rest space)"};
  if (ImGui::Combo("hold", &hold, holds, 3)) {
    s.hold = DeformHold(hold);
    changed = true;
  }
  itemTooltip("Animated (surface) vertices held exactly on the animation. All: only the interior relaxes.");
  if (s.hold == DeformHold::Box) {
    changed |= ImGui::DragFloat3("box min", &s.holdMin.x, 0.01f);
    changed |= ImGui::DragFloat3("box max", &s.holdMax.x, 0.01f);
  }
  changed |= ImGui::DragFloat("attraction", &s.attraction, 1.0f, 0.0f, 1e7f, "%.3g /s^2", ImGuiSliderFlags_Logarithmic);
  itemTooltip("Pull of every free vertex toward its animated position, per unit mass (0: none; the frame then "
              "relaxes from the animation toward the rest shape).");
  changed |= ImGui::DragFloat("Young's E", &s.material.youngsModulus, 1e4f, 1.0f, 1e12f, "%.3g Pa",
                              ImGuiSliderFlags_Logarithmic);
  changed |= ImGui::SliderFloat("Poisson nu", &s.material.poissonRatio, 0.0f, 0.49f, "%.3f");
  if (s.solver == SolverKind::Pbd || s.solver == SolverKind::Xpbd) {
    changed |= ImGui::DragFloat3("stretch x,y,z", &s.stretchScale.x, 0.01f, 0.0f, 100.0f, "%.2f");
    itemTooltip("Stretch stiffness along each rest axis, times E (0: that constraint off).");
    changed |= ImGui::DragFloat3("shear xy,xz,yz", &s.shearScale.x, 0.01f, 0.0f, 100.0f, "%.2f");
    changed |= ImGui::DragFloat3("rest scale", &s.restScale.x, 0.005f, 0.1f, 10.0f, "%.3f");
    itemTooltip("The length each material axis stretches to: 1 keeps the rest length.");
    if (ImGui::DragFloat3("material x axis", &s.materialAxis.x, 0.01f, -1.0f, 1.0f, "%.2f")) {
      if (!(glm::length(s.materialAxis) > 0.0f)) s.materialAxis = glm::vec3(1.0f, 0.0f, 0.0f);
      changed = true;
    }
    itemTooltip("The direction of the material's x axis in the rest shape (fibres); y and z follow at right angles.");
    changed |= ImGui::Checkbox("volume", &s.volume);
  }
  changed |= ImGui::DragFloat3("gravity", &s.gravity.x, 0.1f, -100.0f, 100.0f, "%.2f");
  return changed;
}

void drawReport(const DeformSession& d) {
  const DeformFrameReport& r = d.report();
  const ImVec4 color = r.converged ? kDim : kWarn;
  ImGui::TextColored(color, "%d iterations, residual %.2e %s", r.iterations, double(r.residual),
                     r.converged ? "(converged)" : r.stalled ? "(stalled)" : "(cap reached)");
  ImGui::Text("volume: animated %+.2f %%, solved %+.2f %%", 100.0 * r.volumeError(r.animatedVolume),
              100.0 * r.volumeError(r.solvedVolume));
  ImGui::TextColored(kDim, "%zu tets, solve %.0f ms", d.deformer().tetCount(), d.lastSolveMs());
}

}  // namespace

DeformActions drawDeformPanel(DeformSession* session, DeformUiState& state) {
  DeformActions actions;
  if (!session) {
    drawOpener(state, actions);
    return actions;
  }
  DeformSession& d = *session;
  ImGui::TextColored(kDim, "%s", d.pattern().c_str());
  // Timeline: play, step, scrub, loop.
  if (ImGui::Button(d.playing ? "Pause" : "Play")) d.playing = !d.playing;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left) && d.frame() > 0) actions.scrub = d.frame() - 1;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) actions.scrub = d.frame() + 1;
  ImGui::SameLine();
  ImGui::Checkbox("loop", &d.loop);
  int frame = int(d.frame());
  if (ImGui::SliderInt("frame", &frame, 0, int(d.frames()) - 1)) actions.scrub = size_t(frame);
  ImGui::Text("%s, t = %.3f s", d.frameFile().c_str(), d.time());
  ImGui::DragFloat("fps", &d.fps, 0.1f, 1.0f, 120.0f, "%.1f");
  ImGui::Separator();
  drawReport(d);
  ImGui::Separator();
  actions.resolve = drawSettings(d.settings());
  ImGui::Separator();
  ImGui::TextUnformatted("draw:");
  ImGui::SameLine();
  ImGui::Checkbox("rest", &state.show[0]);
  ImGui::SameLine();
  ImGui::Checkbox("animated", &state.show[1]);
  ImGui::SameLine();
  ImGui::Checkbox("solved", &state.show[2]);
  ImGui::TextColored(kDim, "blue: rest, red: animated, green: solved");
  const char* layouts[] = {"side by side", "overlaid"};
  ImGui::Combo("layout", &state.layout, layouts, 2);
  itemTooltip("Overlaid: the solved body shaded, the animated and rest bodies as see-through ghosts over it.");
  ImGui::InputText("export to", state.exportDir, sizeof state.exportDir);
  if (d.exporting()) {
    ImGui::ProgressBar(float(d.exported()) / float(std::max<size_t>(d.frames(), 1)));
  } else if (ImGui::Button("Export corrected sequence")) {
    actions.exportTo = std::string(state.exportDir);
  }
  if (ImGui::Button("Close the deformer")) actions.close = true;
  return actions;
}

}  // namespace tetlab
