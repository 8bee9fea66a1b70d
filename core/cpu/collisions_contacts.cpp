// Contacts of PBD/XPBD: each vertex against every analytic collider as the
// hard inequality C = phi(x) - offset >= 0 (phi: signed distance,
// shaders/cl/common/collisions.clh), projected fully (zero compliance), then
// position-based Coulomb friction on the tangential motion of the substep
// (Macklin et al. 2014 "Unified Particle Physics" Sec. 6.1): the resolved
// depth d bounds the friction displacement by mu d, which over a substep with
// normal force m g is exactly mu g h^2, the Coulomb impulse. One mu from the
// collider serves as static and kinetic coefficient.
#include <algorithm>

#include "core/cpu/constraints_projection.h"
#include "core/cpu/vbd_colliders.h"

namespace tetlab {

void projectContacts(ProjectionContext& ctx) {
  const Colliders& colliders = ctx.settings->colliders;
  const float offset = ctx.settings->positionBased.contactOffset;
  std::vector<glm::vec4>& x = ctx.state->x;
  const std::vector<glm::vec4>& xPrev = ctx.state->xPrev;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].w == 0.0f) continue;
    glm::vec3 p = glm::vec3(x[i]);
    forEachCollider(colliders, p, [&](const ColliderSample& s) {
      // Samples are taken at the vertex's position before this loop; when an
      // earlier collider already moved p (overlapping colliders) the distance
      // is linearised along the normal (exact for planes and box faces).
      const float phi = s.phi + glm::dot(s.normal, p - glm::vec3(x[i])) - offset;
      if (phi >= 0.0f) return;
      const float depth = -phi;
      p += depth * s.normal;
      const glm::vec3 dx = p - glm::vec3(xPrev[i]);
      const glm::vec3 dxT = dx - glm::dot(dx, s.normal) * s.normal;
      p += clm::friction_correction(dxT, depth, s.friction, s.friction);
    });
    x[i] = glm::vec4(p, x[i].w);
  }
}

float hardConstraintViolation(const ProjectionContext& ctx) {
  const std::vector<glm::vec4>& x = ctx.state->x;
  const float offset = ctx.settings->positionBased.contactOffset;
  float worst = ctx.families.bodyContacts ? bodyContactViolation(ctx) : 0.0f;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].w == 0.0f) continue;
    if (ctx.families.collisions)
      forEachCollider(ctx.settings->colliders, glm::vec3(x[i]),
                      [&](const ColliderSample& s) { worst = std::max(worst, offset - s.phi); });
    if (ctx.families.tethers && ctx.tetherAnchor && !ctx.tetherAnchor->empty()) {
      const uint32_t a = (*ctx.tetherAnchor)[i];
      if (a != ~0u)
        worst = std::max(worst, glm::length(glm::vec3(x[i]) - glm::vec3(x[a])) - (*ctx.tetherLength)[i]);
    }
  }
  return worst;
}

}  // namespace tetlab
