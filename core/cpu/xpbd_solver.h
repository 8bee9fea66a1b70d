#pragma once
// CPU reference Extended Position Based Dynamics (Macklin et al. 2016) with
// per-constraint multipliers in State::lambda (layout: lambdaLayout() in
// constraints_projection.h), reset at the start of every substep.
#include <memory>

#include "core/sim/solver.h"

namespace tetlab {

std::unique_ptr<Solver> makeXpbdSolver();

}  // namespace tetlab
