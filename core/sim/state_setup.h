#pragma once
// Creating a State for a model, and pinning. Pins are not a separate list: a
// pinned (kinematic) vertex is one whose inverse mass x.w is 0, which every
// solver already honours (it is never moved by a constraint), so the GPU
// needs no extra buffer for them.
#include <cstdint>
#include <functional>
#include <span>

#include <glm/vec3.hpp>

#include "core/model/sim_model.h"
#include "core/sim/state.h"

namespace tetlab {

// x = rest positions with w = 1/mass, v = 0, xPrev = xInertial = x.
State makeState(const SimModel& model);

// Pin (w = 0) every vertex whose REST position satisfies the predicate.
// Returns the number of vertices pinned by this call.
uint32_t pinVertices(const SimModel& model, State& state, const std::function<bool(glm::vec3 rest)>& predicate);
void pinVertices(State& state, std::span<const uint32_t> vertices);
// Give vertices back their mass (w = 1/mass).
void unpinVertices(const SimModel& model, State& state, std::span<const uint32_t> vertices);
uint32_t pinnedCount(const State& state);

}  // namespace tetlab
