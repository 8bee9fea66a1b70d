#include "app/ui/numbers_panel.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <imgui.h>

#include "app/ui/plots.h"
#include "app/ui/solver_panel.h"
#include "app/ui/step_error_text.h"
#include "core/scene/enum_names.h"
#include "core/sim/rayleigh_damping.h"

namespace tetlab {

namespace {

const ImVec4 kDimColor(0.65f, 0.67f, 0.72f, 1.0f);
const ImVec4 kWarnColor(1.0f, 0.8f, 0.35f, 1.0f);

// "name  ms  bar" rows, the bar proportional to the stage's share of the total.
void stageRow(const char* name, double ms, double totalMs) {
  ImGui::Text("%-14s %7.3f ms", name, ms);
  ImGui::SameLine();
  const float share = totalMs > 0.0 ? float(ms / totalMs) : 0.0f;
  ImGui::ProgressBar(std::clamp(share, 0.0f, 1.0f), ImVec2(-1.0f, ImGui::GetTextLineHeight()), "");
}

// One row per Stage (core/sim/stage.h), the same table on both backends;
// only the stages the backend timed (the CPU runs Init, Dual, Collisions and
// Residual inside Solve; the device energy is timed on the host).
void stageRows(const StageTimes& times, const std::array<bool, kStageCount>& timed, double totalMs) {
  for (Stage stage : kAllStages)
    if (timed[size_t(stage)]) stageRow(stageName(stage), times[stage], totalMs);
}

void drawStages(const SimSession& session) {
  if (session.backend() == Backend::Cpu) {
    const StepDiagnostics& d = session.diagnostics();
    ImGui::Text("step %.3f ms (CPU reference, 1 thread)", d.stepMs);
    itemTooltip("Wall time of the last frame's step, summed over its substeps [ms].");
    std::array<bool, kStageCount> timed{};
    for (Stage stage : {Stage::Predict, Stage::BodyContacts, Stage::Solve, Stage::Velocity, Stage::Energy})
      timed[size_t(stage)] = true;
    timed[size_t(Stage::Damping)] = d.dampingIterations > 0;
    stageRows(d.stages, timed, d.stepMs);
    return;
  }
  const StepStats& g = session.gpuStats();
  ImGui::Text("step %.3f ms wall, %.3f ms device", session.lastStepWallMs(), g.totalMs);
  itemTooltip("Wall: enqueue + wait + position read-back; device: summed kernel times from profiling events [ms].");
  const uint32_t launches = session.diagnostics().launches;
  ImGui::Text("%u launches per frame (%.1f us wall each)", launches,
              launches ? 1e3 * session.lastStepWallMs() / double(launches) : 0.0);
  itemTooltip("Kernel launches and copies the last frame enqueued. On small bodies each launch's fixed cost, not "
              "the work, sets the frame time: wall time per launch is that cost.");
  if (*session.diagnostics().schedule) {
    ImGui::Text("solve launched %s", session.diagnostics().schedule);
    itemTooltip("The launch schedule that ran (solver panel, 'launch schedule'): per colour launches each colour on "
                "every compute unit; one work-group saves the launches on small models.");
  }
  if (!g.valid) {
    ImGui::TextColored(kDimColor, "%s", g.launches > 0 && session.stageTiming() ? "no profiling information from this device"
                                                                                : "stage times start with the next frame");
    return;
  }
  std::array<bool, kStageCount> timed{};
  for (const StageTime& s : g.stages)
    if (s.launches > 0) timed[size_t(s.stage)] = true;
  stageRows(g.byStage, timed, g.totalMs);
  if (!ImGui::TreeNode("largest launches")) return;
  // Per-colour entries are many: show the largest ones, the rest summed.
  std::vector<const StageTime*> stages;
  for (const StageTime& s : g.stages)
    if (s.launches > 0) stages.push_back(&s);
  std::sort(stages.begin(), stages.end(), [](const StageTime* a, const StageTime* b) { return a->ms > b->ms; });
  double rest = 0.0;
  size_t shown = 0;
  for (const StageTime* s : stages) {
    if (shown < 8) {
      stageRow(s->name.c_str(), s->ms, g.totalMs);
      ++shown;
    } else {
      rest += s->ms;
    }
  }
  if (stages.size() > shown) {
    char label[32];
    std::snprintf(label, sizeof(label), "%zu others", stages.size() - shown);
    stageRow(label, rest, g.totalMs);
  }
  ImGui::TreePop();
}

// Says when the numbers on screen are not the material's answer: the one
// under-converged verdict (core/sim/convergence_verdict.h), then each
// solver's own measure as a secondary, dim line (core/sim/convergence.h),
// then the damping pass and the energy checks.
void drawFidelity(const SimSession& session) {
  drawStepErrorLine(session.verdict(), "");
  const ConvergenceCheck& c = session.convergence();
  if (c.applies) {
    ImGui::TextColored(kDimColor, "  VBD residual %.2g m = %.2fx 0.1 h^2 g", c.residual, c.ratio());
    itemTooltip("VBD/AVBD's own measure, secondary to the step error above: the last iteration's residual "
                "(RMS |f| h^2 / m) against a tenth of the substep's gravity step h^2 |g|. For a stiff body "
                "float32 rounding alone keeps it above 1x, so it does not set the verdict "
                "(docs/solvers_vbd_avbd.md, 'Convergence').");
  }
  const XpbdForceShare& x = session.xpbdForceShare();
  if (x.applies) {
    if (x.underConverged)
      ImGui::TextColored(kDimColor, "  XPBD carries %.2g %% of the material's force (acts ~%.3gx softer)",
                         100.0 * x.share, x.share > 0.0 ? 1.0 / x.share : INFINITY);
    else
      ImGui::TextColored(kDimColor, "  XPBD carries %.0f %% of the material's force", 100.0 * x.share);
    itemTooltip("XPBD's own measure, secondary to the step error above: the energy the multipliers of its "
                "stretch, shear, volume, edge and cloth-membrane constraints carry against the energy of the "
                "deformation at the material's compliance. Its square root is the share of the material's force "
                "the step applies; well below 100 %% the body sags and swings like one of about share times the "
                "material's stiffness. Raise the substeps, or use VBD/AVBD for stiff bodies (docs/solvers.md, "
                "'Known limits').");
  }
  const StepDiagnostics& d = session.diagnostics();
  if (d.dampingIterations > 0) {
    const bool short_ = rayleighPassFellShort(d.dampingIterations, d.dampingResidual, session.settings().step.rayleigh);
    ImGui::PushStyleColor(ImGuiCol_Text, short_ ? kWarnColor : kDimColor);
    ImGui::TextWrapped("damping pass: %d CG iterations, residual %.2g%s", d.dampingIterations,
                       double(d.dampingResidual), short_ ? " (stopped short: low modes under-damped)" : "");
    ImGui::PopStyleColor();
    itemTooltip("Material damping (Rayleigh k_d K) is one implicit velocity pass per frame, the same for all four "
                "solvers, solved by conjugate gradients. Stopped at its iteration cap with the residual above 10x "
                "its tolerance, the slow, low-frequency modes get less than their damping ratio k_d omega / 2 "
                "(the beam's first mode: 60 %% at a residual of 1e-2): raise the pass's iterations "
                "(docs/solvers.md, 'Material damping').");
  }
  const EnergyRiseCheck& e = session.energyRise();
  if (e.applies && e.rising) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarnColor);
    if (e.blowUp)
      ImGui::TextWrapped("blow-up: energy rose up to +%.3g J above the start (more than %.0fx the tolerance %.3g J)",
                         e.rise, kEnergyBlowUpFactor, e.tolerance);
    else
      ImGui::TextWrapped("energy rose up to +%.3g J above the start (tolerance %.3g J)", e.rise, e.tolerance);
    ImGui::PopStyleColor();
    itemTooltip("Nothing forces this run and damping only removes energy, so its total energy may not grow: the "
                "solver is adding energy (under-converged implicit steps, or a position-based step beyond its "
                "limits, e.g. XPBD below its shear substep limit). The largest rise since the last reset. A live "
                "material edit also changes the elastic energy.");
  }
  const PbdSoftness& soft = session.pbdSoftness();
  if (soft.applies && soft.soft && !(e.applies && e.rising)) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarnColor);
    ImGui::TextWrapped("PBD softer than its material: the shape holds up to +%.3g J of the material's energy above "
                       "the start (tolerance %.3g J)",
                       soft.excess, soft.tolerance);
    ImGui::PopStyleColor();
    itemTooltip("Its motion (kinetic + gravitational energy) gained nothing, but PBD stopped before its constraints "
                "reached the material's force, so the body stretches further than the material would let it "
                "(high mass ratios and stiff materials converge slowly). Raise the substeps (with the default "
                "match_xpbd stiffness mapping the iterations count little), or use XPBD, VBD or AVBD "
                "(docs/solvers.md, 'Known limits').");
  }
}

}  // namespace

