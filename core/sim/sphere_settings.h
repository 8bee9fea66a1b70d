#pragma once
// Motion and separation spheres (NvCloth): the settings the UI and scene files
// edit. They act on the particles of sheets and strands (solids have their
// own elasticity to keep their shape); core/sim/sphere_constraints.h builds
// the spheres, shaders/cl/common/sphere_constraints.clh projects onto them.

namespace tetlab {

struct SphereSettings {
  // Motion: particle i stays within r_i = scale * d_i + bias of its rest place
  // (carried by the collider its body's pins follow, else fixed in the world),
  // d_i its rest distance to the nearest pin of its body (a body without pins:
  // d_i = 0, so r_i = bias). NvCloth's motion constraint radius, scale and bias.
  bool motion = false;
  float motionScale = 0.25f;   // [-]
  float motionBias = 0.02f;    // [m]
  // Separation: particle i stays outside a sphere of this radius tangent to its
  // rest place on the side of the collider its body's pins follow (bodies
  // without such pins get none): it cannot sink into the body it wraps.
  bool separation = false;
  float separationRadius = 0.1f;  // [m]
  // Fraction of a violation removed per 1/60 s (1: hard); mapped to the
  // substep h as 1 - (1 - k)^(60 h) (NvCloth's and PBD's log-stiffness).
  float stiffness = 1.0f;  // [-]
  bool any() const { return motion || separation; }
};

}  // namespace tetlab
