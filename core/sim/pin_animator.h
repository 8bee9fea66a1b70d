#pragma once
// Drives keyed pins (pin_animation.h) on any Simulator, for the window's
// session and `tetlab run` alike: before each frame, the pins to the pose of
// the frame's end (Simulator::moveKinematic, the path of collider-riding pins),
// and the regions whose release time has come handed back to the caller, who
// gives their vertices their mass back in its own state copies.
#include <cstdint>
#include <span>
#include <vector>

#include "core/result.h"
#include "core/sim/pin_animation.h"
#include "core/sim/simulator.h"
#include "core/sim/state.h"

namespace tetlab {

// Moves pinned vertices to `targets` (world) on `sim` and in `state`: a vertex
// the user let go (w > 0) is left alone, one already there needs no write (the
// host copy of a pin is exact: only this moves it). The scratch vectors keep
// their capacity between frames. Pins riding on a collider and keyed pins both
// move through here.
Status movePinsTo(std::span<const uint32_t> vertices, std::span<const glm::vec3> targets, State& state, Simulator& sim,
                  std::vector<uint32_t>& idsScratch, std::vector<glm::vec3>& positionsScratch);

class PinAnimator {
 public:
  // The regions (indices into `pins`) to let go before the frame that ends at
  // `time`; each is reported once until reset().
  std::vector<size_t> dueReleases(std::span<const AnimatedPins> pins, double time);
  // Every keyed region not let go to its pose at `time`: writes the pins' x in
  // `state` (the host copy) and moves them on `sim`. A vertex the user unpinned
  // (w > 0) is left alone.
  Status move(std::span<const AnimatedPins> pins, double time, State& state, Simulator& sim);
  void reset() { released_.clear(); }
  bool released(size_t region) const { return region < released_.size() && released_[region]; }

 private:
  std::vector<uint8_t> released_;
  std::vector<glm::vec3> targets_, positions_;
  std::vector<uint32_t> ids_;
};

}  // namespace tetlab
