#include "core/sim/held_bodies.h"

#include "core/model/sim_model.h"

namespace tetlab {

void markHeldVertices(const SimModel& model, std::span<const glm::vec4> x, std::vector<uint8_t>& held) {
  const uint32_t n = model.vertexCount();
  std::vector<uint8_t> heldBody(model.materials.size(), 0);
  for (uint32_t i = 0; i < n && i < x.size(); ++i)
    if (x[i].w == 0.0f) heldBody[model.vertexBody[i]] = 1;
  held.resize(n);
  for (uint32_t i = 0; i < n; ++i) held[i] = heldBody[model.vertexBody[i]];
}

}  // namespace tetlab
