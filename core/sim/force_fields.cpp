#include "core/sim/force_fields.h"

#include <cmath>

#include <glm/geometric.hpp>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/force_fields.clh"

namespace tetlab {

static_assert(kForceFieldStride == TL_FIELD_STRIDE, "the host and device field records must agree");

std::vector<glm::vec4> packForceFields(const ForceFields& fields) {
  std::vector<glm::vec4> out;
  for (const ForceField& f : fields.fields) {
    if (!f.enabled || f.strength == 0.0f) continue;
    const float len = glm::length(f.direction);
    // A field without a direction (a zero vector typed in the panel) has none to push or turn about.
    if (f.kind != ForceFieldKind::Radial && !(len > 0.0f)) continue;
    const glm::vec3 dir = len > 0.0f ? f.direction / len : glm::vec3(0.0f);
    const float kind = f.kind == ForceFieldKind::Directional ? float(TL_FIELD_DIRECTIONAL)
                       : f.kind == ForceFieldKind::Radial    ? float(TL_FIELD_RADIAL)
                                                             : float(TL_FIELD_VORTEX);
    out.emplace_back(f.center, kind);
    out.emplace_back(dir, f.strength);
    out.emplace_back(std::max(f.radius, 0.0f), std::max(f.falloff, 0.0f), f.perMass ? 1.0f : 0.0f, 0.0f);
  }
  return out;
}

}  // namespace tetlab
