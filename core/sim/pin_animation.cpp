#include "core/sim/pin_animation.h"

#include <algorithm>

#include "core/scene/rotation.h"

namespace tetlab {

PinKey poseAt(const PinAnimation& a, double time) {
  if (a.keys.empty()) return PinKey{};
  if (time <= a.keys.front().time) return a.keys.front();
  if (time >= a.keys.back().time) return a.keys.back();
  // The keys around t (the scene reader sorts them by time).
  size_t k = 1;
  while (k < a.keys.size() && a.keys[k].time < time) ++k;
  const PinKey& p = a.keys[k - 1];
  const PinKey& q = a.keys[k];
  const double span = double(q.time) - double(p.time);
  float s = span > 0.0 ? float((time - double(p.time)) / span) : 1.0f;
  if (a.interpolation == KeyInterpolation::Smooth) s = s * s * (3.0f - 2.0f * s);
  PinKey out;
  out.time = float(time);
  out.translate = p.translate + s * (q.translate - p.translate);
  out.rotateDegrees = p.rotateDegrees + s * (q.rotateDegrees - p.rotateDegrees);
  return out;
}

bool PinAnimation::heldAt(double time) const {
  if (releaseAt >= 0.0f && time >= double(releaseAt)) return false;
  size_t toggles = 0;
  for (float t : toggleAt) toggles += time >= double(t) ? 1 : 0;
  return toggles % 2 == 0;
}

void animatedTargets(const AnimatedPins& pins, double time, std::vector<glm::vec3>& out) {
  const PinKey pose = poseAt(pins.animation, time);
  const glm::mat3 r = rotationFromDegrees(pose.rotateDegrees);
  out.resize(pins.rest.size());
  for (size_t i = 0; i < pins.rest.size(); ++i) out[i] = pins.pivot + r * (pins.rest[i] - pins.pivot) + pose.translate;
}

}  // namespace tetlab
