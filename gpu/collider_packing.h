#pragma once
// The analytic colliders as float4 records for the kernels. Both solver
// families read this one layout (pb_projection.clh and vbd_collider_sample,
// in the order of forEachCollider, core/cpu/vbd_colliders.h):
//
//   sphere   (center, radius) (friction, 0, 0, 0)
//   box      (center, friction) (halfExtents, 0) (rotation col 0..2, 0)
//   capsule  (a, radius) (b, friction)
//
// outCounts = (spheres, boxes, capsules, 0). Re-uploads are skipped when the
// packed bits did not change (bitwiseEqual), so dragging nothing costs nothing.
#include <vector>

#include <glm/vec4.hpp>

#include "core/sim/colliders.h"

namespace tetlab {

void packColliders(const Colliders& colliders, std::vector<glm::vec4>& out, glm::uvec4& outCounts);

bool bitwiseEqual(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b);

}  // namespace tetlab
