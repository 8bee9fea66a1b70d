#include "app/ui/deform_panel.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include <glm/geometric.hpp>

#include "app/commands/deform_region_flag.h"
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

// Which animated vertices are held: none, all, a box, or painted with the
// brush (drawn over the bodies by the app: App::drawDeformOverlay).
bool drawHold(DeformSession& d, DeformUiState& state, DeformActions& actions) {
  DeformSettings& s = d.settings();
  bool changed = false;
  int hold = int(s.hold);
  const char* holds[] = {"none", "all animated", "box (rest space)", "painted"};
  if (ImGui::Combo("hold", &hold, holds, 4)) {
    s.hold = DeformHold(hold);
    changed = true;
  }
  itemTooltip("Animated (surface) vertices held exactly on the animation. All: only the interior relaxes. "
              "Painted: the vertices you paint with the brush on any of the bodies.");
  if (s.hold == DeformHold::Box) {
    changed |= ImGui::DragFloat3("box min", &s.holdMin.x, 0.01f);
    changed |= ImGui::DragFloat3("box max", &s.holdMax.x, 0.01f);
  }
  if (s.hold != DeformHold::Painted) return changed;
  size_t held = 0;
  for (uint8_t h : s.painted) held += h ? 1 : 0;
  ImGui::TextColored(kDim, "%zu of %zu vertices painted (yellow dots)", held, d.rest().positions.size());
  int brush = int(state.brush);
  ImGui::RadioButton("orbit", &brush, int(DeformUiState::Brush::Off));
  ImGui::SameLine();
  ImGui::RadioButton("paint", &brush, int(DeformUiState::Brush::Paint));
  ImGui::SameLine();
  ImGui::RadioButton("erase", &brush, int(DeformUiState::Brush::Erase));
  state.brush = DeformUiState::Brush(brush);
  itemTooltip("Paint or erase: a left drag on a body marks the vertices within the brush radius (the frame is "
              "solved again when you let go). Orbit: the left drag turns the camera.");
  ImGui::DragFloat("brush radius", &state.brushRadius, 0.001f, 1e-4f, 100.0f, "%.3f m", ImGuiSliderFlags_Logarithmic);
  if (ImGui::Button("paint all")) {
    s.painted.assign(d.rest().positions.size(), 1);
    changed = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("clear")) {
    s.painted.assign(d.rest().positions.size(), 0);
    changed = true;
  }
  ImGui::InputText("hold file", state.holdFile, sizeof state.holdFile);
  itemTooltip("One vertex number per line, as in the rest OBJ: `tetlab deform --hold-vertices FILE` reads it.");
  if (ImGui::Button("save hold")) actions.saveHold = std::string(state.holdFile);
  ImGui::SameLine();
  if (ImGui::Button("load hold")) actions.loadHold = std::string(state.holdFile);
  return changed;
}

