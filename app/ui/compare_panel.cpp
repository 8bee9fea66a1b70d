#include "app/ui/compare_panel.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/render/compare_layout.h"
#include "app/ui/cost_accuracy_plot.h"
#include "app/ui/solver_panel.h"
#include "app/ui/step_error_text.h"
#include "core/scene/enum_names.h"
#include "core/session/compare_session.h"

namespace tetlab {
namespace {

const ImVec4 kDim(0.65f, 0.67f, 0.72f, 1.0f);
const ImVec4 kWarn(1.0f, 0.8f, 0.35f, 1.0f);
const ImVec4 kError(1.0f, 0.45f, 0.4f, 1.0f);

CompareUiState::Lane laneOf(const SimSession& s) {
  CompareUiState::Lane l;
  l.solver = int(s.solver());
  l.substeps = s.settings().step.substeps;
  l.iterations = s.settings().step.iterations;
  return l;
}

LaneSpec specOf(const CompareUiState::Lane& l) {
  LaneSpec spec;
  spec.solver = SolverKind(std::clamp(l.solver, 0, 3));
  spec.substeps = std::clamp(l.substeps, 1, kMaxLaneSubsteps);
  spec.iterations = std::clamp(l.iterations, 1, kMaxLaneIterations);
  if (l.backend == 1) spec.backend = Backend::Cpu;
  if (l.backend == 2) spec.backend = Backend::OpenCl;
  return spec;
}

// The first time: the running solver and budget, then the other solver
// families at a budget each is usually run with.
void initialise(CompareUiState& state, const SimSession& primary) {
  state.initialised = true;
  state.lanes.clear();
  state.lanes.push_back(laneOf(primary));
  const SolverKind own = primary.solver();
  const CompareUiState::Lane xpbd{int(SolverKind::Xpbd), 20, 1, 0}, vbd{int(SolverKind::Vbd), 10, 4, 0},
      avbd{int(SolverKind::Avbd), 10, 4, 0};
  for (const CompareUiState::Lane& l : {xpbd, vbd, avbd})
    if (SolverKind(l.solver) != own && state.lanes.size() < 3) state.lanes.push_back(l);
}

// One row of the lane editor; false when the user removed it.
bool editLane(CompareUiState::Lane& lane, int id, bool removable, bool openCl) {
  ImGui::PushID(id);
  bool keep = true;
  const char* solvers[] = {"PBD", "XPBD", "VBD", "AVBD"};
  ImGui::SetNextItemWidth(70);
  ImGui::Combo("##solver", &lane.solver, solvers, 4);
  itemTooltip("The lane's solver.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(70);
  ImGui::InputInt("##sub", &lane.substeps, 0);
  itemTooltip("Substeps per frame [-].");
  ImGui::SameLine();
  ImGui::TextUnformatted("x");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(50);
  ImGui::InputInt("##it", &lane.iterations, 0);
  itemTooltip("Iterations per substep [-].");
  lane.substeps = std::clamp(lane.substeps, 1, kMaxLaneSubsteps);
  lane.iterations = std::clamp(lane.iterations, 1, kMaxLaneIterations);
  ImGui::SameLine();
  const char* backends[] = {"scene's", "CPU", "OpenCL"};
  ImGui::SetNextItemWidth(70);
  ImGui::Combo("##backend", &lane.backend, backends, openCl ? 3 : 2);
  itemTooltip("Where the lane runs: the scene's backend, the CPU reference or the OpenCL device.");
  if (removable) {
    ImGui::SameLine();
    if (ImGui::SmallButton("x")) keep = false;
    itemTooltip("Remove this lane.");
  }
  ImGui::PopID();
  return keep;
}

std::vector<float> lastOf(const Series& s, int window) {
  std::vector<float> out;
  const size_t n = s.size();
  const size_t first = n > size_t(window) ? n - size_t(window) : 0;
  for (size_t i = first; i < n; ++i) out.push_back(s.at(i));
  return out;
}

// "1 XPBD 20x1", "4 ref VBD 50x8": short enough for the legend of a narrow panel.
std::string shortName(const CompareSession& c, size_t lane) {
  const LaneSpec spec = c.laneSpec(lane);
  return std::to_string(lane + 1) + (c.isReference(lane) ? " ref " : " ") + solverDisplayName(spec.solver) + " " +
         std::to_string(spec.substeps) + "x" + std::to_string(spec.iterations);
}

PlotCurve curveOf(const CompareSession& c, size_t lane, const Series& s, int window) {
  PlotCurve curve;
  curve.name = shortName(c, lane);
  curve.color = laneColor(lane);
  curve.y = lastOf(s, window);
  curve.x0 = float(c.frame()) - float(curve.y.size()) + 1.0f;
  return curve;
}

// Every plot's curves, in the order drawn (kPlots).
struct PlotSpec {
  const char* label;
  MultiPlotStyle style;
};
const PlotSpec kPlots[] = {
    {"total energy", {"J", "frame", false, 1e-12f, 80.0f}},
    {"kinetic energy", {"J", "frame", false, 1e-12f, 80.0f}},
    {"residual (last iteration)", {"", "frame", true, 1e-12f, 80.0f}},
    {"residual per iteration", {"", "iteration", true, 1e-12f, 80.0f}},
    {"residual vs time in a substep", {"", "ms", true, 1e-12f, 80.0f}},
    {"max constraint violation", {"m", "frame", true, 1e-9f, 80.0f}},
    {"step time", {"ms", "frame", false, 1e-12f, 80.0f}},
    {"error vs reference (RMS)", {"m", "frame", true, 1e-9f, 80.0f}},
    {"step error (share of the step's force)", {"", "frame", true, 1e-6f, 80.0f}},
    {"probe", {"m", "frame", false, 1e-12f, 80.0f}},
};
constexpr size_t kPlotCount = sizeof(kPlots) / sizeof(kPlots[0]);

std::vector<std::vector<PlotCurve>> collectCurves(const CompareSession& c, int window) {
  std::vector<std::vector<PlotCurve>> plots(kPlotCount);
  for (size_t i = 0; i < c.laneCount(); ++i) {
    const SimSession& s = c.lane(i);
    const SessionSeries& ss = s.series();
    plots[0].push_back(curveOf(c, i, ss.totalEnergy, window));
    plots[1].push_back(curveOf(c, i, ss.kinetic, window));
    plots[2].push_back(curveOf(c, i, ss.residual, window));
    PlotCurve perIteration;
    perIteration.name = shortName(c, i);
    perIteration.color = laneColor(i);
    perIteration.y = s.diagnostics().residualHistory;
    perIteration.x0 = 1.0f;
    plots[3].push_back(perIteration);
    // The iterations spread evenly over the last substep's share of the solve time.
    PlotCurve perMs = perIteration;
    const int substeps = std::max(1, s.substepsUsed());
    const double solveMs = s.diagnostics().stages[Stage::Solve] / double(substeps);
    perMs.dx = perIteration.y.empty() ? 1.0f : float(solveMs / double(perIteration.y.size()));
    perMs.x0 = perMs.dx;
    plots[4].push_back(perMs);
    plots[5].push_back(curveOf(c, i, ss.maxViolation, window));
    plots[6].push_back(curveOf(c, i, ss.stepMs, window));
    if (c.referenceLane() && !c.isReference(i)) plots[7].push_back(curveOf(c, i, c.series(i).errorRms, window));
    plots[8].push_back(curveOf(c, i, ss.stepError, window));
    plots[9].push_back(curveOf(c, i, c.series(i).probe, window));
  }
  return plots;
}

// Per lane: its label, time, error and flags; the budget of lanes 2.. (lane
// 1's is the Simulation section's) and which lane the parameters section edits.
void drawLaneTable(const CompareSession& c, CompareUiState& state, CompareActions& actions) {
  state.parametersLane = std::clamp(state.parametersLane, 0, int(c.laneCount()) - 1);
  for (size_t i = 0; i < c.laneCount(); ++i) {
    const SimSession& s = c.lane(i);
    const glm::vec3 col = laneColor(i);
    ImGui::PushID(int(i));
    ImGui::RadioButton("##params", &state.parametersLane, int(i));
    itemTooltip("Edit this lane's solver parameters in the \"Solver parameters\" section.");
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(col.x, col.y, col.z, 1.0f), "%zu %s", i + 1, c.laneLabel(i).c_str());
    if (i > 0) {
      LaneSpec spec = c.laneSpec(i);
      int sub = spec.substeps, it = spec.iterations;
      ImGui::TextUnformatted("   budget");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(60);
      const bool subEdited = ImGui::InputInt("##sub", &sub, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue);
      itemTooltip("Substeps per frame [-] (Enter applies).");
      ImGui::SameLine();
      ImGui::TextUnformatted("x");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(50);
      const bool itEdited = ImGui::InputInt("##it", &it, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue);
      itemTooltip("Iterations per substep [-] (Enter applies).");
      if (subEdited || itEdited) {
        spec.substeps = std::clamp(sub, 1, kMaxLaneSubsteps);
        spec.iterations = std::clamp(it, 1, kMaxLaneIterations);
        actions.setLane = std::make_pair(i, spec);
      }
    }
    ImGui::PopID();
    if (c.error(i).valid() && !c.isReference(i))
      ImGui::Text("   %.2f ms   error RMS %.2g m, max %.2g m", s.lastStepWallMs(), c.error(i).rms, c.error(i).max);
    else
      ImGui::Text("   %.2f ms/frame", s.lastStepWallMs());
    if (s.blownUp()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(kError, "   blew up: %s", s.blowUpMessage().c_str());
      ImGui::PopTextWrapPos();
    } else {
      drawStepErrorLine(s.verdict(), "   ");
    }
  }
}

}  // namespace

CompareSpec compareSpecFromUi(const CompareUiState& state, CompareView view) {
  CompareSpec spec;
  for (const CompareUiState::Lane& l : state.lanes) spec.lanes.push_back(specOf(l));
  if (state.reference == 1) spec.autoReference = true;
  if (state.reference == 2) spec.reference = specOf(state.referenceLane);
  spec.equalCostMs = state.equalCost ? state.equalCostMs : 0.0f;
  spec.view = view;
  return spec;
}

CompareActions drawComparePanel(const ComparePanelInput& input, CompareUiState& state) {
  CompareActions actions;
  if (!input.primary) {
    ImGui::TextColored(kDim, "Load a scene to compare solvers on it.");
    return actions;
  }
  if (!input.compare) {
    if (!state.initialised) initialise(state, *input.primary);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDim, "Run this scene on two to four solvers at once, from the same state with the same "
                             "material. Lane 1 is the scene's own solver: the panels above edit it.");
    ImGui::PopTextWrapPos();
    const int total = int(state.lanes.size()) + (state.reference != 0 ? 1 : 0);
    for (size_t i = 0; i < state.lanes.size();) {
      if (editLane(state.lanes[i], int(i), state.lanes.size() > 1, input.openClAvailable)) ++i;
      else state.lanes.erase(state.lanes.begin() + long(i));
    }
    if (total < kMaxCompareLanes && ImGui::SmallButton("+ lane")) state.lanes.push_back(state.lanes.back());
    itemTooltip("Add a lane (four at most, the reference included).");
    ImGui::TextUnformatted("reference");
    ImGui::SameLine();
    ImGui::RadioButton("none", &state.reference, 0);
    ImGui::SameLine();
    ImGui::RadioButton("automatic", &state.reference, 1);
    itemTooltip("A converged VBD solve chosen from the conformance budgets for the scene's stiffness; every other "
                "lane shows its distance to it.");
    ImGui::SameLine();
    ImGui::RadioButton("this one:", &state.reference, 2);
    if (state.reference == 2) (void)editLane(state.referenceLane, 99, false, input.openClAvailable);
    ImGui::Checkbox("equal cost", &state.equalCost);
    itemTooltip("Give every lane the same time per frame; each picks its iterations to fit, every 10 frames.");
    if (state.equalCost) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(90);
      ImGui::InputFloat("ms per frame", &state.equalCostMs, 0.0f, 0.0f, "%.2f");
      state.equalCostMs = std::clamp(state.equalCostMs, 0.01f, 60000.0f);
    }
    const CompareSpec spec = compareSpecFromUi(state, input.view);
    const Status valid = validateCompareSpec(spec);
    if (!valid) ImGui::TextColored(kWarn, "%s", valid.error().message.c_str());
    ImGui::BeginDisabled(!valid);
    if (ImGui::Button("start comparing")) actions.start = spec;
    ImGui::EndDisabled();
    itemTooltip("Every lane starts from the scene's initial state (your pins stay).");
    return actions;
  }

  const CompareSession& c = *input.compare;
  int view = int(input.view);
  ImGui::TextUnformatted("view");
  ImGui::SameLine();
  if (ImGui::RadioButton("split", &view, int(CompareView::Split))) actions.view = CompareView::Split;
  itemTooltip("One view per lane, the cameras linked.");
  ImGui::SameLine();
  if (ImGui::RadioButton("overlay", &view, int(CompareView::Overlay))) actions.view = CompareView::Overlay;
  itemTooltip("All lanes in one view: lane 1 shaded, the others as ghosts in their colour.");
  ImGui::SameLine();
  if (ImGui::Button("stop comparing")) actions.stop = true;
  drawLaneTable(c, state, actions);
  if (ImGui::TreeNodeEx("accuracy per cost", ImGuiTreeNodeFlags_DefaultOpen)) {
    std::vector<CostAccuracyPoint> points;
    for (size_t i = 0; i < c.laneCount(); ++i) {
      const ConvergenceTally& v = c.lane(i).verdict();
      points.push_back({shortName(c, i), laneColor(i), float(c.lane(i).meanStepWallMs()), float(v.meanRelativeAll()),
                        v.mostlyFloatLimited()});
    }
    plotCostAccuracy(points, 110.0f);
    itemTooltip("Each lane at its mean time per frame (x) and its mean step error since the start, the one measure "
                "every solver shares, as a share of what the step's forces move the body (y, log). Hollow: most frames "
                "float-limited, float32 cannot resolve 5 %% there and the error may lie anywhere below. The amber line is the 5 % band above which a step is under-converged: lower "
                "at the same cost is more accurate per millisecond.");
    ImGui::TreePop();
  }
  bool equalCost = c.spec().equalCostMs > 0.0f;
  if (ImGui::Checkbox("equal cost", &equalCost)) actions.equalCostMs = equalCost ? state.equalCostMs : 0.0f;
  itemTooltip("Give every lane the same time per frame; each picks its iterations to fit, every 10 frames.");
  if (equalCost) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    if (ImGui::InputFloat("ms/frame", &state.equalCostMs, 0.0f, 0.0f, "%.2f", ImGuiInputTextFlags_EnterReturnsTrue))
      actions.equalCostMs = std::clamp(state.equalCostMs, 0.01f, 60000.0f);
  }
  ImGui::TextUnformatted("probe");
  ImGui::SameLine();
  if (ImGui::RadioButton("centre of mass height", !state.probeIsVertex)) {
    state.probeIsVertex = false;
    actions.probe = std::optional<uint32_t>{};
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("vertex", state.probeIsVertex)) {
    state.probeIsVertex = true;
    actions.probe = std::optional<uint32_t>(uint32_t(std::max(state.probeVertex, 0)));
  }
  itemTooltip("The vertex's distance from where it was when the probe was set [m].");
  if (state.probeIsVertex) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(70);
    if (ImGui::InputInt("##probe", &state.probeVertex, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue))
      actions.probe = std::optional<uint32_t>(uint32_t(std::max(state.probeVertex, 0)));
    if (input.lastPickedVertex) {
      ImGui::SameLine();
      if (ImGui::SmallButton("last grabbed")) {
        state.probeVertex = int(*input.lastPickedVertex);
        actions.probe = std::optional<uint32_t>(*input.lastPickedVertex);
      }
      itemTooltip("The vertex you last dragged or pinned.");
    }
  }

  ImGui::Separator();
  if (ImGui::Checkbox("freeze plots", &state.freeze) && state.freeze) state.frozen = collectCurves(c, state.window);
  itemTooltip("Hold the curves as they are (the lanes keep running) to read them at leisure.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120);
  ImGui::SliderInt("frames shown", &state.window, 20, int(Series::kCapacity));
  itemTooltip("Zoom: how many of the last frames the plots show.");
  const std::vector<std::vector<PlotCurve>> plots = state.freeze ? state.frozen : collectCurves(c, state.window);
  if (!plots.empty() && !plots[0].empty()) plotLegend(plots[0]);
  for (size_t p = 0; p < kPlotCount && p < plots.size(); ++p) {
    if (plots[p].empty()) continue;
    plotCurves(kPlots[p].label, plots[p], kPlots[p].style);
  }
  return actions;
}

}  // namespace tetlab
