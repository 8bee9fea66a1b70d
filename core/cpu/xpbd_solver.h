#pragma once
// CPU reference Extended Position Based Dynamics (Macklin et al. 2016) with
// per-constraint multipliers in State::lambda (layout: lambdaLayout() in
// constraints_projection.h), reset at the start of every substep.
#include <memory>
#include <string>

#include "core/sim/solver.h"

namespace tetlab {

struct SolverSettings;

std::unique_ptr<Solver> makeXpbdSolver();

// XPBD's Neo-Hookean deviatoric constraint C_D = |F| is not zero at rest, and
// XPBD's Gauss-Newton step omits its geometric stiffness C_D d2C_D/dx2, so the
// shear response is integrated explicitly: stable only while a shear wave does
// not cross an element in one substep,
//   h_max = kXpbdShearLimitFactor * min_t a_t / c_s,   c_s = sqrt(mu / rho),
// with a_t the smallest altitude of tet t (3 V / largest face area: the
// thinnest direction of the element, which a per-edge measure misses for
// slivers). Calibrated on the beam preset, undamped, at the preset's 4
// iterations, by the largest total energy over 20,000-frame runs (333 s): at
// E = 1e7 the rule's old factor 1 asked for 30 substeps, at which the bending
// mode grows slowly (49 J -> 168 J), while 35 stays at 49.1 J; at E = 3e7, 51
// grows (+16.7 J in 4000 frames) and 56 and 60 do not. Factor 0.85 asks for 35
// and 60 there (E = 1e8, one iteration, 2 s: unbounded at 82, bounded from 85;
// the factor asks for 109). Test: stiff_fidelity_test, xpbd_beam_energy_gpu_test.
// Returns the smallest h_max over the bodies [s].
inline constexpr float kXpbdShearLimitFactor = 0.85f;
float xpbdShearLimitSubstep(const SimModel& model);

// Largest substep count the automatic raise takes. Positions are float: a
// vertex at rest under gravity is held within one ulp of its equilibrium, and
// the solver's corrections of that ulp show up as a velocity quantum ulp(R)/h
// (R the largest coordinate of the scene). The raise stops where that quantum
// would exceed a tenth of the velocity gravity adds in one frame, g dt / 10:
//   N_cap = floor(g dt^2 / (10 ulp(R))),   at most kXpbdMaxAutoSubsteps.
// (Free motion is exact at any count: common/step_integrate.clh.)
inline constexpr int kXpbdMaxAutoSubsteps = 2000;

// What XPBD runs with: `asked` is the scene's / user's substep count, `used`
// what the solver steps (raised to `needed` when the Neo-Hookean shear limit
// asks for more, capped at `cap`). Only XPBD with Neo-Hookean on is raised;
// the other solvers always run `asked`.
struct XpbdSubstepPlan {
  int asked = 1;
  int used = 1;
  int needed = 0;      // substeps the shear limit asks for (0: no limit applies)
  int cap = kXpbdMaxAutoSubsteps;
  float limit = 0.0f;  // h_max [s] (0: no limit applies)
  bool raised() const { return used > asked; }
  bool capped() const { return needed > cap; }
  std::string notice() const;  // one line for the UI / CLI; empty when nothing was changed
};

// raise = false: report the limit but keep `asked` (an explicit --substeps).
XpbdSubstepPlan planXpbdSubsteps(const SimModel& model, const SolverSettings& settings, bool raise = true);

// Which per-tet elastic model XPBD runs, from the constraint toggles:
//   NeoHookean   the Neo-Hookean pair (Macklin & Mueller 2021): the material's
//                energy at any strain, but its shear is explicit and needs the
//                substeps above (planXpbdSubsteps);
//   StrainBased  strain-based stretch + shear (Mueller et al. 2014) with the
//                volume constraint: zero at rest, no substep limit; stable at
//                any budget (measured: docs/solvers.md, "Known limits"), but with
//                too few iterations the body acts softer than its material,
//                which the force share reports (core/sim/convergence.h);
//   Custom       any other mix of the toggles; None: no per-tet constraint.
enum class XpbdElasticModel { NeoHookean, StrainBased, Custom, None };
struct ConstraintToggles;
XpbdElasticModel xpbdElasticModel(const ConstraintToggles& on);
// Short name for the UI and the CLI ("Neo-Hookean pair", "strain-based + volume", ...).
const char* xpbdElasticModelName(XpbdElasticModel model);
// Sets the toggles of NeoHookean or StrainBased (other toggles kept); no-op otherwise.
void selectXpbdElasticModel(XpbdElasticModel model, ConstraintToggles& on);

}  // namespace tetlab
