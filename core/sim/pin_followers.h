#pragma once
// Pins that ride on a collider: a cape's collar on a character the user drags,
// a rope tied to a moving ball. Each follower keeps its pinned vertices'
// positions in the collider's frame (origin, rotation, size) as they were when
// the scene was built, and the session moves them wherever the collider now is
// before each frame (core/session/sim_session.cpp, Simulator::moveKinematic).
// A pin is kinematic (w = 0): the solvers never move it, so its motion is
// prescribed here and nowhere else, identically on both backends.
//
//   scene file pins[i].follow {"mesh": 0} --buildScene--> PinFollower --followerTargets--> pinned x
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <glm/vec3.hpp>

#include "core/sim/colliders.h"

namespace tetlab {

// Which list of Colliders and which entry: a collider as a scene file names it.
enum class ColliderList : uint8_t { None, Ground, Planes, Spheres, Boxes, Capsules, Tori, Meshes };

struct ColliderRef {
  ColliderList list = ColliderList::None;
  uint32_t index = 0;
  bool valid() const { return list != ColliderList::None; }
};

// The collider's placement: world = origin + scale * rotation * local. Scale is
// the mesh collider's size (the SDF's unit frame scales with it) and 1 for the
// analytic shapes; shapes without a rotation (ground, plane, sphere, capsule)
// carry their translation only, so a follower on them translates with them.
struct ColliderFrame {
  glm::vec3 origin{0.0f};
  glm::mat3 rotation{1.0f};
  float scale = 1.0f;
  glm::vec3 toWorld(glm::vec3 local) const { return origin + rotation * (scale * local); }
  // Rotations are orthonormal: the inverse is the transpose.
  glm::vec3 toLocal(glm::vec3 world) const { return (glm::transpose(rotation) * (world - origin)) / scale; }
  glm::vec3 directionToWorld(glm::vec3 local) const { return rotation * local; }
  glm::vec3 directionToLocal(glm::vec3 world) const { return glm::transpose(rotation) * world; }
};

// The frame of `ref` in `colliders`; nullopt when the list has no such entry
// (removed in the window: its followers then stay where they are).
std::optional<ColliderFrame> colliderFrame(const Colliders& colliders, ColliderRef ref);

// The collider's record id in packColliders' numbering (core/sim/collider_records.h:
// 0 the ground, then planes, spheres, boxes, capsules, tori, meshes); -1: none.
int32_t colliderRecordId(const Colliders& colliders, ColliderRef ref);

// How many colliders `list` has (for the scene build's range check).
size_t colliderListSize(const Colliders& colliders, ColliderList list);

struct PinFollower {
  ColliderRef collider;
  std::vector<uint32_t> vertices;  // model vertex ids, pinned
  std::vector<glm::vec3> local;    // each vertex in the collider's frame at build time
};

// A follower of `ref` for `vertices` at `positions` (world, the collider at `frame`).
PinFollower makePinFollower(ColliderRef ref, const ColliderFrame& frame, std::span<const uint32_t> vertices,
                            std::span<const glm::vec3> positions);

// World positions of the follower's vertices with the collider at `frame`.
void followerTargets(const PinFollower& follower, const ColliderFrame& frame, std::vector<glm::vec3>& out);

}  // namespace tetlab
