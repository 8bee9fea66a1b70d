#pragma once
// CPU reference Position Based Dynamics (Mueller et al. 2007), Gauss-Seidel
// over element colours or averaged Jacobi (PbdParams::scheme). Stiffness from
// the material through the mapping in pbd_params.h.
#include <memory>

#include "core/sim/solver.h"

namespace tetlab {

std::unique_ptr<Solver> makePbdSolver();

}  // namespace tetlab
