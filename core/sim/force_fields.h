#pragma once
// Force fields (issue 15 item 5): directional, radial (a point attractor or
// repeller) and vortex fields, each with a centre, an optional spherical
// region with a falloff, and a strength that is a force on every vertex [N]
// or an acceleration [m/s^2] (like gravity). Applied each substep as a
// velocity kick before the predict, dv = h F / m (or h a), the same on every
// solver and both backends (shaders/cl/common/force_fields.clh has the
// equations). Plain settings edited by the UI and scene files.
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace tetlab {

enum class ForceFieldKind : uint8_t { Directional, Radial, Vortex };

struct ForceField {
  bool enabled = true;
  ForceFieldKind kind = ForceFieldKind::Radial;
  glm::vec3 center{0.0f};                 // [m]
  glm::vec3 direction{0.0f, 1.0f, 0.0f};  // directional: the push; vortex: the axis (normalised when packed)
  float strength = 1.0f;                  // [N] per vertex, or [m/s^2] with perMass; radial: > 0 repels
  float radius = 0.0f;                    // region around the centre (vortex: around the axis) [m]; 0: everywhere
  float falloff = 1.0f;                   // strength (1 - d / radius)^falloff inside the region [-]; 0: hard edge
  bool perMass = false;                   // strength is an acceleration (every vertex alike) instead of a force
};

struct ForceFields {
  std::vector<ForceField> fields;
  bool any() const {
    for (const ForceField& f : fields)
      if (f.enabled && f.strength != 0.0f) return true;
    return false;
  }
};

// float4 per packed field (TL_FIELD_STRIDE in shaders/cl/common/force_fields.clh).
inline constexpr uint32_t kForceFieldStride = 3;

// The enabled fields as the records both backends read (kForceFieldStride float4 each).
std::vector<glm::vec4> packForceFields(const ForceFields& fields);

// A field pushes the bodies (it does work): the energy checks then treat the run as forced.
inline bool fieldsDoWork(const ForceFields& fields) { return fields.any(); }

}  // namespace tetlab
