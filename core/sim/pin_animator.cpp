#include "core/sim/pin_animator.h"

namespace tetlab {

std::vector<size_t> PinAnimator::dueReleases(std::span<const AnimatedPins> pins, double time) {
  released_.resize(pins.size(), 0);
  std::vector<size_t> due;
  for (size_t k = 0; k < pins.size(); ++k) {
    const float at = pins[k].animation.releaseAt;
    if (released_[k] || at < 0.0f || time < double(at)) continue;
    released_[k] = 1;
    due.push_back(k);
  }
  return due;
}

Status movePinsTo(std::span<const uint32_t> vertices, std::span<const glm::vec3> targets, State& state, Simulator& sim,
                  std::vector<uint32_t>& ids, std::vector<glm::vec3>& positions) {
  ids.clear();
  positions.clear();
  for (size_t i = 0; i < vertices.size() && i < targets.size(); ++i) {
    const uint32_t v = vertices[i];
    if (v >= state.x.size() || state.x[v].w != 0.0f || glm::vec3(state.x[v]) == targets[i]) continue;
    state.x[v] = glm::vec4(targets[i], 0.0f);
    ids.push_back(v);
    positions.push_back(targets[i]);
  }
  if (ids.empty()) return Ok{};
  return sim.moveKinematic(ids, positions);
}

Status PinAnimator::move(std::span<const AnimatedPins> pins, double time, State& state, Simulator& sim) {
  released_.resize(pins.size(), 0);
  for (size_t k = 0; k < pins.size(); ++k) {
    const AnimatedPins& a = pins[k];
    if (released_[k] || a.animation.keys.empty()) continue;
    animatedTargets(a, time, targets_);
    if (Status s = movePinsTo(a.vertices, targets_, state, sim, ids_, positions_); !s) return s;
  }
  return Ok{};
}

}  // namespace tetlab
