#pragma once
// What its pins do to a body, for VBD and AVBD's adaptive initial guess
// (shaders/cl/common/vbd_initial_guess.clh says why, with the measurements):
// a body fixed by its pins starts from inertia, since the pins do not take the
// guess's h^2 g and the strain it makes next to them is an energy source when
// the solve is under-converged; a body swinging on one pin or a hinge starts
// from y, since the adaptive weight cannot see a swing's drive. One rule for
// the CPU solvers (every substep) and the OpenCL state upload (whenever the
// host writes the state, which is how pins change).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec4.hpp>

namespace tetlab {

struct SimModel;

// Same values as VBD_PINS_* (vbd_initial_guess.clh).
enum BodyPins : uint8_t {
  kBodyFree = 0,   // no pinned vertex (x.w == 0)
  kBodyHeld = 1,   // fixed by its pins: three or more, not all on one line, or a line of pins
                   // the whole body lies along at rest (a clamped strand: nothing swings about it)
  kBodySwings = 2, // one pin, or pins on one line (a hinge): free to swing about them
};

inline constexpr uint32_t kNoPivot = ~0u;

// held[i] = the BodyPins of vertex i's body; outPivots (when given): for a
// vertex of a swinging body the pin nearest to it at rest (the point it swings
// about: the pin itself, or on a hinge line the pin nearest the vertex's foot
// on it), kNoPivot otherwise.
void markHeldVertices(const SimModel& model, std::span<const glm::vec4> x, std::vector<uint8_t>& held,
                      std::vector<uint32_t>* outPivots = nullptr);

}  // namespace tetlab
