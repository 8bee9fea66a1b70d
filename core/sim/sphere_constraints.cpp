#include "core/sim/sphere_constraints.h"

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include "core/sim/collider_records.h"
#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/sphere_constraints.clh"

namespace tetlab {

SphereRig buildSphereRig(const SimModel& model, std::span<const PinFollower> followers,
                         const std::vector<glm::vec4>& x, const Colliders& sceneColliders) {
  const uint32_t n = model.vertexCount();
  SphereRig rig;
  rig.follower.assign(n, -1);
  rig.local.assign(model.restPositions.begin(), model.restPositions.end());
  rig.inward.assign(n, glm::vec3(0.0f));
  rig.pinDistance.assign(n, 0.0f);
  rig.acts.assign(n, 0);

  // A body's frame: the collider its first following pin region rides on.
  std::vector<int32_t> bodyFollower(model.materials.size(), -1);
  for (size_t f = 0; f < followers.size(); ++f)
    for (uint32_t v : followers[f].vertices)
      if (v < n && bodyFollower[model.vertexBody[v]] < 0) bodyFollower[model.vertexBody[v]] = int32_t(f);
  const ColliderRecords records = packColliders(sceneColliders);

  std::vector<std::vector<uint32_t>> pinsOf(model.materials.size());
  for (uint32_t v = 0; v < n && v < x.size(); ++v)
    if (x[v].w == 0.0f) pinsOf[model.vertexBody[v]].push_back(v);

  for (uint32_t v = 0; v < n; ++v) {
    const uint32_t b = model.vertexBody[v];
    rig.acts[v] = (model.isCloth(b) || model.isStrand(b)) && v < x.size() && x[v].w != 0.0f ? 1 : 0;
    const glm::vec3 p = model.restPositions[v];
    float nearest = INFINITY;
    for (uint32_t q : pinsOf[b]) nearest = std::min(nearest, glm::length(model.restPositions[q] - p));
    rig.pinDistance[v] = std::isfinite(nearest) ? nearest : 0.0f;
    const int32_t f = bodyFollower[b];
    if (f < 0) continue;
    const std::optional<ColliderFrame> frame = colliderFrame(sceneColliders, followers[size_t(f)].collider);
    if (!frame) continue;
    rig.follower[v] = f;
    rig.local[v] = frame->toLocal(p);
    // Into the collider: against its outward normal at the rest place.
    const int32_t id = colliderRecordId(sceneColliders, followers[size_t(f)].collider);
    forEachCollider(records, p, [&](const ColliderSample& s) {
      if (s.id == id && glm::dot(s.normal, s.normal) > 0.0f)
        rig.inward[v] = glm::normalize(frame->directionToLocal(-s.normal));
    });
  }
  return rig;
}

void sphereTargets(const SphereRig& rig, const SphereSettings& settings, const Colliders& colliders,
                   std::span<const PinFollower> followers, std::vector<glm::vec4>& outMotion,
                   std::vector<glm::vec4>& outSeparation) {
  const size_t n = rig.follower.size();
  const glm::vec4 none(0.0f, 0.0f, 0.0f, -1.0f);
  outMotion.assign(n, none);
  outSeparation.assign(n, none);
  std::vector<std::optional<ColliderFrame>> frames(followers.size());
  for (size_t f = 0; f < followers.size(); ++f) frames[f] = colliderFrame(colliders, followers[f].collider);
  for (size_t v = 0; v < n; ++v) {
    if (!rig.acts[v]) continue;
    glm::vec3 centre = rig.local[v], inward(0.0f);
    const int32_t f = rig.follower[v];
    if (f >= 0 && frames[size_t(f)]) {
      const ColliderFrame& frame = *frames[size_t(f)];
      centre = frame.toWorld(rig.local[v]);
      inward = frame.directionToWorld(rig.inward[v]);
    }
    if (settings.motion)
      outMotion[v] = glm::vec4(centre, std::max(0.0f, settings.motionScale * rig.pinDistance[v] + settings.motionBias));
    if (settings.separation && glm::dot(inward, inward) > 0.0f && settings.separationRadius > 0.0f)
      outSeparation[v] = glm::vec4(centre + settings.separationRadius * inward, settings.separationRadius);
  }
}

float sphereSubstepStiffness(float perFrame60, float h) {
  const float k = std::clamp(perFrame60, 0.0f, 1.0f);
  if (k >= 1.0f) return 1.0f;
  return 1.0f - std::pow(1.0f - k, 60.0f * h);
}

void projectSpheres(const SphereTargets& s, float t, float k, std::vector<glm::vec4>& x) {
  if (!s.active() || s.motionStart.size() != x.size()) return;
  for (size_t i = 0; i < x.size(); ++i)
    clm::sphere_constraints_vertex(x.data(), uint32_t(i), s.motionStart.data(), s.motionTarget.data(),
                                   s.separationStart.data(), s.separationTarget.data(), t, k);
}

}  // namespace tetlab
