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

Status PinAnimator::move(std::span<const AnimatedPins> pins, double time, State& state, Simulator& sim) {
  released_.resize(pins.size(), 0);
  for (size_t k = 0; k < pins.size(); ++k) {
    const AnimatedPins& a = pins[k];
    if (released_[k] || a.animation.keys.empty()) continue;
    animatedTargets(a, time, targets_);
    ids_.clear();
    positions_.clear();
    for (size_t i = 0; i < a.vertices.size(); ++i) {
      const uint32_t v = a.vertices[i];
      if (v >= state.x.size() || state.x[v].w != 0.0f || glm::vec3(state.x[v]) == targets_[i]) continue;
      state.x[v] = glm::vec4(targets_[i], 0.0f);
      ids_.push_back(v);
      positions_.push_back(targets_[i]);
    }
    if (ids_.empty()) continue;
    if (Status s = sim.moveKinematic(ids_, positions_); !s) return s;
  }
  return Ok{};
}

}  // namespace tetlab
