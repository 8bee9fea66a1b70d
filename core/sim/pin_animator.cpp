#include "core/sim/pin_animator.h"

#include "core/sim/state_setup.h"

namespace tetlab {

std::vector<PinChange> PinAnimator::dueChanges(std::span<const AnimatedPins> pins, double time) {
  free_.resize(pins.size(), 0);
  offsets_.resize(pins.size());
  std::vector<PinChange> due;
  for (size_t k = 0; k < pins.size(); ++k) {
    const bool held = pins[k].animation.heldAt(time);
    if (held == !free_[k]) continue;
    free_[k] = held ? 0 : 1;
    due.push_back(PinChange{k, held});
  }
  return due;
}

void PinAnimator::apply(std::span<const PinChange> changes, std::span<const AnimatedPins> pins, const SimModel& model,
                        State& state, double time) {
  offsets_.resize(pins.size());
  for (const PinChange& c : changes) {
    const AnimatedPins& a = pins[c.region];
    const bool compliant = a.spring >= 0 && size_t(a.spring) < state.springs.springs.size();
    if (compliant) {
      // A compliant region goes slack (its vertices always had their mass) or holds again.
      state.springs.springs[size_t(a.spring)].slack = !c.hold;
      refreshSpringStiffness(state.springs, uint32_t(a.spring));
      if (!c.hold) continue;
    } else if (!c.hold) {
      // Let go where they are, with the keyed motion's velocity.
      unpinVertices(model, state, a.vertices);
      continue;
    } else {
      pinVertices(state, a.vertices);
    }
    std::vector<glm::vec3>& offset = offsets_[c.region];
    animatedTargets(a, time, targets_);
    offset.resize(a.vertices.size());
    for (size_t i = 0; i < a.vertices.size(); ++i) offset[i] = glm::vec3(state.x[a.vertices[i]]) - targets_[i];
  }
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
  free_.resize(pins.size(), 0);
  for (size_t k = 0; k < pins.size(); ++k) {
    const AnimatedPins& a = pins[k];
    if (free_[k] || a.animation.keys.empty()) continue;
    animatedTargets(a, time, targets_);
    if (k < offsets_.size() && offsets_[k].size() == targets_.size())
      for (size_t i = 0; i < targets_.size(); ++i) targets_[i] += offsets_[k][i];
    if (a.spring >= 0) {
      // A compliant region: its spring's anchors to the pose (the vertices follow through the spring).
      if (size_t(a.spring) >= state.springs.springs.size()) continue;
      moveSpringAnchors(state.springs, uint32_t(a.spring), targets_);
      if (Status s = sim.moveSpringAnchors(uint32_t(a.spring), targets_); !s) return s;
      continue;
    }
    if (Status s = movePinsTo(a.vertices, targets_, state, sim, ids_, positions_); !s) return s;
  }
  return Ok{};
}

}  // namespace tetlab