// PBD/XPBD regions: boxes of the rest shape whose tets take their own
// stiffness; each is printed as the `--region` flag that reproduces it.
bool drawRegions(DeformSession& d) {
  DeformSettings& s = d.settings();
  bool changed = false;
  const DeformFrameReport& r = d.report();
  int remove = -1;
  for (size_t i = 0; i < s.regions.size(); ++i) {
    DeformRegion& g = s.regions[i];
    ImGui::PushID(int(i));
    const std::string label = (g.name.empty() ? "region " + std::to_string(i + 1) : g.name) + "###region";
    const bool open = ImGui::TreeNode(label.c_str());
    ImGui::SameLine();
    if (i < r.regionTets.size() && g.enabled) ImGui::TextColored(kDim, "%u tets", r.regionTets[i]);
    else ImGui::TextColored(kDim, "off");
    if (open) {
      char name[64];
      std::snprintf(name, sizeof name, "%s", g.name.c_str());
      if (ImGui::InputText("name", name, sizeof name)) {
        g.name = name;
        g.name.erase(std::remove(g.name.begin(), g.name.end(), ';'), g.name.end());  // the flag's separator
      }
      changed |= ImGui::Checkbox("on", &g.enabled);
      ImGui::SameLine();
      if (ImGui::SmallButton("remove")) remove = int(i);
      changed |= ImGui::DragFloat3("min", &g.min.x, 0.005f, -1e6f, 1e6f, "%.3f");
      changed |= ImGui::DragFloat3("max", &g.max.x, 0.005f, -1e6f, 1e6f, "%.3f");
      itemTooltip("Rest-space box: the tets whose rest centre lies inside take this region's values.");
      changed |= ImGui::DragFloat3("stretch x,y,z", &g.stretchScale.x, 0.01f, 0.0f, 100.0f, "%.2f");
      changed |= ImGui::DragFloat3("shear xy,xz,yz", &g.shearScale.x, 0.01f, 0.0f, 100.0f, "%.2f");
      changed |= ImGui::DragFloat3("rest scale", &g.restScale.x, 0.005f, 0.1f, 10.0f, "%.3f");
      if (ImGui::DragFloat3("material x axis", &g.materialAxis.x, 0.01f, -1.0f, 1.0f, "%.2f")) {
        if (!(glm::length(g.materialAxis) > 0.0f)) g.materialAxis = glm::vec3(1.0f, 0.0f, 0.0f);
        changed = true;
      }
      changed |= ImGui::DragFloat("volume", &g.volumeScale, 0.01f, 0.0f, 100.0f, "%.2f x K");
      itemTooltip("Tet volume stiffness in this region, times Lame lambda (0: none; nu = 0 has none).");
      g.min = glm::min(g.min, g.max);
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  if (remove >= 0) {
    s.regions.erase(s.regions.begin() + remove);
    changed = true;
  }
  if (s.regions.size() < 254 && ImGui::Button("add region")) {
    // Starts as the body: its values over the rest shape's lower half (x).
    DeformRegion g;
    g.name = "region " + std::to_string(s.regions.size() + 1);
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& p : d.rest().positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
    g.min = lo - 1e-3f;
    g.max = glm::vec3(0.5f * (lo.x + hi.x), hi.y + 1e-3f, hi.z + 1e-3f);
    g.stretchScale = s.stretchScale;
    g.shearScale = s.shearScale;
    g.restScale = s.restScale;
    g.materialAxis = s.materialAxis;
    g.volumeScale = s.volume ? 1.0f : 0.0f;
    s.regions.push_back(g);
    changed = true;
  }
  itemTooltip("A box of the rest shape (drawn as an orange frame on the rest body) with its own stiffness.");
  if (!s.regions.empty()) {
    std::string flags;
    for (const DeformRegion& g : s.regions)
      if (g.enabled) flags += (flags.empty() ? "--region '" : " --region '") + deformRegionSpec(g) + "'";
    ImGui::InputText("as flags", flags.data(), flags.size() + 1, ImGuiInputTextFlags_ReadOnly);
    itemTooltip("The same regions for `tetlab deform` (select and copy).");
  }
  return changed;
}

// The deformer's settings; true when one changed.
bool drawSettings(DeformSession& d, DeformUiState& state, DeformActions& actions) {
  DeformSettings& s = d.settings();
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
  changed |= drawHold(d, state, actions);
  changed |= ImGui::DragFloat("attraction", &s.attraction, 1.0f, 0.0f, 1e7f, "%.3g /s^2", ImGuiSliderFlags_Logarithmic);
  itemTooltip("Pull of every free vertex toward its animated position, per unit mass (0: none; the frame then "
              "relaxes from the animation toward the rest shape).");
  changed |= ImGui::DragFloat("Young's E", &s.material.youngsModulus, 1e4f, 1.0f, 1e12f, "%.3g Pa",
                              ImGuiSliderFlags_Logarithmic);
  changed |= ImGui::SliderFloat("Poisson nu", &s.material.poissonRatio, 0.0f, 0.49f, "%.3f");
  if (s.solver == SolverKind::Pbd || s.solver == SolverKind::Xpbd) {
    changed |= ImGui::DragFloat3("stretch x,y,z", &s.stretchScale.x, 0.01f, 0.0f, 100.0f, "%.2f");
    itemTooltip("Stretch stiffness along each rest axis, times 2 mu (0: that constraint off).");
    changed |= ImGui::DragFloat3("shear xy,xz,yz", &s.shearScale.x, 0.01f, 0.0f, 100.0f, "%.2f");
    changed |= ImGui::DragFloat3("rest scale", &s.restScale.x, 0.005f, 0.1f, 10.0f, "%.3f");
    itemTooltip("The length each material axis stretches to: 1 keeps the rest length.");
    if (ImGui::DragFloat3("material x axis", &s.materialAxis.x, 0.01f, -1.0f, 1.0f, "%.2f")) {
      if (!(glm::length(s.materialAxis) > 0.0f)) s.materialAxis = glm::vec3(1.0f, 0.0f, 0.0f);
      changed = true;
    }
    itemTooltip("The direction of the material's x axis in the rest shape (fibres); y and z follow at right angles.");
    changed |= ImGui::Checkbox("volume", &s.volume);
    if (ImGui::TreeNodeEx("Regions", s.regions.empty() ? 0 : ImGuiTreeNodeFlags_DefaultOpen)) {
      changed |= drawRegions(d);
      ImGui::TreePop();
    }
  }
  changed |= ImGui::DragFloat3("gravity", &s.gravity.x, 0.1f, -100.0f, 100.0f, "%.2f");
  return changed;
}

void drawReport(const DeformSession& d) {
  const DeformFrameReport& r = d.report();
  const ImVec4 color = r.converged ? kDim : kWarn;
  ImGui::TextColored(color, "%d iterations, residual %.2e %s", r.iterations, double(r.residual),
                     r.convergedByMotion ? "(converged: moves left < tolerance of an edge)"
                     : r.converged       ? "(converged)"
                     : r.stalled         ? "(stalled)"
                                         : "(cap reached)");
  ImGui::Text("volume: animated %+.2f %%, solved %+.2f %%", 100.0 * r.volumeError(r.animatedVolume),
              100.0 * r.volumeError(r.solvedVolume));
  ImGui::TextColored(kDim, "%zu tets, solve %.0f ms", d.deformer().tetCount(), d.lastSolveMs());
  if (r.heldVertices > 0) ImGui::TextColored(kDim, "%u animated vertices held", r.heldVertices);
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
  actions.resolve = drawSettings(d, state, actions);
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
