#pragma once
// Bodies fixed by pins: VBD and AVBD start their vertices from inertia under
// the adaptive initial guess, since the pins do not take the guess's h^2 g
// and the strain it makes next to them is an energy source when the solve is
// under-converged (shaders/cl/common/vbd_initial_guess.clh says why, with the
// measurements). One rule for the CPU solvers (every substep) and the OpenCL
// state upload (whenever the host writes the state, which is how pins change).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec4.hpp>

namespace tetlab {

struct SimModel;

// held[i] = 1 when vertex i's body is fixed by its pins (x.w == 0): three or
// more of them, not all on one line; a single pin or a hinge line leaves the
// body free to swing and it keeps the adaptive guess.
void markHeldVertices(const SimModel& model, std::span<const glm::vec4> x, std::vector<uint8_t>& held);

}  // namespace tetlab
