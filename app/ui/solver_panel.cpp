#include "app/ui/solver_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include <glm/geometric.hpp>

#include "core/cpu/xpbd_solver.h"
#include "core/model/cloth_bending.h"
#include "core/scene/enum_names.h"
#include "core/scene/rotation.h"
#include "core/sim/sdf_grid.h"

namespace tetlab {

namespace {

const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kWarnColor(1.0f, 0.8f, 0.35f, 1.0f);
const ImVec4 kDimColor(0.65f, 0.67f, 0.72f, 1.0f);

// Combo over an EnumName table with display labels.
template <class E>
bool enumCombo(const char* label, E& value, std::span<const EnumName<E>> names, const char* tooltip) {
  bool changed = false;
  if (ImGui::BeginCombo(label, enumName(names, value))) {
    for (const EnumName<E>& e : names) {
      const bool selected = e.value == value;
      if (ImGui::Selectable(e.name, selected)) {
        value = e.value;
        changed = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  itemTooltip(tooltip);
  return changed;
}

// A positive quantity spanning decades (stiffness, modulus): logarithmic slider.
bool logSlider(const char* label, float& value, float lo, float hi, const char* format, const char* tooltip) {
  const bool changed = ImGui::SliderFloat(label, &value, lo, hi, format, ImGuiSliderFlags_Logarithmic);
  itemTooltip(tooltip);
  return changed;
}

bool slider(const char* label, float& value, float lo, float hi, const char* format, const char* tooltip) {
  const bool changed = ImGui::SliderFloat(label, &value, lo, hi, format);
  itemTooltip(tooltip);
  return changed;
}

void drawVbdPrimal(VbdParams& p, const char* idSuffix) {
  ImGui::PushID(idSuffix);
  enumCombo("initial guess", p.initialGuess, vbdInitialGuessNames(),
            "Where each substep's iterations start (VBD Sec. 3.7); adaptive uses gravity only while falling, on a "
            "body swinging on a pin or hinge the part of it the pin leaves, and none on a body its pins fix (they "
            "would strain it: docs/solvers_vbd_avbd.md) [-].");
  enumCombo("Hessian safeguard", p.safeguard, hessianSafeguardNames(),
            "How an indefinite per-vertex Hessian is made safe before the 3x3 solve (none may explode) [-].");
  if (p.safeguard == HessianSafeguard::DeterminantThreshold)
    logSlider("det threshold", p.determinantThreshold, 1e-10f, 1e-1f, "%.1e",
              "Skip a vertex whose |det H| is below this times its RMS eigenvalue cubed [-].");
  logSlider("contact stiffness", p.contactStiffness, 1e2f, 1e9f, "%.2e N/m",
            "Penalty stiffness of soft contacts, E = 1/2 k d^2 for penetration d [N/m].");
  slider("contact thickness", p.contactThickness, 0.0f, 0.02f, "%.4f m",
         "Collision radius kept around every vertex [m].");
  logSlider("friction epsilon", p.frictionEpsilon, 1e-6f, 1.0f, "%.1e m/s",
            "Tangential speed below which friction acts like static friction [m/s].");
  logSlider("body contact kappa", p.bodyContactStiffness, 0.1f, 100.0f, "%.2f",
            "Stiffness of body-body contacts in units of the contact's inertia, k = kappa m / h^2; a load F "
            "sinks in by F h^2 / (kappa m) [-].");
  ImGui::PopID();
}

}  // namespace

void itemTooltip(const char* text) {
  if (text && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

SolverPanelActions drawRunControls(SimSession& session, const SolverPanelInput& input) {
  SolverPanelActions actions;
  if (session.blownUp()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kErrorColor, "%s", session.blowUpMessage().c_str());
    ImGui::PopTextWrapPos();
    if (session.canRestore()) {
      char label[96];
      std::snprintf(label, sizeof(label), "restore last good state (frame %llu)",
                    static_cast<unsigned long long>(session.snapshotFrame()));
      if (ImGui::Button(label)) actions.restore = true;
      itemTooltip("Go back to the last snapshot taken while the run was healthy (every 30 frames), paused.");
      ImGui::SameLine();
    }
    if (ImGui::Button("reset")) actions.reset = true;
    itemTooltip("Start the scene over from its initial state (R).");
    ImGui::Separator();
  }
  if (ImGui::Button(session.paused() ? "run (space)" : "pause (space)", ImVec2(110, 0)))
    session.setPaused(!session.paused());
  itemTooltip("Pause or continue the simulation.");
  ImGui::SameLine();
  if (ImGui::Button("step (S)")) session.requestSingleStep();
  itemTooltip("Advance exactly one frame of dt while paused.");
  ImGui::SameLine();
  if (ImGui::Button("reset (R)")) actions.reset = true;
  itemTooltip("Back to the initial state; your pins, settings and materials stay.");
  slider("slow motion", session.slowMotion, 0.05f, 1.0f, "%.2f x",
         "Simulated time per frame as a fraction of dt: 1 is real time at 60 frames per second [-].");
  ImGui::Text("t = %.3f s   frame %llu", session.time(), static_cast<unsigned long long>(session.frame()));
  if (input.recording) {
    ImGui::SameLine();
    ImGui::TextColored(kWarnColor, "recording: fixed dt per video frame");
  }
  return actions;
}

SolverPanelActions drawSolverControls(SimSession& session, const SolverPanelInput& input) {
  SolverPanelActions actions;
  SolverSettings& s = session.settings();
  ImGui::TextUnformatted("solver ");
  for (const EnumName<SolverKind>& e : solverKindNames()) {
    ImGui::SameLine();
    if (ImGui::RadioButton(solverDisplayName(e.value), s.solver == e.value) && s.solver != e.value)
      session.setSolver(e.value);
    static const char* kTips[] = {
        "Position Based Dynamics (key 1): projects constraints with a stiffness fraction mapped from the material.",
        "Extended PBD (key 2): compliant constraints with multipliers; the material's stiffness needs many substeps.",
        "Vertex Block Descent (key 3): a 3x3 Newton step per vertex over vertex colours on the elastic energy.",
        "Augmented VBD (key 4): VBD plus augmented-Lagrangian hard constraints (contacts; pins, edges, mouse "
        "optional)."};
    itemTooltip(kTips[int(e.value)]);
  }
  ImGui::TextUnformatted("backend");
  ImGui::SameLine();
  if (ImGui::RadioButton("CPU reference", session.backend() == Backend::Cpu) && session.backend() != Backend::Cpu)
    actions.backend = Backend::Cpu;
  itemTooltip("The single-threaded C++ reference solvers (ground truth).");
  ImGui::SameLine();
  if (!input.openClAvailable) ImGui::BeginDisabled();
  if (ImGui::RadioButton("OpenCL", session.backend() == Backend::OpenCl) && session.backend() != Backend::OpenCl)
    actions.backend = Backend::OpenCl;
  if (!input.openClAvailable) ImGui::EndDisabled();
  itemTooltip(input.openClAvailable ? ("The same solver as OpenCL kernels on " + input.openClDevice + ".").c_str()
                                    : "No OpenCL device was found at start-up (see the OpenCL devices section).");
  if (const std::string& why = session.openClUnavailable(s.solver); !why.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kWarnColor, "%s has no OpenCL run here: %s", solverDisplayName(s.solver), why.c_str());
    ImGui::PopTextWrapPos();
  }
  // Every solver has a one-group schedule on OpenCL (VBD and PBD/XPBD: the whole step; AVBD: a substep's iterations).
  if (session.backend() == Backend::OpenCl) {
    enumCombo("launch schedule", s.step.gpuSchedule, gpuScheduleNames(),
              "How OpenCL runs the solve: per_color launches each colour (and each pass) on every compute unit; "
              "one_group runs it in one work-group (VBD, PBD, XPBD: the whole step, one launch per frame; AVBD: a "
              "substep's iterations in one launch), which wins on small models; auto picks by the largest colour "
              "and the device. Same positions either way; the numbers panel shows the launches and the schedule.");
  }
  if (session.backend() == Backend::OpenCl && !input.glInterop.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("GL interop: %s", input.glInterop.c_str());
    ImGui::PopTextWrapPos();
    itemTooltip(input.glInteropWhy.c_str());
  }

  float dtMs = s.step.dt * 1000.0f;
  if (ImGui::SliderFloat("dt", &dtMs, 1.0f, 50.0f, "%.2f ms")) s.step.dt = dtMs / 1000.0f;
  itemTooltip("Simulated time of one frame, split into the substeps [ms].");
  ImGui::SliderInt("substeps", &s.step.substeps, 1, 200, "%d", ImGuiSliderFlags_Logarithmic);
  itemTooltip("Substeps per frame, each of length dt / substeps: more is stiffer and more stable [-].");
  ImGui::SliderInt("iterations", &s.step.iterations, 1, 100, "%d", ImGuiSliderFlags_Logarithmic);
  itemTooltip("Solver iterations per substep (colour sweeps) [-].");
  if (s.solver == SolverKind::Xpbd && s.step.constraints.neoHookean) {
    // The raise is XPBD's alone (SimSession::xpbdPlan): show what was asked and what runs.
    bool raise = session.xpbdAutoRaise();
    if (ImGui::Checkbox("raise to the shear limit", &raise)) session.setXpbdAutoRaise(raise);
    itemTooltip("XPBD integrates Neo-Hookean shear explicitly: below the limit's substep count it is unstable. "
                "When on, XPBD alone runs at least that many substeps (capped where float positions stop "
                "resolving a substep); other solvers keep the count above.");
    const XpbdSubstepPlan plan = session.xpbdPlan();
    if (plan.raised())
      ImGui::TextColored(plan.capped() ? kWarnColor : ImVec4(0.6f, 0.8f, 1.0f, 1.0f), "XPBD runs %d substeps (asked %d)%s",
                         plan.used, plan.asked, plan.capped() ? ", capped" : "");
    if (plan.needed > plan.used) {
      ImGui::TextColored(kWarnColor, "below XPBD's shear limit (%d needed)", plan.needed);
      if (!plan.capped()) {
        ImGui::SameLine();
        char label[48];
        std::snprintf(label, sizeof(label), "use %d", plan.needed);
        if (ImGui::SmallButton(label)) s.step.substeps = plan.needed;
      }
    }
    // The way out that costs no substeps: constraints with no shear limit.
    if (plan.needed > plan.asked && ImGui::SmallButton("use strain-based constraints instead"))
      selectXpbdElasticModel(XpbdElasticModel::StrainBased, s.step.constraints);
    if (plan.needed > plan.asked)
      itemTooltip("Strain-based stretch, shear and volume constraints have no substep limit: they run at the "
                  "substeps asked for. With too few iterations a stiff body then acts softer than its material; "
                  "the numbers panel shows the share of the material's force XPBD carries.");
    if (plan.raised() || plan.needed > plan.used) itemTooltip(plan.notice().c_str());
  }
  ImGui::DragFloat3("gravity", &s.step.gravity.x, 0.05f, -50.0f, 50.0f, "%.2f");
  itemTooltip("Gravitational acceleration, x y z [m/s^2].");
  slider("velocity damping", s.step.velocityDamping, 0.0f, 20.0f, "%.2f 1/s",
         "Linear drag rate: every substep v *= exp(-rate h) [1/s].");
  ImGui::SliderInt("damping CG iters", &s.step.rayleigh.maxIterations, 0, 1000);
  itemTooltip("Most conjugate-gradient iterations of the material damping pass per frame (bodies with damping "
              "> 0 only); the numbers panel shows how many it used and its residual [-].");
  logSlider("damping CG tol", s.step.rayleigh.tolerance, 1e-6f, 1e-1f, "%.1e",
            "The damping pass stops when its residual falls below this fraction of the start [-].");
  return actions;
}

namespace {

// Which per-tet elastic model XPBD runs (xpbdElasticModel), as a choice
// between the two that make a material on their own; a custom mix of the
// constraint toggles shows as such.
void drawXpbdElasticModel(ConstraintToggles& on) {
  const XpbdElasticModel current = xpbdElasticModel(on);
  if (ImGui::BeginCombo("elastic model", xpbdElasticModelName(current))) {
    for (XpbdElasticModel m : {XpbdElasticModel::NeoHookean, XpbdElasticModel::StrainBased})
      if (ImGui::Selectable(xpbdElasticModelName(m), m == current)) selectXpbdElasticModel(m, on);
    ImGui::EndCombo();
  }
  itemTooltip("Neo-Hookean pair: the material's energy at any strain, but its shear is explicit in XPBD, so "
              "stiff bodies need many substeps (the shear limit above). Strain-based + volume: stretch, shear "
              "and volume constraints that are zero at rest, stable at any substep count; with too few "
              "iterations a stiff body acts softer than its material, and the numbers panel says by how much "
              "(docs/solvers.md, 'Known limits'). Custom: the constraint toggles below.");
}

}  // namespace

void drawSolverParameters(SimSession& session) {
  SolverSettings& s = session.settings();
  switch (s.solver) {
    case SolverKind::Pbd:
      enumCombo("scheme", s.pbd.scheme, pbdSchemeNames(),
                "Gauss-Seidel projects colour by colour; Jacobi averages one iteration's corrections per vertex [-].");
      if (s.pbd.scheme == PbdScheme::Jacobi)
        slider("Jacobi omega", s.pbd.jacobiOmega, 1.0f, 1.99f, "%.2f",
               "Over-relaxation of the averaged Jacobi corrections, 1 <= omega < 2 [-].");
      enumCombo("stiffness mapping", s.pbd.mapping, pbdMappingNames(),
                "How the material becomes PBD's stiffness fraction k (docs/solvers.md) [-].");
      if (s.pbd.mapping != PbdStiffnessMapping::MatchXpbd)
        slider("reference rate", s.pbd.referenceRate, 1.0f, 480.0f, "%.0f Hz",
               "Rate f at which the reference stiffness fraction is defined [Hz].");
      break;
    case SolverKind::Xpbd:
      drawXpbdElasticModel(s.step.constraints);
      logSlider("compliance scale", s.xpbd.complianceScale, 1e-4f, 100.0f, "%.3g",
                "Multiplies every material compliance: below 1 stiffer, 0 would be rigid [-].");
      break;
    case SolverKind::Vbd: {
      drawVbdPrimal(s.vbd, "vbd");
      ImGui::Checkbox("Chebyshev acceleration", &s.vbd.accelerate);
      itemTooltip("Over-relax each iteration with the Chebyshev weight (VBD Sec. 3.8) [-].");
      if (s.vbd.accelerate) {
        slider("spectral radius", s.vbd.chebyshevRho, 0.5f, 0.999f, "%.3f",
               "Estimated spectral radius rho of the iteration; larger accelerates harder [-].");
        if (!chebyshevActive(true, s.step.iterations)) {
          ImGui::TextColored(kWarnColor, "acceleration off below %d iterations (now %d)", kChebyshevMinIterations,
                             s.step.iterations);
          itemTooltip("Chebyshev starts from a guess farther from the answer and repays it only over enough "
                      "iterations: below the minimum each substep runs plain VBD (docs/solvers_vbd_avbd.md).");
        }
      }
      const VbdStats st = session.vbdStats();
      ImGui::TextColored(kDimColor, "last substep: safeguard %u, singular %u, contacts %u", st.safeguardTriggers,
                         st.skippedVertices, st.activeContacts);
      itemTooltip("Hessian blocks the safeguard changed, vertices left unchanged, vertices in contact (CPU only).");
      break;
    }
    case SolverKind::Avbd: {
      AvbdParams& a = s.avbd;
      slider("alpha", a.alpha, 0.0f, 1.0f, "%.3f",
             "Fraction of the start-of-step constraint error left uncorrected this step (AVBD Eq. 18); lower "
             "corrects old error faster, and near 0 the hard rows correct it in one step, which can fling bodies "
             "(the chain preset at 0 launches its block) [-].");
      slider("gamma", a.gamma, 0.0f, 0.999f, "%.3f", "Warm-start decay of lambda and penalty between substeps [-].");
      logSlider("beta", a.beta, 1e2f, 1e12f, "%.2e N/m^2",
                "Penalty ramp: k grows by beta |C| per iteration (AVBD Eq. 12) [N/m^2].");
      logSlider("k start", a.kStart, 1.0f, 1e9f, "%.2e N/m", "Smallest and initial penalty of every row [N/m].");
      slider("k start inertia", a.kStartInertia, 0.0f, 10.0f, "%.2f",
             "Raise each row's start penalty to this times m / h^2 of its heaviest vertex [-].");
      logSlider("k max", a.kMax, 1e3f, 1e12f, "%.2e N/m", "Upper bound on every penalty [N/m].");
      ImGui::Checkbox("hard contacts", &a.hardContacts);
      itemTooltip("Contacts as hard augmented-Lagrangian rows instead of soft penalties [-].");
      ImGui::SameLine();
      ImGui::Checkbox("friction", &a.friction);
      itemTooltip("Coulomb friction rows bounded by mu times the normal force (AVBD Sec. 3.6) [-].");
      ImGui::Checkbox("hard pins", &a.hardPins);
      itemTooltip("Pinned vertices keep their mass and are held by hard rows instead of being kinematic [-].");
      ImGui::SameLine();
      ImGui::Checkbox("hard edges", &a.hardEdges);
      itemTooltip("Every edge spring becomes an inextensible distance constraint (needs edges on) [-].");
      ImGui::Checkbox("hard mouse", &a.hardAttachment);
      itemTooltip("The mouse drag as a hard constraint instead of a capped spring [-].");
      if (ImGui::TreeNode("primal (VBD) step")) {
        drawVbdPrimal(a.primal, "avbd");
        ImGui::TreePop();
      }
      const VbdStats st = session.vbdStats();
      ImGui::TextColored(kDimColor, "last substep: safeguard %u, singular %u, contacts %u", st.safeguardTriggers,
                         st.skippedVertices, st.activeContacts);
      itemTooltip("Hessian blocks the safeguard changed, vertices left unchanged, vertices in contact (CPU only).");
      break;
    }
  }
  if (s.solver == SolverKind::Pbd || s.solver == SolverKind::Xpbd) {
    PositionBasedConstraintParams& pb = s.positionBased;
    if (ImGui::TreeNode("shared PBD/XPBD constraint settings")) {
      ImGui::DragFloat3("stretch scale", &pb.stretchScale.x, 0.01f, 0.0f, 10.0f, "%.2f");
      itemTooltip("Strain-based stretch stiffness per rest axis x y z, as multiples of 2 mu (1: the material) [-].");
      ImGui::DragFloat3("shear scale", &pb.shearScale.x, 0.01f, 0.0f, 10.0f, "%.2f");
      itemTooltip("Strain-based shear stiffness xy xz yz, as multiples of mu [-].");
      ImGui::DragFloat3("rest scale", &pb.restScale.x, 0.005f, 0.1f, 10.0f, "%.3f");
      itemTooltip("Strain-based stretch target per material axis: 1 keeps the rest length, 1.2 grows 20 % along "
                  "that axis [-].");
      if (ImGui::DragFloat3("material x axis", &pb.materialAxis.x, 0.01f, -1.0f, 1.0f, "%.2f") &&
          !(glm::length(pb.materialAxis) > 0.0f))
        pb.materialAxis = glm::vec3(1.0f, 0.0f, 0.0f);
      itemTooltip("The direction the strain constraints' x axis points in the rest shape (y and z follow at right "
                  "angles): the scales above are along these axes (fibres, grain).");
      slider("contact offset", pb.contactOffset, 0.0f, 0.02f, "%.4f m", "Vertices are kept this far outside colliders [m].");
      ImGui::TreePop();
    }
  }
}

void drawConstraintToggles(SimSession& session) {
  ConstraintToggles& c = session.settings().step.constraints;
  ImGui::Checkbox("Neo-Hookean", &c.neoHookean);
  itemTooltip("Stable Neo-Hookean tets from E and nu (XPBD: deviatoric + hydrostatic; VBD: energy) [-].");
  ImGui::SameLine(170);
  ImGui::Checkbox("edges", &c.edges);
  itemTooltip("Edge distance constraints (PBD/XPBD) or mass springs with k = 6 E V / L^2 (VBD/AVBD) on the solids; "
              "a cloth's edges are its membrane and always act [-].");
  ImGui::Checkbox("tet volume", &c.tetVolume);
  itemTooltip("Per-tet volume preservation: Lame lambda with the strain set (together the material), the bulk modulus without [-].");
  ImGui::SameLine(170);
  ImGui::Checkbox("strain based", &c.strainBased);
  itemTooltip("Strain-based dynamics stretch and shear per tet (Mueller 2014), PBD/XPBD [-].");
  ImGui::Checkbox("tethers", &c.tethers);
  itemTooltip("Long-range attachments (LRA): no vertex drifts farther from its nearest pin than (1 + slack) times "
              "its rest distance; every solver (PBD/XPBD per iteration, VBD/AVBD after each substep's solve) [-].");
  ImGui::SameLine(170);
  ImGui::Checkbox("collisions", &c.collisions);
  if (c.tethers)
    slider("tether slack", session.settings().positionBased.tetherSlack, 0.0f, 0.5f, "%.3f",
           "A vertex may move (1 + slack) times its rest distance from its nearest pin [-].");
  itemTooltip("Contacts with the ground and the analytic colliders, with Coulomb friction [-].");
  ImGui::Checkbox("bending", &c.bending);
  itemTooltip("Bending of sheets and strands: each interior edge of a sheet and each interior point of a strand "
              "resists bending with its material's D or E I, on every solver. Off: sheets fold and strands kink "
              "freely [-].");
  ImGui::SameLine(170);
  ImGui::Checkbox("membrane", &c.membrane);
  itemTooltip("Cloth stretch and shear as a continuum: each triangle's St. Venant-Kirchhoff membrane energy with "
              "the material's E h and nu, on every solver (VBD/AVBD energy, PBD/XPBD two strain constraints). "
              "Off: the sheet's edges are springs, whose Poisson ratio is fixed at 1/3 [-].");
  ImGui::Checkbox("body contacts", &c.bodyContacts);
  itemTooltip("Bodies push on each other: every surface vertex against the nearest surface triangle of another "
              "body, found each substep, with Coulomb friction [-].");
  if (c.bodyContacts) {
    // Always visible with the toggle: how many contacts hold, and whether any were dropped.
    const StepDiagnostics& d = session.diagnostics();
    ImGui::SameLine(170);
    ImGui::TextColored(kDimColor, "%u in contact", d.bodyContacts);
    itemTooltip("Body contacts found in the last substep (surface vertices touching another body) [-].");
    if (d.bodyContactOverflow > 0)
      ImGui::TextColored(kWarnColor, "%u contact items dropped: more than %u contacts at one vertex",
                         d.bodyContactOverflow, kMaxContactsPerVertex);
  }
  if (c.bodyContacts && ImGui::TreeNode("body contact settings")) {
    BodyContactParams& p = session.settings().bodyContacts;
    slider("thickness", p.thickness, 0.0f, 0.02f, "%.4f m", "Gap kept between a vertex and another body's surface [m].");
    slider("search radius", p.searchRadius, 0.001f, 0.1f, "%.3f m",
           "A vertex gets a contact when its predicted position is this close to another body's surface; it must "
           "exceed how far a vertex moves in one substep [m].");
    if (p.thickness >= p.searchRadius) p.thickness = 0.5f * p.searchRadius;  // a contact only exists within the radius
    slider("body friction", p.friction, 0.0f, 2.0f, "%.2f", "Coulomb coefficient mu between bodies [-].");
    ImGui::Checkbox("self collision", &p.selfCollision);
    itemTooltip("Also vertices against far-away triangles of their own body (a long body folding onto itself) [-].");
    ImGui::TreePop();
  }
}

void drawMaterials(SimSession& session) {
  const BuiltScene& built = session.built();
  for (uint32_t b = 0; b < built.bodies.size(); ++b) {
    ImGui::PushID(int(b));
    Material m = session.material(b);
    const BodyRange& body = built.bodies[b];
    const bool cloth = session.model().isCloth(b), strand = session.model().isStrand(b);
    ImGui::SetNextItemOpen(b == 0, ImGuiCond_Once);
    const bool open = cloth    ? ImGui::TreeNode("body", "%s  (cloth: %u vertices)", body.name.c_str(),
                                                 body.vertexEnd - body.vertexBegin)
                      : strand ? ImGui::TreeNode("body", "%s  (strands: %u points)", body.name.c_str(),
                                                 body.vertexEnd - body.vertexBegin)
                               : ImGui::TreeNode("body", "%s  (%u vertices, %u tets)", body.name.c_str(),
                                                 body.vertexEnd - body.vertexBegin, body.tets);
    if (open) {
      bool changed = false;
      changed |= logSlider("Young's modulus", m.youngsModulus, 1e3f, 1e10f, "%.3g Pa",
                           cloth ? "Stiffness E of the sheet's material under stretch [Pa]; the membrane resists "
                                   "stretch with E h [N/m] (edge springs, Poisson ratio 1/3 fixed)."
                                 : "Stiffness E of the material under stretch [Pa].");
      if (cloth) {
        changed |= logSlider("thickness", m.thickness, 1e-5f, 1e-2f, "%.2g m",
                             "Sheet thickness h [m]: the mass per area is density x h, the membrane stiffness E h.");
        bool plate = m.bendingStiffness < 0.0f;
        if (ImGui::Checkbox("plate bending", &plate)) {
          m.bendingStiffness = plate ? -1.0f : clothBendingStiffness(m);
          changed = true;
        }
        itemTooltip("On: the bending stiffness of a plate of this material, D = E h^3 / (12 (1 - nu^2)) with "
                    "nu = 0.3. Off: set D directly (woven fabrics bend far more easily than a plate of their "
                    "membrane stiffness: cotton is about 1e-6 to 1e-5 N m).");
        if (plate) {
          ImGui::SameLine();
          ImGui::TextDisabled("D = %.3g N m", double(clothBendingStiffness(m)));
        } else {
          changed |= logSlider("bending D", m.bendingStiffness, 1e-9f, 1e-1f, "%.3g N m",
                               "Bending stiffness D [N m] of the sheet's hinges (isometric quadratic bending, "
                               "Bergou et al. 2006): the energy of a bent sheet is D/2 curvature^2 per area.");
        }
      } else if (strand) {
        changed |= logSlider("diameter", m.thickness, 1e-5f, 5e-2f, "%.2g m",
                             "Strand diameter d [m]: mass rho pi d^2 / 4 per length, axial stiffness E pi d^2 / 4.");
        bool rod = m.bendingStiffness < 0.0f;
        if (ImGui::Checkbox("round-rod bending", &rod)) {
          m.bendingStiffness = rod ? -1.0f : strandBendingStiffness(m);
          changed = true;
        }
        itemTooltip("On: the bending stiffness of a round rod of this material, E I = E pi d^4 / 64. Off: set E I "
                    "directly (hair is a few 1e-12 N m^2 per strand; the preset's thick strands more).");
        if (rod) {
          ImGui::SameLine();
          ImGui::TextDisabled("E I = %.3g N m^2", double(strandBendingStiffness(m)));
        } else {
          changed |= logSlider("bending E I", m.bendingStiffness, 1e-12f, 1e-1f, "%.3g N m^2",
                               "Bending stiffness E I [N m^2] of every interior strand point: E I / 2 curvature^2 "
                               "per length.");
        }
      } else
        changed |= slider("Poisson ratio", m.poissonRatio, 0.0f, 0.499f, "%.3f",
                          "Lateral contraction nu under stretch; near 0.5 keeps the volume [-].");
      changed |= slider("damping", m.damping, 0.0f, 0.1f, "%.4f s",
                        "Rayleigh stiffness-proportional damping coefficient k_d [s]: a mode of angular frequency "
                        "omega gets the damping ratio k_d omega / 2, on every solver (one pass after each frame); "
                        "the static shape does not change.");
      changed |= logSlider("density", m.density, 10.0f, 20000.0f, "%.0f kg/m^3",
                           "Mass per volume; the lumped vertex masses follow (density regions keep their ratio) [kg/m^3].");
      if (changed) session.setMaterial(b, m);
      ImGui::TextColored(kDimColor, "%s", body.note.c_str());
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
}

void drawWind(SimSession& session) {
  WindSettings& w = session.settings().wind;
  ImGui::Checkbox("wind", &w.enabled);
  itemTooltip("Aerodynamic drag and lift on every cloth triangle (NvCloth's model) and a cylinder's cross-flow "
              "drag on every strand segment, each substep, all solvers [-].");
  if (!session.model().hasCloth() && !session.model().hasStrands()) {
    ImGui::SameLine();
    ImGui::TextColored(kDimColor, "(acts on cloth and strands; this scene has neither)");
  }
  ImGui::DragFloat3("velocity", &w.velocity.x, 0.05f, -50.0f, 50.0f, "%.2f");
  itemTooltip("Mean wind velocity x y z [m/s]; 8 m/s is a gust.");
  slider("air density", w.fluidDensity, 0.0f, 5.0f, "%.3f kg/m^3", "Fluid density rho; air is 1.225 [kg/m^3].");
  slider("drag", w.drag, 0.0f, 2.0f, "%.2f", "Drag coefficient C_d: force 1/2 rho C_d A |cos| s^2 along the flow [-].");
  slider("lift", w.lift, 0.0f, 2.0f, "%.2f", "Lift coefficient C_l: force 1/2 rho C_l A cos sin s^2 across the flow [-].");
  slider("gusts", w.gust, 0.0f, 1.0f, "%.2f", "Gust amplitude: the wind is velocity (1 + gusts n(t)), n a smooth noise in [-1, 1] [-].");
  slider("gust period", w.gustPeriod, 0.05f, 10.0f, "%.2f s", "Time between the gust noise's knots [s].");
}

// "carries N pins" under a collider that pin regions follow (core/sim/pin_followers.h).
void showFollowers(const SimSession& session, ColliderList list, size_t index) {
  size_t pins = 0;
  for (const PinFollower& f : session.built().scene.followers)
    if (f.collider.list == list && f.collider.index == index) pins += f.vertices.size();
  if (pins == 0) return;
  ImGui::TextColored(kDimColor, "carries %zu pins: they move with it", pins);
  itemTooltip("A pin region of the scene follows this collider: drag it (ctrl-drag in the view) or edit it and "
              "the pins keep their place in its frame. Removing it leaves them where they are.");
}

void drawSpheres(SimSession& session) {
  SphereSettings& s = session.settings().spheres;
  ImGui::PushTextWrapPos(0.0f);
  if (!session.model().hasCloth() && !session.model().hasStrands())
    ImGui::TextColored(kDimColor, "(act on cloth and strands; this scene has neither)");
  ImGui::Checkbox("motion spheres", &s.motion);
  itemTooltip("NvCloth's motion constraints: each sheet or strand particle stays within a sphere around its rest "
              "place, carried by the collider its body's pins follow (else fixed in the world).");
  slider("motion scale", s.motionScale, 0.0f, 2.0f, "%.2f",
         "Radius = scale x the particle's rest distance to its nearest pin + bias: far from the pins, more room [-].");
  slider("motion bias", s.motionBias, -0.2f, 1.0f, "%.3f m", "Added to every motion radius [m].");
  ImGui::Checkbox("separation spheres", &s.separation);
  itemTooltip("NvCloth's separation constraints: each particle stays outside a sphere tangent to its rest place on "
              "the side of the collider its body's pins follow, so it cannot sink into the body it wraps.");
  slider("separation radius", s.separationRadius, 0.005f, 1.0f, "%.3f m", "Radius of every separation sphere [m].");
  slider("sphere stiffness", s.stiffness, 0.0f, 1.0f, "%.2f",
         "Fraction of a violation removed per 1/60 s (1: hard), the same for any substep count [-].");
  if (session.settings().spheres.any() && session.built().scene.followers.empty())
    ImGui::TextColored(kDimColor, "no pins follow a collider here: motion spheres stay at the rest places, and "
                                  "there are no separation spheres");
  ImGui::PopTextWrapPos();
}

std::optional<std::string> drawColliders(SimSession& session, char* meshPath, size_t meshPathSize) {
  Colliders& c = session.settings().colliders;
  ImGui::Checkbox("ground", &c.ground.enabled);
  itemTooltip("The plane y = height that bodies rest on [-].");
  if (c.ground.enabled) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::DragFloat("height", &c.ground.height, 0.005f, -5.0f, 5.0f, "%.3f m");
    itemTooltip("Height of the ground plane [m].");
    slider("ground friction", c.ground.friction, 0.0f, 2.0f, "%.2f", "Coulomb friction coefficient mu of the ground [-].");
  }
  int remove = -1;
  for (size_t i = 0; i < c.planes.size(); ++i) {
    ImGui::PushID(int(400 + i));
    ImGui::Text("plane %zu", i + 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) remove = int(i);
    showFollowers(session, ColliderList::Planes, i);
    ImGui::DragFloat3("point", &c.planes[i].point.x, 0.005f, -10.0f, 10.0f, "%.3f");
    itemTooltip("Any point on the plane, x y z [m].");
    ImGui::DragFloat3("normal", &c.planes[i].normal.x, 0.01f, -1.0f, 1.0f, "%.3f");
    itemTooltip("Direction of the free side (normalised for the solvers; a zero vector means +y) [-].");
    slider("friction", c.planes[i].friction, 0.0f, 2.0f, "%.2f", "Coulomb friction coefficient mu of the plane [-].");
    ImGui::PopID();
  }
  if (remove >= 0) c.planes.erase(c.planes.begin() + remove);
  remove = -1;
  for (size_t i = 0; i < c.spheres.size(); ++i) {
    ImGui::PushID(int(100 + i));
    ImGui::Text("sphere %zu", i + 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) remove = int(i);
    showFollowers(session, ColliderList::Spheres, i);
    ImGui::DragFloat3("centre", &c.spheres[i].center.x, 0.005f, -10.0f, 10.0f, "%.3f");
    itemTooltip("Sphere centre, x y z [m].");
    ImGui::DragFloat("radius", &c.spheres[i].radius, 0.002f, 0.005f, 5.0f, "%.3f m");
    itemTooltip("Sphere radius [m].");
    ImGui::PopID();
  }
  if (remove >= 0) c.spheres.erase(c.spheres.begin() + remove);
  remove = -1;
  for (size_t i = 0; i < c.boxes.size(); ++i) {
    ImGui::PushID(int(200 + i));
    ImGui::Text("box %zu", i + 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) remove = int(i);
    showFollowers(session, ColliderList::Boxes, i);
    ImGui::DragFloat3("centre", &c.boxes[i].center.x, 0.005f, -10.0f, 10.0f, "%.3f");
    itemTooltip("Box centre, x y z [m].");
    ImGui::DragFloat3("half extents", &c.boxes[i].halfExtents.x, 0.002f, 0.005f, 5.0f, "%.3f");
    itemTooltip("Half the box size along its own axes [m].");
    ImGui::PopID();
  }
  if (remove >= 0) c.boxes.erase(c.boxes.begin() + remove);
  remove = -1;
  for (size_t i = 0; i < c.capsules.size(); ++i) {
    ImGui::PushID(int(300 + i));
    ImGui::Text("capsule %zu", i + 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) remove = int(i);
    showFollowers(session, ColliderList::Capsules, i);
    ImGui::DragFloat3("end a", &c.capsules[i].a.x, 0.005f, -10.0f, 10.0f, "%.3f");
    itemTooltip("First end of the capsule's segment [m].");
    ImGui::DragFloat3("end b", &c.capsules[i].b.x, 0.005f, -10.0f, 10.0f, "%.3f");
    itemTooltip("Second end of the capsule's segment [m].");
    ImGui::DragFloat("radius", &c.capsules[i].radius, 0.002f, 0.005f, 5.0f, "%.3f m");
    itemTooltip("Capsule radius [m].");
    ImGui::PopID();
  }
  if (remove >= 0) c.capsules.erase(c.capsules.begin() + remove);
  remove = -1;
  for (size_t i = 0; i < c.tori.size(); ++i) {
    TorusCollider& t = c.tori[i];
    ImGui::PushID(int(500 + i));
    ImGui::Text("torus %zu", i + 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) remove = int(i);
    showFollowers(session, ColliderList::Tori, i);
    ImGui::DragFloat3("centre", &t.center.x, 0.005f, -10.0f, 10.0f, "%.3f");
    itemTooltip("Torus centre, x y z [m].");
    ImGui::DragFloat("ring radius", &t.majorRadius, 0.002f, 0.01f, 5.0f, "%.3f m");
    itemTooltip("Distance from the axis to the centre of the tube (major radius) [m].");
    ImGui::DragFloat("tube radius", &t.minorRadius, 0.001f, 0.002f, 0.99f * t.majorRadius, "%.3f m");
    itemTooltip("Radius of the tube (minor radius), smaller than the ring radius [m].");
    t.minorRadius = std::min(t.minorRadius, 0.99f * t.majorRadius);
    slider("friction", t.friction, 0.0f, 2.0f, "%.2f", "Coulomb friction coefficient mu of the torus [-].");
    ImGui::PopID();
  }
  if (remove >= 0) c.tori.erase(c.tori.begin() + remove);
  remove = -1;
  for (size_t i = 0; i < c.meshes.size(); ++i) {
    MeshCollider& m = c.meshes[i];
    ImGui::PushID(int(600 + i));
    ImGui::Text("mesh %zu: %s", i + 1, m.mesh.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) remove = int(i);
    showFollowers(session, ColliderList::Meshes, i);
    if (m.grid) {
      ImGui::TextDisabled("signed distance grid %u x %u x %u", m.grid->dims.x, m.grid->dims.y, m.grid->dims.z);
      itemTooltip("Sampled once from the closed mesh (trilinear between nodes, normals from a tetrahedron stencil); "
                  "moving and resizing it needs no resampling.");
    }
    ImGui::DragFloat3("centre", &m.center.x, 0.005f, -10.0f, 10.0f, "%.3f");
    itemTooltip("Where the centre of the mesh's box sits, x y z [m].");
    ImGui::DragFloat("size", &m.size, 0.002f, 0.01f, 10.0f, "%.3f m");
    itemTooltip("Side of the cube the mesh is fitted into [m].");
    slider("friction", m.friction, 0.0f, 2.0f, "%.2f", "Coulomb friction coefficient mu of the mesh [-].");
    ImGui::PopID();
  }
  if (remove >= 0) c.meshes.erase(c.meshes.begin() + remove);
  if (ImGui::SmallButton("+ plane")) {
    const float tilt = 20.0f * 3.14159265f / 180.0f;
    c.planes.push_back(PlaneCollider{{0.0f, 0.05f, 0.0f}, {std::sin(tilt), std::cos(tilt), 0.0f}, 0.5f});
  }
  itemTooltip("Add an infinite plane tilted 20 degrees (a slope the bodies slide down or stick to).");
  ImGui::SameLine();
  if (ImGui::SmallButton("+ sphere")) c.spheres.push_back(SphereCollider{{0.0f, 0.15f, 0.0f}, 0.1f, 0.5f});
  itemTooltip("Add a sphere collider at the origin, 15 cm up.");
  ImGui::SameLine();
  if (ImGui::SmallButton("+ box")) {
    BoxCollider box;
    box.center = {0.0f, 0.1f, 0.0f};
    box.halfExtents = {0.15f, 0.02f, 0.15f};
    box.rotation = rotationFromDegrees({0.0f, 0.0f, -15.0f});
    c.boxes.push_back(box);
  }
  itemTooltip("Add a tilted box (a ramp) collider near the origin.");
  if (ImGui::SmallButton("+ capsule"))
    c.capsules.push_back(CapsuleCollider{{-0.2f, 0.1f, 0.0f}, {0.2f, 0.1f, 0.0f}, 0.04f, 0.5f});
  itemTooltip("Add a horizontal capsule collider near the origin.");
  ImGui::SameLine();
  if (ImGui::SmallButton("+ torus")) {
    TorusCollider torus;
    torus.center = {0.0f, 0.15f, 0.0f};
    torus.majorRadius = 0.2f;
    torus.minorRadius = 0.04f;
    c.tori.push_back(torus);
  }
  itemTooltip("Add a flat ring collider (axis up) at the origin, 15 cm up: bodies rest on it or fall through its hole.");
  std::optional<std::string> addMesh;
  ImGui::InputText("##mesh collider", meshPath, meshPathSize);
  itemTooltip("A closed OBJ (a path, or a name in assets/meshes) to add as a collider.");
  ImGui::SameLine();
  if (ImGui::SmallButton("+ mesh") && meshPath[0] != '\0') addMesh = std::string(meshPath);
  itemTooltip("Load the closed OBJ named on the left as a collider resting on the ground at the origin: its signed "
              "distance field is sampled once (about a second for 10k triangles), then it moves and resizes live.");
  return addMesh;
}

void drawMouseSpring(SimSession& session) {
  MouseSpec& m = session.mouse();
  bool automatic = m.stiffness == 0.0f && m.maxForce == 0.0f;
  if (ImGui::Checkbox("automatic", &automatic)) {
    if (automatic) {
      m.stiffness = m.maxForce = 0.0f;  // the break force stays
    } else {
      m.maxForce = session.autoMouseMaxForce();
      m.stiffness = m.maxForce / kAutoMouseCapStretch;
    }
  }
  itemTooltip("Force cap twice the scene's weight, reached at 5 cm of stretch [-].");
  if (automatic) {
    ImGui::TextColored(kDimColor, "cap %.3g N, stiffness %.3g N/m", session.state().mouse.maxForce,
                       session.state().mouse.stiffness);
  } else {
    logSlider("stiffness", m.stiffness, 1.0f, 1e8f, "%.3g N/m", "Spring constant pulling the grabbed point to the cursor [N/m].");
    logSlider("force cap", m.maxForce, 0.01f, 1e6f, "%.3g N", "Largest force the drag can apply, so it never explodes [N].");
  }
  bool breakable = m.breakForce > 0.0f;
  if (ImGui::Checkbox("breakable", &breakable))
    m.breakForce = breakable ? std::max(1e-3f, 0.5f * session.state().mouse.maxForce) : 0.0f;
  itemTooltip("The drag lets go once it pulls harder than its break force; a spring left with H (while dragging) "
              "breaks at the same force.");
  if (breakable) {
    logSlider("break force", m.breakForce, 1e-3f, 1e7f, "%.3g N", "The drag lets go past this force [N].");
    if (m.breakForce >= session.state().mouse.maxForce)
      ImGui::TextColored(kWarnColor, "at or over the %.3g N force cap: the drag never breaks (a hook still can)",
                         double(session.state().mouse.maxForce));
  }
  if (session.dragging())
    ImGui::TextColored(kDimColor, "pulling %.3g N (H: leave a spring here)", double(session.dragForce()));
}

}  // namespace tetlab
