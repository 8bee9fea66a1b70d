#pragma once
// CPU reference Vertex Block Descent solver (Chen et al. 2024): per-vertex 3x3
// Newton steps over vertex colours. Implementation in vbd_solver.cpp; the
// per-vertex force/Hessian assembly is shared with AVBD (vbd_vertex_terms.h).
#include <cstdint>
#include <memory>

#include "core/sim/solver.h"

namespace tetlab {

// Counters the UI shows next to the VBD/AVBD panels (reset every substep).
struct VbdStats {
  uint32_t safeguardTriggers = 0;  // element blocks clamped / vertices skipped by the Hessian safeguard
  uint32_t skippedVertices = 0;    // vertices whose 3x3 system was singular and left unchanged
  uint32_t activeContacts = 0;     // vertices in contact at the last iteration
};

std::unique_ptr<Solver> makeVbdSolver();

// The stats of the last substep of a solver made by makeVbdSolver() or
// makeAvbdSolver(); all zero for any other solver.
VbdStats vbdStatsOf(const Solver& solver);

}  // namespace tetlab
