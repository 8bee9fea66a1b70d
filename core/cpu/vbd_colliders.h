#pragma once
// Visits every enabled analytic collider with the signed distance of a point
// (shaders/cl/common/collisions.clh: positive outside, outward normal). VBD
// evaluates its contact penalty at the current iterate of each vertex, and AVBD
// picks each vertex's deepest colliders at the start of the substep; both go
// through this one loop so a new collider type is added in one place.
//
// Collider ids (stable while the collider list is unchanged, used by AVBD to
// keep warm-started multipliers of a persisting contact):
//   0 ground, 1.. spheres, then boxes, then capsules.
#include <cstdint>

#include <glm/vec3.hpp>

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/collisions.clh"

#include "core/sim/colliders.h"

namespace tetlab {

struct ColliderSample {
  int32_t id;        // see above
  float phi;         // signed distance [m]
  glm::vec3 normal;  // outward unit normal
  float friction;    // Coulomb mu [-]
};

// fn(const ColliderSample&) for every collider.
template <class Fn>
void forEachCollider(const Colliders& colliders, glm::vec3 p, Fn&& fn) {
  ColliderSample s{};
  if (colliders.ground.enabled) {
    s.id = 0;
    s.phi = clm::sdf_ground(p, colliders.ground.height, &s.normal);
    s.friction = colliders.ground.friction;
    fn(s);
  }
  int32_t id = 1;
  for (const SphereCollider& c : colliders.spheres) {
    s.id = id++;
    s.phi = clm::sdf_sphere(p, c.center, c.radius, &s.normal);
    s.friction = c.friction;
    fn(s);
  }
  for (const BoxCollider& c : colliders.boxes) {
    s.id = id++;
    s.phi = clm::sdf_box(p, c.center, c.halfExtents, clm::mat3_cols(c.rotation[0], c.rotation[1], c.rotation[2]),
                         &s.normal);
    s.friction = c.friction;
    fn(s);
  }
  for (const CapsuleCollider& c : colliders.capsules) {
    s.id = id++;
    s.phi = clm::sdf_capsule(p, c.a, c.b, c.radius, &s.normal);
    s.friction = c.friction;
    fn(s);
  }
}

}  // namespace tetlab
