#pragma once
// One error measure for every solver (DESIGN.md "One error measure"; issue
// 41 item 1). PBD, XPBD, VBD and AVBD all approximate the same backward-Euler
// step of the body's material: x minimises
//
//   G(x) = sum_i m_i / (2 h^2) |x_i - y_i|^2 + U(x),   y = x^t + h v^t + h^2 g
//
// (VBD Eq. 2; XPBD's converged step is its stationarity condition, Macklin
// et al. 2016 Eq. 8-9). Its residual at the solver's end state, per free
// vertex, is r_i = -dG/dx_i, with U the material's own energy whatever the
// solver ran: the stable Neo-Hookean tets of (E, nu) (to which PBD/XPBD's
// strain-based set and VBD's energy agree at small strain), the sheet's
// membrane and hinges, springs, anchor springs and the mouse. In length units
// through the step's own stiffness: one Newton step from the end state,
//
//   H d = r,   H = M / h^2 + K(x)   (K: tets, springs, membranes; hinges,
//                                     anchor springs and the mouse by their
//                                     per-vertex blocks)
//
// is, to first order, the displacement to the step's answer, and
//
//   error  sqrt(sum_i m_i |d_i|^2 / sum_i m_i)   [m]
//
// is its mass-weighted RMS. The solve is global (CG, newtonStep in the .cpp)
// because the per-vertex block H_ii hides exactly the error Gauss-Seidel
// leaves: a stiff beam one VBD iteration per substep away from its step has
// local imbalances of 1e-8 m and a global one of 1e-5 m. The inertia alone
// (h^2 r_i / m_i) over-states a stiff sheet's error by its h^2 k / m.
//
//   scale  the same mean of sqrt(|x_i - y_i|^2 + (h^2 |g|)^2): what the
//          step's forces move x, the material's, springs' and mouse's
//          (x - y) and gravity's  [m]. error / scale is the share of the
//          step's force left unbalanced: an oscillation's turning points,
//          where x - x^t vanishes, and a swing through its rest shape,
//          where x - y does, keep a scale (gravity's)
//   floor  the same mean of H^-1 of the change one ulp of every
//          coordinate makes to r: the float32 floor of this model at
//          this state (stiff bodies have a high one; fixed signs per
//          coordinate)
//
// Measured: free vertices (w > 0) not touching a collider or another body
// (contacts are inequalities, not energy terms: their force has no part in
// dG). Computed from the host state after the frame's last substep; not taken
// on a model without the vertex-to-element lists (a hand-built test model).
#include <vector>

#include "core/cpu/vbd_terms.h"
#include "core/model/sim_model.h"
#include "core/sim/collider_records.h"
#include "core/sim/diagnostics.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"

namespace tetlab {

// Buffers of one measurement, refreshed only when the model or materials change.
struct StepErrorScratch {
  VbdMaterialCache materials;
  ColliderRecords colliders;
  std::vector<glm::vec4> unitBodies;  // materials.bodies with k = 1: K itself
  std::vector<glm::vec3> d;           // per vertex: r_i at x (NaN: not measured)
  std::vector<glm::vec4> b, db, step;  // r, its one-ulp change, and H^-1 of either
  std::vector<clm::Sym3> outside;      // per vertex: the Hessian block of hinges, anchor springs, mouse
  std::vector<glm::vec4> r, p, q, corner;  // the CG's vectors
};

// The Newton solve: stops at this relative (M/h^2-preconditioned) residual
// or after this many iterations, whichever first. A 5 % verdict needs the
// error to about 10 %; CG's iterate under-states it by less than the residual.
inline constexpr int kStepErrorCgIterations = 60;
inline constexpr double kStepErrorCgTolerance = 0.03;

// Fills out.stepError from the state just after a substep of length h
// (x the end state, xInertial its y, xPrev its x^t). state.x is perturbed by
// one ulp for the floor and restored bit for bit.
void measureStepError(const SimModel& model, const SolverSettings& settings, float h, State& state,
                      StepDiagnostics& out);

// The same measure for a frame whose end state was read back from a device
// (OpenCL: x, x^t and y of the last substep, h = dt / settings' substeps,
// which the caller has raised as the device ran them). Not taken on a frame
// with body contacts (out.bodyContacts > 0): the host copy does not hold
// which vertices touch.
void measureReadBackStepError(const SimModel& model, const SolverSettings& settings, State& state,
                              StepDiagnostics& out);

}  // namespace tetlab
