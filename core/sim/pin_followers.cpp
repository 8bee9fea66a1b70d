#include "core/sim/pin_followers.h"

namespace tetlab {

size_t colliderListSize(const Colliders& c, ColliderList list) {
  switch (list) {
    case ColliderList::None: return 0;
    case ColliderList::Ground: return 1;
    case ColliderList::Planes: return c.planes.size();
    case ColliderList::Spheres: return c.spheres.size();
    case ColliderList::Boxes: return c.boxes.size();
    case ColliderList::Capsules: return c.capsules.size();
    case ColliderList::Tori: return c.tori.size();
    case ColliderList::Meshes: return c.meshes.size();
  }
  return 0;
}

int32_t colliderRecordId(const Colliders& c, ColliderRef ref) {
  if (ref.index >= colliderListSize(c, ref.list)) return -1;
  if (ref.list == ColliderList::Ground) return 0;
  int32_t id = 1;
  for (ColliderList l : {ColliderList::Planes, ColliderList::Spheres, ColliderList::Boxes, ColliderList::Capsules,
                         ColliderList::Tori, ColliderList::Meshes}) {
    if (l == ref.list) return id + int32_t(ref.index);
    id += int32_t(colliderListSize(c, l));
  }
  return -1;
}

std::optional<ColliderFrame> colliderFrame(const Colliders& c, ColliderRef ref) {
  if (ref.index >= colliderListSize(c, ref.list)) return std::nullopt;
  const size_t i = ref.index;
  ColliderFrame f;
  switch (ref.list) {
    case ColliderList::None: return std::nullopt;
    case ColliderList::Ground: f.origin = glm::vec3(0.0f, c.ground.height, 0.0f); break;
    case ColliderList::Planes: f.origin = c.planes[i].point; break;
    case ColliderList::Spheres: f.origin = c.spheres[i].center; break;
    case ColliderList::Boxes:
      f.origin = c.boxes[i].center;
      f.rotation = c.boxes[i].rotation;
      break;
    case ColliderList::Capsules: f.origin = c.capsules[i].a; break;
    case ColliderList::Tori:
      f.origin = c.tori[i].center;
      f.rotation = c.tori[i].rotation;
      break;
    case ColliderList::Meshes:
      f.origin = c.meshes[i].center;
      f.rotation = c.meshes[i].rotation;
      f.scale = c.meshes[i].size;
      break;
  }
  return f;
}

PinFollower makePinFollower(ColliderRef ref, const ColliderFrame& frame, std::span<const uint32_t> vertices,
                            std::span<const glm::vec3> positions) {
  PinFollower out;
  out.collider = ref;
  out.vertices.assign(vertices.begin(), vertices.end());
  out.local.reserve(vertices.size());
  for (size_t k = 0; k < vertices.size() && k < positions.size(); ++k) out.local.push_back(frame.toLocal(positions[k]));
  return out;
}

void followerTargets(const PinFollower& follower, const ColliderFrame& frame, std::vector<glm::vec3>& out) {
  out.resize(follower.local.size());
  for (size_t k = 0; k < follower.local.size(); ++k) out[k] = frame.toWorld(follower.local[k]);
}

}  // namespace tetlab
