#pragma once
// Friction scenes shared by the CPU reference tests (tests/cpu/friction_test.cpp)
// and the OpenCL ones (tests/gpu/friction_gpu_test.cpp), so both backends are
// held to the same closed forms.
//
// Slope: a 10 cm block (2x2x2 cells, E = 1e5 Pa, rho = 1000) on a 20 deg slope
// (SlopeMade below: the ground under tilted gravity, or a tilted plane
// collider). Coulomb: the block sticks when mu >= tan(theta) = 0.364 and
// otherwise slides from rest with the constant acceleration
// a = g (sin theta - mu cos theta), d(t) = a t^2 / 2.
#include <algorithm>
#include <cmath>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state_setup.h"

namespace tetlab::frictiontest {

constexpr float kTheta = 20.0f * 3.14159265f / 180.0f;  // slope angle [rad]
constexpr float kG = 9.81f;                                // [m/s^2]

// The slope is made two ways with the same physics: the ground with gravity
// tilted by theta (TiltedGravity), or the whole scene rotated by -theta about z
// so that gravity is vertical, the ground off and the slope an infinite plane
// collider through the origin with normal (sin theta, cos theta, 0)
// (PlaneCollider, issue 11's plane kind). Downhill is +x, or
// (cos theta, -sin theta, 0) for the plane.
enum class SlopeMade { TiltedGravity, PlaneCollider };

inline const char* slopeMadeName(SlopeMade how) {
  return how == SlopeMade::TiltedGravity ? "tilted_gravity" : "plane_collider";
}

inline glm::vec3 slopeFrame(SlopeMade how, glm::vec3 p) {
  if (how == SlopeMade::TiltedGravity) return p;
  const float c = std::cos(kTheta), s = std::sin(kTheta);
  return {c * p.x + s * p.y, -s * p.x + c * p.y, p.z};
}

inline SimModel slopeBlock(SlopeMade how = SlopeMade::TiltedGravity) {
  TetMesh mesh = makeBoxTetMesh({-0.05f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2});
  for (glm::vec3& p : mesh.positions) p = slopeFrame(how, p);
  BodyDesc body{std::move(mesh), Material{1e5f, 0.3f, 1000, 0}, "block"};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  return std::move(*model);
}

inline SolverSettings slopeSettings(SolverKind kind, float mu, SlopeMade how = SlopeMade::TiltedGravity) {
  SolverSettings s;
  s.solver = kind;
  s.step.iterations = 8;
  if (how == SlopeMade::TiltedGravity) {
    s.step.gravity = kG * glm::vec3(std::sin(kTheta), -std::cos(kTheta), 0.0f);  // downhill = +x
    s.colliders.ground.friction = mu;
  } else {
    s.step.gravity = glm::vec3(0.0f, -kG, 0.0f);
    s.colliders.ground.enabled = false;
    s.colliders.planes.push_back(PlaneCollider{glm::vec3(0.0f), slopeFrame(how, {0.0f, 1.0f, 0.0f}), mu});
  }
  return s;
}

// Centre of mass along the downhill direction [m].
inline double comDownhill(const SimModel& m, const State& s, SlopeMade how = SlopeMade::TiltedGravity) {
  const glm::vec3 d = slopeFrame(how, {1.0f, 0.0f, 0.0f});
  double x = 0.0, mass = 0.0;
  for (uint32_t i = 0; i < m.vertexCount(); ++i) {
    x += m.mass[i] * glm::dot(glm::vec3(s.x[i]), d);
    mass += m.mass[i];
  }
  return x / mass;
}

// Deepest penetration of the block into the slope's surface [m] (0: none).
inline float slopePenetration(const State& s, SlopeMade how) {
  const glm::vec3 n = slopeFrame(how, {0.0f, 1.0f, 0.0f});
  float worst = 0.0f;
  for (const glm::vec4& x : s.x) worst = std::max(worst, -glm::dot(glm::vec3(x), n));
  return worst;
}

// Coulomb sliding distance from rest after t seconds [m].
inline double coulombSlide(float mu, double t) {
  return 0.5 * kG * (std::sin(kTheta) - mu * std::cos(kTheta)) * t * t;
}

// Tolerance of the sliding distance, relative. Sources: (1) implicit Euler of a
// constant acceleration gives a h^2 n(n+1)/2 instead of a t^2/2: relative h/t =
// 1/600 at 10 substeps of 1/60 s over 1 s; (2) the friction force may differ
// from mu N by the solvers' discretisation (position-based: the friction cap is
// the normal correction of the iterations; VBD: the smoothed profile below eps_v
// and the penalty's normal force): we allow 5% of the Coulomb force
// mu g cos(theta) = 1.84 m/s^2 on top of a = 1.51 m/s^2 at mu = 0.2, i.e.
// 0.05 * 1.84 / 1.51 = 6%; (3) the block's elastic settling under its own
// weight (~0.1 mm) is negligible next to d = 0.76 m. Total under 10%.
constexpr double kSlideTolerance = 0.10;

// Creep bound of a sticking block over 2 s [m] (issue 10 item 6).
constexpr double kCreepBound = 1.0e-3;

// Penetration bound of a resting block into the slope [m]: the position-based
// and AVBD contacts are hard (nanometres), VBD's penalty sinks by m g / k_c
// per vertex, micrometres at the default k_c; 5 mm catches a vertex through.
constexpr float kSlopePenetrationBound = 5.0e-3f;

}  // namespace tetlab::frictiontest

