#pragma once
// CPU reference Augmented Vertex Block Descent solver (Giles et al. 2025): VBD's
// primal step plus augmented-Lagrangian hard constraints (pins, contacts with
// friction, the mouse attachment, stiff edges). Stats: vbdStatsOf() in vbd_solver.h.
#include <memory>

#include "core/sim/solver.h"

namespace tetlab {

std::unique_ptr<Solver> makeAvbdSolver();

}  // namespace tetlab
