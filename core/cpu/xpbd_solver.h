#pragma once
// CPU reference Extended Position Based Dynamics (Macklin et al. 2016) with
// per-constraint multipliers in State::lambda (layout: lambdaLayout() in
// constraints_projection.h), reset at the start of every substep.
#include <memory>

#include "core/sim/solver.h"

namespace tetlab {

std::unique_ptr<Solver> makeXpbdSolver();

// XPBD's Neo-Hookean deviatoric constraint C_D = |F| is not zero at rest, and
// XPBD's Gauss-Newton step omits its geometric stiffness C_D d2C_D/dx2, so the
// shear response is integrated explicitly: stable only for a substep below
// about a third of the shear-wave crossing time of the smallest element,
//   h_max = kXpbdShearLimitFactor * min_e L_e / c_s,   c_s = sqrt(mu / rho),
// (measured: the cantilever at 0.65 L/c_s oscillates without bound, at 0.33 it
// converges; see docs/solvers.md). Returns the smallest h_max over the bodies
// [s]. The XPBD solver sets StepDiagnostics::warning when h exceeds it.
inline constexpr float kXpbdShearLimitFactor = 0.3f;
float xpbdShearLimitSubstep(const SimModel& model);

}  // namespace tetlab
