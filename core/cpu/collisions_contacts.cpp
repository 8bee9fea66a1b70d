// Contacts of PBD/XPBD: each vertex against every analytic collider as the
// hard inequality C = phi(x) - offset >= 0 (phi: signed distance,
// shaders/cl/common/collisions.clh), projected fully (zero compliance), then
// position-based Coulomb friction on the tangential motion of the substep
// (Macklin et al. 2014 "Unified Particle Physics" Sec. 6.1): the normal
// correction d bounds the friction displacement by mu d, which over a substep
// with normal force N is mu N w h^2, the Coulomb impulse. d is the correction
// ACCUMULATED over the substep's iterations (Mueller et al. 2020 Sec. 3.5,
// friction_correction_accumulated): a vertex carrying the block's weight gets
// most of it after the first iteration, pushed back each time the elastic
// constraints press it down. One mu from the collider serves as static and
// kinetic coefficient. ctx.contactFriction keeps (F, D) per vertex; iteration 0
// starts it at zero, so no substep driver has to reset it.
#include <algorithm>

#include "core/cpu/constraints_projection.h"
#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/pb_vertex.clh"

namespace tetlab {

void projectContacts(ProjectionContext& ctx) {
  const float offset = ctx.settings->positionBased.contactOffset;
  std::vector<glm::vec4>& x = ctx.state->x;
  const std::vector<glm::vec4>& xPrev = ctx.state->xPrev;
  std::vector<glm::vec4>& acc = ctx.contactFriction;
  if (acc.size() != x.size()) acc.assign(x.size(), glm::vec4(0.0f));
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].w == 0.0f) continue;
    if (ctx.iteration == 0) acc[i] = glm::vec4(0.0f);
    const glm::vec3 p = clm::pb_collider_contacts(ctx.colliders.data.data(), ctx.colliders.count(), glm::vec3(x[i]),
                                                  glm::vec3(xPrev[i]), offset, &acc[i]);
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
      forEachCollider(ctx.colliders, glm::vec3(x[i]),
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
