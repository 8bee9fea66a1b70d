#pragma once
// State: everything that changes while stepping (cf. Jolt's
// SoftBodyMotionProperties). The device state in gpu/ uses the same field
// names, and every array is float4/uint4/scalar so host and device layouts
// match (glm::vec3 is 12 bytes, OpenCL float3 is 16: never used for buffers).
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/sim/anchor_springs.h"
#include "core/sim/body_contacts.h"
#include "core/sim/rayleigh_damping.h"

namespace tetlab {

// A compliant attachment of a weighted set of vertices to a moving target
// (the mouse drag spreads the pull over the hit triangle's tet vertices).
struct Attachment {
  bool active = false;
  std::vector<uint32_t> vertices;
  std::vector<float> weights;       // barycentric weights, sum to 1
  glm::vec3 target{0.0f};           // [m]
  float stiffness = 1.0e4f;         // [N/m]
  float maxForce = 100.0f;          // [N] cap so a fast drag cannot inject explosive energy
};

// The frame's motion and separation spheres (core/sim/sphere_constraints.h):
// per vertex (centre, radius; radius < 0: none), at the start and the end of
// the frame; empty when off.
struct SphereTargets {
  std::vector<glm::vec4> motionStart, motionTarget, separationStart, separationTarget;
  float stiffness = 1.0f;  // per 1/60 s (SphereSettings::stiffness)
  bool active() const { return !motionStart.empty(); }
};

struct State {
  std::vector<glm::vec4> x;          // position [m], w = inverse mass [1/kg] (0 = pinned/kinematic)
  std::vector<glm::vec4> xPrev;      // position at the start of the substep
  std::vector<glm::vec4> v;          // velocity [m/s], w unused
  std::vector<glm::vec4> xInertial;  // inertial target y = x + h v + h^2 g (VBD Eq. 2)
  // Per-constraint solver data; layout owned by the active solver and
  // (re)initialised when the solver changes.
  std::vector<float> lambda;         // Lagrange multipliers (XPBD) / dual variables (AVBD)
  std::vector<float> penalty;        // AVBD penalty parameters k
  Attachment mouse;
  // Anchor springs and which have broken (core/sim/anchor_springs.h); a fresh
  // state (a reset) has them all whole.
  AnchorSprings springs;
  SphereTargets spheres;
  // Body-body contacts of the current substep (found after the predict, see
  // core/sim/body_contact_detection.h); empty when the toggle is off.
  BodyContacts bodyContacts;
  BodyContactGrid bodyContactGrid;  // detection scratch (no meaning between substeps)
  RayleighDampingScratch dampingScratch;  // damping pass scratch (no meaning between frames)
  double time = 0.0;                 // simulated time [s]
};

}  // namespace tetlab
