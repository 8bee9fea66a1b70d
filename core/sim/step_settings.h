#pragma once
// Settings shared by all four solvers. Plain struct with documented defaults
// and units; the UI and scene files read and write it, and every edit takes
// effect at the next substep.
#include <cstdint>

#include <glm/vec3.hpp>

#include "core/model/spring_choice.h"

namespace tetlab {

enum class SolverKind : uint8_t { Pbd, Xpbd, Vbd, Avbd };

// Which constraint/energy families are active (each solver uses those it fits).
struct ConstraintToggles {
  bool edges = false;        // edge distance (PBD/XPBD) / mass-spring energy (VBD/AVBD)
  bool tetVolume = false;    // tet volume constraint
  bool strainBased = false;  // strain-based dynamics (Mueller 2014) stretch + shear
  bool neoHookean = true;    // stable Neo-Hookean (XPBD: deviatoric + hydrostatic; VBD: energy)
  bool tethers = false;      // long-range attachments to pinned vertices
  bool collisions = true;    // ground + analytic colliders
  bool bodyContacts = true;  // body vs body surface contacts (core/sim/body_contacts.h)
  bool bending = true;       // cloth bending hinges (core/model/cloth_bending.h); sheets only
  bool membrane = true;      // cloth stretch: St. Venant-Kirchhoff triangles (core/model/cloth_membrane.h); off: edge springs
};

// The edge springs these toggles ask for (core/model/spring_choice.h).
inline SpringChoice springChoice(const ConstraintToggles& on) { return {on.edges, on.membrane}; }

// The Rayleigh material damping pass (core/sim/rayleigh_damping.h): conjugate
// gradients on (M + dt k_d K) v' = M v once per frame.
struct RayleighDampingSettings {
  int maxIterations = 100;    // CG iterations per frame at most [-]
  float tolerance = 1.0e-3f;  // stop when the preconditioned residual falls below this fraction of its start
};

// How the OpenCL backend schedules a VBD step (gpu/solvers/vbd_schedule.h):
// one launch per colour, or the whole step in one work-group. Either gives the
// same positions; Auto picks the faster one for the model and device. The CPU
// reference ignores it.
enum class GpuSchedule : uint8_t { Auto, PerColor, OneGroup };

struct StepSettings {
  float dt = 1.0f / 60.0f;               // frame time step [s]
  int substeps = 10;                     // substeps per step [-]
  int iterations = 4;                    // solver iterations per substep [-]
  glm::vec3 gravity{0.0f, -9.81f, 0.0f}; // [m/s^2]
  float velocityDamping = 0.0f;          // linear drag rate [1/s]: v *= exp(-rate h)
  ConstraintToggles constraints;
  RayleighDampingSettings rayleigh;
  GpuSchedule gpuSchedule = GpuSchedule::Auto;  // OpenCL VBD launch schedule
};

}  // namespace tetlab
