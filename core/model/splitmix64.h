#pragma once
// SplitMix64 (Steele, Lea, Flood 2014): a fixed, portable generator, so a
// scene and its seed give the same numbers on every platform and compiler
// (std::uniform_real_distribution is implementation-defined).
#include <cstdint>

namespace tetlab {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [-1, 1].
  float symmetric() { return float(double(next() >> 11) * (2.0 / 9007199254740992.0) - 1.0); }

 private:
  uint64_t state_;
};

}  // namespace tetlab
