#pragma once
// ImGui sections that edit the running simulation: run controls, solver and
// backend, step settings, each solver's parameters, constraint toggles,
// materials per body, colliders and the mouse spring. They edit the session's
// plain settings structs in place (read at the next step) and call the
// session for the few edits that need more than a field write (solver switch,
// density, pins); what needs the app (an OpenCL context) comes back as an action.
// Every widget has a tooltip: one sentence and the unit.
#include <optional>
#include <string>

#include "core/session/sim_session.h"

namespace tetlab {

struct SolverPanelInput {
  bool openClAvailable = false;  // a device was found at start-up
  std::string openClDevice;      // its name, for the tooltip
  std::string glInterop;         // how OpenCL results reach GL ("" = CPU embedding), and why
  std::string glInteropWhy;
  bool recording = false;        // steps are fixed per video frame: say so next to the run controls
};

struct SolverPanelActions {
  std::optional<Backend> backend;  // switch asked
  bool reset = false;
  bool restore = false;
  bool fitView = false;
};

// Pause / step / reset / slow motion and the blow-up banner.
SolverPanelActions drawRunControls(SimSession& session, const SolverPanelInput& input);
// Solver (keys 1-4), backend, dt, substeps, iterations, gravity, damping.
SolverPanelActions drawSolverControls(SimSession& session, const SolverPanelInput& input);
// The active solver's own parameters (all four are kept), with the VBD/AVBD safeguard counters.
void drawSolverParameters(SimSession& session);
// Which constraint/energy families are on.
void drawConstraintToggles(SimSession& session);
// Young's modulus, Poisson ratio, density, damping per body.
void drawMaterials(SimSession& session);
// Ground, spheres, boxes and capsules: position, size, friction; add / remove.
// Returns the path typed when "+ mesh" was pressed (the app loads it: App::addMeshCollider).
std::optional<std::string> drawColliders(SimSession& session, char* meshPath, size_t meshPathSize);
// Wind on cloth sheets (core/sim/wind.h): velocity, air, drag and lift, gusts.
void drawWind(SimSession& session);
void drawSpheres(SimSession& session);
// The drag spring's stiffness and force cap.
void drawMouseSpring(SimSession& session);

// Small shared helper: a tooltip on the last item.
void itemTooltip(const char* text);

}  // namespace tetlab
