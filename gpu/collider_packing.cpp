#include "gpu/collider_packing.h"

#include <cstring>

namespace tetlab {

void packColliders(const Colliders& c, std::vector<glm::vec4>& out, glm::uvec4& outCounts) {
  out.clear();
  for (const SphereCollider& s : c.spheres) {
    out.emplace_back(s.center, s.radius);
    out.emplace_back(s.friction, 0.0f, 0.0f, 0.0f);
  }
  for (const BoxCollider& b : c.boxes) {
    out.emplace_back(b.center, b.friction);
    out.emplace_back(b.halfExtents, 0.0f);
    for (int k = 0; k < 3; ++k) out.emplace_back(b.rotation[k], 0.0f);
  }
  for (const CapsuleCollider& s : c.capsules) {
    out.emplace_back(s.a, s.radius);
    out.emplace_back(s.b, s.friction);
  }
  outCounts = glm::uvec4(uint32_t(c.spheres.size()), uint32_t(c.boxes.size()), uint32_t(c.capsules.size()), 0u);
}

bool bitwiseEqual(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)) == 0);
}

}  // namespace tetlab
