#include "core/sim/held_bodies.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "core/model/sim_model.h"

namespace tetlab {

// A body is held when its pins fix it: three or more pins not on one line. A
// single pin or a line of pins (a hinge) leaves it free to swing, and a stiff
// body swinging about its pins needs the fall in its guess as much as a free
// one: from an inertia start a 0.4 m bar of E = 1e9 hinged along one edge did
// not move at all in 0.67 s, at 10 x 4 or at 60 x 40, where it swings through
// 70 degrees (held_body_guess_test.cpp).
void markHeldVertices(const SimModel& model, std::span<const glm::vec4> x, std::vector<uint8_t>& held) {
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
  for (uint32_t i = 0; i < n; ++i) {  // the pin farthest from it: the line's direction
    if (!pinned(i)) continue;
    const uint32_t b = model.vertexBody[i];
    const float d = glm::length(p(i) - p(first[b]));
    if (d > farDistance[b]) farDistance[b] = d, far[b] = i;
  }
  for (uint32_t i = 0; i < n; ++i) {  // a pin off that line (beyond rounding of its length) holds the body
    const uint32_t b = model.vertexBody[i];
    if (!pinned(i) || heldBody[b] || far[b] == kNone) continue;
    const glm::vec3 a = p(first[b]), axis = (p(far[b]) - a) / farDistance[b];
    if (glm::length(glm::cross(p(i) - a, axis)) > 1e-3f * farDistance[b]) heldBody[b] = 1;
  }
  held.assign(model.vertexCount(), 0);
  for (uint32_t i = 0; i < n; ++i) held[i] = heldBody[model.vertexBody[i]];
}

}  // namespace tetlab