void drawNumbersPanel(const SimSession& session, const FrameTimer& timer) {
  if (timer.frameCount() > 0)
    ImGui::Text("%.1f FPS   %.2f ms/frame", timer.fps(), timer.frameSeconds() * 1000.0);
  else
    ImGui::TextColored(kDimColor, "measuring frame time...");
  const SimModel& m = session.model();
  ImGui::Text("%u vertices, %u tets, %u edges", m.vertexCount(), m.tetCount(), m.edgeCount());
  if (m.membraneCount() > 0)
    ImGui::Text("colours: %u tet, %u edge, %u membrane, %u vertex", m.tetColors.count(), m.edgeColors.count(),
                m.membraneColors.count(), m.vertexColors.count());
  else
    ImGui::Text("colours: %u tet, %u edge, %u vertex", m.tetColors.count(), m.edgeColors.count(),
                m.vertexColors.count());
  itemTooltip("Graph colours: each colour is one parallel sweep (one kernel launch on OpenCL).");
  drawStages(session);
  drawFidelity(session);

  const SessionSeries& s = session.series();
  PlotStyle share;
  share.logScale = true;
  share.logFloor = 1e-6f;
  plotSeries("step error (share of the step's force)", s.stepError, share);
  itemTooltip("The common step error of each measured frame as a share of what the step's forces move the body "
              "(log). Above 0.05, the 5 % band, with the error above 8 float floors, a step is under-converged "
              "(docs/solvers.md, 'One error measure'); on OpenCL every 10th frame, held between.");
  PlotStyle energy;
  energy.unit = "J";
  plotSeries("total energy", s.totalEnergy, energy);
  itemTooltip("Kinetic + gravitational + elastic energy per frame [J] (OpenCL: reduced on the device every frame). "
              "XPBD's stretch, shear, volume and edge constraints count by the energy their multipliers carry, "
              "the energy its step trades with (the material's energy of the shape when converged).");
  plotSeries("kinetic energy", s.kinetic, energy);
  plotSeries("elastic energy", s.elastic, energy);
  PlotStyle violation;
  violation.unit = "m";
  if (session.backend() == Backend::Cpu || !s.maxViolation.empty()) {
    plotSeries("max constraint violation", s.maxViolation, violation);
    itemTooltip("Largest |C| over hard constraints (pins, contacts, attachments) at the end of the step [m]; "
                "measured by the CPU reference only.");
  } else {
    ImGui::TextColored(kDimColor, "max constraint violation: CPU reference only");
  }
  PlotStyle residual;
  residual.logScale = true;
  const StepDiagnostics& d = session.diagnostics();
  if (session.backend() == Backend::Cpu || !d.residualHistory.empty()) {
    plotValues("residual per iteration (last substep)", d.residualHistory, residual);
    itemTooltip("Convergence curve of the last substep: the solver's residual after each iteration (docs/solvers.md); "
                "on OpenCL measured on the device for VBD and AVBD.");
    plotSeries("final residual per frame", s.residual, residual);
  } else {
    ImGui::TextColored(kDimColor, "residual curves: PBD/XPBD measure them on the CPU reference only");
  }
  PlotStyle ms;
  ms.unit = "ms";
  plotSeries("step time", s.stepMs, ms);
}

}  // namespace tetlab