namespace tetlab::frictiontest {

// Corner: the ground y = 0 and a wall (an axis-aligned box collider whose face
// is the plane x = kWallX) meet at a right angle. A 2 cm block (1 cell, 8 g)
// starts 1 mm above the ground and 1 mm from the wall, thrown into the corner
// at (1, -1, 0) m/s with gravity tilted 45 deg into it, and mu = 0, so its
// corner vertex is pressed into both colliders at once. One substep per frame,
// so the test sees the end of every substep.
constexpr float kWallX = 0.05f;
constexpr float kCornerSpeed = 1.0f;  // initial velocity into the wall [m/s]

inline SimModel cornerBlock() {
  BodyDesc body{makeBoxTetMesh({kWallX - 0.021f, 0.001f, -0.01f}, glm::vec3(0.02f), {1, 1, 1}),
                Material{1e5f, 0.3f, 1000, 0}, "block"};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  return std::move(*model);
}

inline SolverSettings cornerSettings(SolverKind kind) {
  SolverSettings s;
  s.solver = kind;
  s.step.iterations = 8;
  s.step.dt = 1.0f / 600.0f;  // one substep per frame: the test sees every substep's end
  s.step.substeps = 1;
  s.step.gravity = kG * glm::vec3(std::sqrt(0.5f), -std::sqrt(0.5f), 0.0f);
  s.colliders.ground.friction = 0.0f;
  BoxCollider wall;
  wall.center = glm::vec3(kWallX + 0.5f, 0.4f, 0.0f);  // reaches below the ground: its nearest face is x = kWallX
  wall.halfExtents = glm::vec3(0.5f);
  wall.friction = 0.0f;
  s.colliders.boxes.push_back(wall);
  return s;
}

// Deepest penetration of any vertex into the ground or the wall [m] (0: none).
inline float cornerPenetration(const State& s) {
  float worst = 0.0f;
  for (const glm::vec4& x : s.x) worst = std::max({worst, -x.y, x.x - kWallX});
  return worst;
}

// Allowed penetration [m]. Hard contacts (PBD, XPBD, AVBD) should leave
// nothing; VBD's penalty k_c = 1e6 N/m stops a vertex share m <= 2 g arriving
// at |v| = 1.41 m/s within |v| sqrt(m / k_c) = 0.063 mm, and holds the whole
// block's weight (0.08 N) at 0.08 um. 0.1 mm covers both; a vertex that one
// collider ignores for a substep moves |v| h = 2.4 mm, minus the 1 mm gap.
constexpr float kCornerTolerance = 1.0e-4f;

}  // namespace tetlab::frictiontest
