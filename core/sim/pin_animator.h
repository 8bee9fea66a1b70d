#pragma once
// Drives keyed pins (pin_animation.h) on any Simulator, for the window's
// session and `tetlab run` alike: before each frame, the pins to the pose of
// the frame's end (Simulator::moveKinematic, the path of collider-riding pins),
// and the regions let go or held again by their schedule handed back to the
// caller, who applies them to its own state copies.
#include <cstdint>
#include <span>
#include <vector>

#include "core/model/sim_model.h"
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

// A keyed region that is let go (hold = false: its vertices get their mass
// back) or held again (hold = true: pinned where they are) before a frame.
struct PinChange {
  size_t region = 0;
  bool hold = false;
};

class PinAnimator {
 public:
  // The regions (indices into `pins`) whose held/free state (PinAnimation::
  // heldAt) changes by the frame that ends at `time`; each change once.
  std::vector<PinChange> dueChanges(std::span<const AnimatedPins> pins, double time);
  // Applies changes to `state` (the caller's host copy; it writes the state to
  // its simulator): let-go vertices get their mass back; held-again ones are
  // pinned where they are and keep their distance to the keyed pose from now on.
  void apply(std::span<const PinChange> changes, std::span<const AnimatedPins> pins, const SimModel& model,
             State& state, double time);
  // Every held keyed region to its pose at `time` (plus its offsets, after a
  // re-hold): writes the pins' x in `state` (the host copy) and moves them on
  // `sim`. A vertex the user unpinned (w > 0) is left alone.
  Status move(std::span<const AnimatedPins> pins, double time, State& state, Simulator& sim);
  void reset() {
    free_.clear();
    offsets_.clear();
  }
  // Is region k free now (let go or toggled off)?
  bool released(size_t region) const { return region < free_.size() && free_[region]; }

 private:
  std::vector<uint8_t> free_;
  std::vector<std::vector<glm::vec3>> offsets_;  // per region, per pin: held-again position - keyed pose
  std::vector<glm::vec3> targets_, positions_;
  std::vector<uint32_t> ids_;
};

}  // namespace tetlab
