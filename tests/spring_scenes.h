#pragma once
// Anchor-spring scenes shared by the CPU reference tests
// (tests/cpu/anchor_springs_test.cpp) and the OpenCL ones
// (tests/gpu/anchor_springs_gpu_test.cpp), so both backends meet the same
// closed form.
//
// A 10 cm rubber cube of 1 kg (E = 0.1 MPa) hangs from one spring (k = m
// omega^2, f = 0.7 Hz) spread over the vertices within 8 cm of its top face's
// centre, released from rest with the spring at its rest length (the default:
// the distance from the anchor to the patch's centroid). The cube moves as one
// (its own lowest mode, sqrt(E / rho) / 0.1 m = 100 rad/s, is 20x faster than
// omega), so the spring force follows the undamped oscillator
//   F(t) = m g (1 - cos(omega t)),  peak 2 m g at t = pi / omega,
// and first exceeds F_b = 1.5 m g at t* = acos(1 - 1.5) / omega = (2 pi / 3) / omega
// = 0.476 s: during frame 29 at 60 frames/s (28.57 frames, away from a frame end).
#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "core/scene/scene_build.h"
#include "core/sim/solver_settings.h"

namespace tetlab::springtest {

constexpr float kG = 9.81f;
constexpr float kMass = 1.0f;                       // 0.1^3 m^3 x 1000 kg/m^3
constexpr float kOmega = 2.0f * 3.14159265f * 0.7f;  // [rad/s]
constexpr float kStiffness = kMass * kOmega * kOmega;  // [N/m]
constexpr float kDrop = 0.5f;                       // anchor height above the attach point [m]
constexpr float kTop = 2.1f;                        // the cube's top face [m]
constexpr float kDt = 1.0f / 60.0f;

// The frame (1-based: frame f ends at f dt) in which the undamped force first exceeds `force`.
inline int analyticFirstFrameAbove(float force) {
  const double t = std::acos(1.0 - double(force) / (double(kMass) * kG)) / kOmega;
  return int(std::floor(t / kDt)) + 1;
}

inline SceneDesc hungCube(float breakForce, float breakStrain) {
  SceneDesc d;
  d.name = "hung cube";
  BodySpec b;
  b.name = "cube";
  b.source = BodySource::Box;
  b.box.min = glm::vec3(-0.05f, kTop - 0.1f, -0.05f);
  b.box.size = glm::vec3(0.1f);
  b.box.cells = glm::uvec3(2u);
  b.material.youngsModulus = 1.0e5f;
  b.material.poissonRatio = 0.3f;
  b.material.density = 1000.0f;
  AnchorSpringSpec s;
  s.name = "hanger";
  s.attach = glm::vec3(0.0f, kTop, 0.0f);
  s.radius = 0.08f;  // the 9 vertices of the top face (the farthest at 0.071 m)
  s.anchor = glm::vec3(0.0f, kTop + kDrop, 0.0f);
  s.stiffness = kStiffness;
  s.restLength = -1.0f;  // unstretched at the start
  s.breakForce = breakForce;
  s.breakStrain = breakStrain;
  b.springs.push_back(s);
  d.bodies.push_back(b);
  d.settings.colliders.ground.enabled = false;
  d.settings.step.substeps = 20;
  d.settings.step.iterations = 10;
  return d;
}

inline SolverSettings settingsFor(const SolverSettings& base, SolverKind kind) {
  SolverSettings s = base;
  s.solver = kind;
  return s;
}

// The spring's pull from the positions alone: k (|c - a| - L) with c the
// patch's centroid (the sub-springs are parallel while the cube hangs level).
inline float pullFromCentroid(const std::vector<glm::vec4>& x, const std::vector<uint32_t>& patch, float restLength) {
  glm::vec3 c(0.0f);
  for (uint32_t v : patch) c += glm::vec3(x[v]);
  c /= float(patch.size());
  return kStiffness * (glm::length(c - glm::vec3(0.0f, kTop + kDrop, 0.0f)) - restLength);
}

inline float meanVelocityY(const std::vector<glm::vec4>& v) {
  double sum = 0.0;
  for (const glm::vec4& u : v) sum += u.y;
  return float(sum / double(v.size()));
}

}  // namespace tetlab::springtest
