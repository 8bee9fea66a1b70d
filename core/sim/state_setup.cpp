#include "core/sim/state_setup.h"

namespace tetlab {

State makeState(const SimModel& model) {
  State state;
  const uint32_t n = model.vertexCount();
  state.x.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    // The builder guarantees mass > 0 (every vertex belongs to a tet).
    state.x[i] = glm::vec4(model.restPositions[i], 1.0f / model.mass[i]);
  }
  state.xPrev = state.x;
  state.xInertial = state.x;
  state.v.assign(n, glm::vec4(0.0f));
  resizeBodyContacts(uint32_t(model.surfaceVertices.size()), n, state.bodyContacts);
  return state;
}

uint32_t pinVertices(const SimModel& model, State& state, const std::function<bool(glm::vec3)>& predicate) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (predicate(model.restPositions[i])) {
      state.x[i].w = 0.0f;
      state.v[i] = glm::vec4(0.0f);
      ++count;
    }
  return count;
}

void pinVertices(State& state, std::span<const uint32_t> vertices) {
  for (uint32_t i : vertices) {
    state.x[i].w = 0.0f;
    state.v[i] = glm::vec4(0.0f);
  }
}

void unpinVertices(const SimModel& model, State& state, std::span<const uint32_t> vertices) {
  for (uint32_t i : vertices) state.x[i].w = 1.0f / model.mass[i];
}

uint32_t pinnedCount(const State& state) {
  uint32_t count = 0;
  for (const glm::vec4& p : state.x) count += p.w == 0.0f ? 1u : 0u;
  return count;
}

}  // namespace tetlab
