#pragma once
// Keyframed pins (issue 15 item 3): a pin region that follows keys of a
// rigid motion (translation, and rotation in degrees about x, y, z through a
// pivot), linearly or smoothly between keys, may be released at a time, and
// may be toggled between held and free at given times.
// A beam twisted by its end, a slab shaken at its base. The pins stay
// kinematic (w = 0): the session moves them to the pose of the frame's end
// before each frame (Simulator::moveKinematic), the same path pins riding on
// a collider take (pin_followers.h), identically on both backends.
//
// Rotations are interpolated as angles, not as quaternions, so a key of 360
// degrees turns the pins a whole turn (a quaternion would see no turn at all).
//
//   world(t) = pivot + R(angles(t)) (rest - pivot) + translate(t)
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace tetlab {

enum class KeyInterpolation : uint8_t { Linear, Smooth };

struct PinKey {
  float time = 0.0f;              // [s]
  glm::vec3 translate{0.0f};      // [m] from the rest place
  glm::vec3 rotateDegrees{0.0f};  // [deg] about x, then y, then z, through the pivot
};

struct PinAnimation {
  std::vector<PinKey> keys;  // by time; before the first key its pose, after the last the last's
  KeyInterpolation interpolation = KeyInterpolation::Linear;  // Smooth: smoothstep between keys (no jerk at a key)
  bool pivotSet = false;     // false: the centre of the region
  glm::vec3 pivot{0.0f};     // [m]
  float releaseAt = -1.0f;   // the pins are let go for good at this time [s]; < 0: never
  // Times the pins flip between held and free, starting held (ascending) [s].
  // Held again, they hold the vertices where they are and follow the keys'
  // motion from there (no jump back to the keyed pose).
  std::vector<float> toggleAt;
  bool active() const { return !keys.empty() || releaseAt >= 0.0f || !toggleAt.empty(); }
  // Held at time t: an even number of toggles up to t, and not released.
  bool heldAt(double time) const;
};

// The pose at time t (translation and angles; identity without keys).
PinKey poseAt(const PinAnimation& animation, double time);

// A region's pinned vertices and where they rest, with the animation they follow.
struct AnimatedPins {
  uint32_t body = 0, region = 0;     // which BodySpec::pins entry (saving writes the keys back)
  std::vector<uint32_t> vertices;    // model vertex ids, pinned
  std::vector<glm::vec3> rest;       // their rest positions [m]
  glm::vec3 pivot{0.0f};             // the animation's pivot, or the region's centre
  PinAnimation animation;
  // A compliant region (PinRegion::stiffness): its anchor spring (State::springs
  // index), whose anchors follow the keys; the vertices keep their mass. -1: hard pins.
  int32_t spring = -1;
};

// World positions of the pins at time t.
void animatedTargets(const AnimatedPins& pins, double time, std::vector<glm::vec3>& out);

}  // namespace tetlab
