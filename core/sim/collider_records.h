#pragma once
// The analytic colliders packed once into the record list both backends read
// (layout: shaders/cl/common/colliders.clh), and the CPU walk over it.
//
//   Colliders (UI, scene files) --packColliders--> ColliderRecords --upload--> kernels
//                                                        └--forEachCollider--> CPU reference, picking, views
//
// Ids: the record index. 0 is the ground (a disabled slot when it is off), then
// planes, spheres, boxes, capsules, tori, meshes in their list order. A mesh
// collider without a sampled grid keeps its slot, disabled.
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/sim/colliders.h"
#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/colliders.clh"

namespace tetlab {

// `data` holds count() records of TL_COLLIDER_STRIDE float4, then the payload
// of the colliders that carry data (a mesh collider's SDF grid, 4 samples per
// float4), which their records address by float index into `data`.
struct ColliderRecords {
  std::vector<glm::vec4> data;
  uint32_t records = 0;
  uint32_t count() const { return records; }
};

// Refills `out` (its capacity is kept, so repacking every substep allocates nothing).
void packColliders(const Colliders& colliders, ColliderRecords& out);
ColliderRecords packColliders(const Colliders& colliders);

// How many records packColliders makes (the ground slot included).
inline uint32_t colliderRecordCount(const Colliders& c) {
  return uint32_t(1 + c.planes.size() + c.spheres.size() + c.boxes.size() + c.capsules.size() + c.tori.size() +
                  c.meshes.size());
}

// Floats of payload a record may address: its offset is carried in a float,
// exact up to 2^24 (a mesh collider past it keeps its slot, disabled).
inline constexpr uint32_t kColliderPayloadMaxFloats = 1u << 24;

// Same packed bits (re-uploads are skipped when nothing moved).
bool bitwiseEqual(const ColliderRecords& a, const ColliderRecords& b);

struct ColliderSample {
  int32_t id;        // record index (see above)
  float phi;         // signed distance [m], positive outside
  glm::vec3 normal;  // outward unit normal
  float friction;    // Coulomb mu [-]
};

// fn(const ColliderSample&) for every enabled collider, in id order.
template <class Fn>
void forEachCollider(const ColliderRecords& records, glm::vec3 p, Fn&& fn) {
  const uint32_t n = records.count();
  for (uint32_t k = 0; k < n; ++k) {
    if (uint32_t(records.data[size_t(k) * TL_COLLIDER_STRIDE].x) == TL_COLLIDER_NONE) continue;
    ColliderSample s{};
    s.id = int32_t(k);
    s.phi = clm::collider_sample(records.data.data(), k, p, &s.normal, &s.friction);
    fn(s);
  }
}

}  // namespace tetlab
