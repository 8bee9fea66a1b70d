#pragma once
// Friction scenes shared by the CPU reference tests (tests/cpu/friction_test.cpp)
// and the OpenCL ones (tests/gpu/friction_gpu_test.cpp), so both backends are
// held to the same closed forms.
//
// Slope: a 10 cm block (2x2x2 cells, E = 1e5 Pa, rho = 1000) on the ground with
// gravity tilted by theta = 20 deg about z, which is the same as a 20 deg slope
// (the ground's normal makes the angle theta with -g). Coulomb: the block sticks
// when mu >= tan(theta) = 0.364 and otherwise slides from rest with the constant
// acceleration a = g (sin theta - mu cos theta), d(t) = a t^2 / 2.
#include <algorithm>
#include <cmath>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state_setup.h"

namespace tetlab::frictiontest {

constexpr float kTheta = 20.0f * 3.14159265f / 180.0f;  // slope angle [rad]
constexpr float kG = 9.81f;                                // [m/s^2]

inline SimModel slopeBlock() {
  BodyDesc body{makeBoxTetMesh({-0.05f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}), Material{1e5f, 0.3f, 1000, 0},
                "block"};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  return std::move(*model);
}

inline SolverSettings slopeSettings(SolverKind kind, float mu) {
  SolverSettings s;
  s.solver = kind;
  s.step.iterations = 8;
  s.step.gravity = kG * glm::vec3(std::sin(kTheta), -std::cos(kTheta), 0.0f);  // downhill = +x
  s.colliders.ground.friction = mu;
  return s;
}

inline double comX(const SimModel& m, const State& s) {
  double x = 0.0, mass = 0.0;
  for (uint32_t i = 0; i < m.vertexCount(); ++i) {
    x += m.mass[i] * s.x[i].x;
    mass += m.mass[i];
  }
  return x / mass;
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

}  // namespace tetlab::frictiontest
