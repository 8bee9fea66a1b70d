#include "core/sim/held_bodies.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "core/model/sim_model.h"

namespace tetlab {

// A body is held when its pins fix it: three or more pins not on one line. A
// single pin or a line of pins (a hinge) leaves it free to swing, and a stiff
// body swinging about its pins needs the fall in its guess: from an inertia
// start a 0.4 m bar of E = 1e9 hinged along one edge did not move at all in
// 0.67 s, at 10 x 4 or at 60 x 40, where it swings through 70 degrees
// (held_body_guess_test.cpp); from the adaptive guess a stiff pendulum's
// period was 1.8x to 6x too long (pendulum_period_test.cpp).
void markHeldVertices(const SimModel& model, std::span<const glm::vec4> x, std::vector<uint8_t>& held,
                      std::vector<uint32_t>* outPivots) {
  const uint32_t n = std::min<uint32_t>(model.vertexCount(), uint32_t(x.size()));
  const size_t bodies = model.materials.size();
  constexpr uint32_t kNone = ~0u;
  std::vector<uint32_t> first(bodies, kNone), far(bodies, kNone);
  std::vector<float> farDistance(bodies, 0.0f);
  std::vector<uint8_t> heldBody(bodies, 0);
  const auto pinned = [&](uint32_t i) { return x[i].w == 0.0f; };
  const auto p = [&](uint32_t i) { return glm::vec3(x[i]); };
  for (uint32_t i = 0; i < n; ++i)  // a pin of each body
    if (pinned(i) && first[model.vertexBody[i]] == kNone) first[model.vertexBody[i]] = i;
  for (size_t b = 0; b < bodies; ++b)
    if (first[b] != kNone) heldBody[b] = kBodySwings;  // until a pin off the line holds it
  for (uint32_t i = 0; i < n; ++i) {  // the pin farthest from it: the line's direction
    if (!pinned(i)) continue;
    const uint32_t b = model.vertexBody[i];
    const float d = glm::length(p(i) - p(first[b]));
    if (d > farDistance[b]) farDistance[b] = d, far[b] = i;
  }
  for (uint32_t i = 0; i < n; ++i) {  // a pin off that line (beyond rounding of its length) holds the body
    const uint32_t b = model.vertexBody[i];
    if (!pinned(i) || heldBody[b] == kBodyHeld || far[b] == kNone) continue;
    const glm::vec3 a = p(first[b]), axis = (p(far[b]) - a) / farDistance[b];
    if (glm::length(glm::cross(p(i) - a, axis)) > 1e-3f * farDistance[b]) heldBody[b] = kBodyHeld;
  }
  // A body lying along its own pin line at rest (a strand clamped by its first
  // two points) has nothing to swing about it: its bending holds it like a
  // clamp. Taking the swing's g there biased the under-converged rest shape
  // (a clamped strand drooped 0.0165 m, above the beam's 0.0156 m bound).
  std::vector<uint8_t> offLine(bodies, 0);
  const bool rest = model.restPositions.size() >= n;
  for (uint32_t i = 0; i < n && rest; ++i) {
    const uint32_t b = model.vertexBody[i];
    if (heldBody[b] != kBodySwings || far[b] == kNone || offLine[b]) continue;
    const glm::vec3 a = model.restPositions[first[b]];
    const glm::vec3 along = model.restPositions[far[b]] - a;
    const float length = glm::length(along);
    if (!(length > 0.0f) || glm::length(glm::cross(model.restPositions[i] - a, along / length)) > 1e-3f * length)
      offLine[b] = 1;
  }
  for (size_t b = 0; b < bodies && rest; ++b)
    if (heldBody[b] == kBodySwings && far[b] != kNone && !offLine[b]) heldBody[b] = kBodyHeld;
  held.assign(model.vertexCount(), 0);
  for (uint32_t i = 0; i < n; ++i) held[i] = heldBody[model.vertexBody[i]];
  if (!outPivots) return;
  outPivots->assign(model.vertexCount(), kNoPivot);
  std::vector<std::vector<uint32_t>> pins(bodies);
  for (uint32_t i = 0; i < n; ++i)
    if (pinned(i) && heldBody[model.vertexBody[i]] == kBodySwings) pins[model.vertexBody[i]].push_back(i);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t b = model.vertexBody[i];
    if (pinned(i) || heldBody[b] != kBodySwings) continue;
    // Nearest at rest, so the choice does not change while the body moves (and the
    // CPU solvers, which ask every substep, agree with the device, told at upload).
    const auto at = [&](uint32_t k) { return rest ? model.restPositions[k] : p(k); };
    float nearest = INFINITY;
    for (uint32_t j : pins[b])
      if (const float d = glm::length(at(i) - at(j)); d < nearest) nearest = d, (*outPivots)[i] = j;
  }
}

}  // namespace tetlab
