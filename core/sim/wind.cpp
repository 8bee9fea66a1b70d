#include "core/sim/wind.h"

#include "core/model/sim_model.h"

#include <cmath>

namespace tetlab {
namespace {

// Knot value in [-1, 1] from (seed, k): SplitMix64's finaliser, so every
// platform draws the same gusts.
double knot(uint32_t seed, int64_t k) {
  uint64_t z = (uint64_t(seed) << 32) ^ uint64_t(k) ^ 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return double(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

}  // namespace

glm::vec3 windVelocityAt(const WindSettings& wind, double time) {
  if (!(wind.gust != 0.0f) || !(wind.gustPeriod > 0.0f)) return wind.velocity;
  const double s = time / double(wind.gustPeriod);
  const double k = std::floor(s), f = s - k;
  const double blend = 0.5 - 0.5 * std::cos(3.14159265358979323846 * f);
  const double n = knot(wind.seed, int64_t(k)) * (1.0 - blend) + knot(wind.seed, int64_t(k) + 1) * blend;
  return wind.velocity * float(1.0 + double(wind.gust) * n);
}

bool windDoesWork(const WindSettings& wind, const SimModel& model) {
  const bool still = wind.velocity == glm::vec3(0.0f);
  return wind.enabled && !still && (model.hasCloth() || model.hasStrands());
}

}  // namespace tetlab
