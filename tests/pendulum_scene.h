#pragma once
// A stiff bar swinging on a hinge, the pendulum whose period the VBD-family
// initial-guess tests measure (CPU and OpenCL suites alike).
//
//          pin line (z)  o----------  y = 1 m, x = 0
//                         \
//                          \  bar 0.3 m x 0.03 m x 0.03 m, E = 1e9 Pa,
//                           \ rho = 1000 kg/m^3, released at rest at
//                            \ theta0 = 10 deg from the vertical
//
// Reference: the compound pendulum of the model's own lumped masses, taken as
// one rigid body turning about the pin line (the bar's strain under its weight
// is ~1e-9, so it is rigid to far better than the 5 % asked):
//   T0 = 2 pi sqrt(I / (M g d)),  I = sum m_i r_i^2 about the pin line,
//                                 M d = |sum m_i r_i| (r_i perpendicular to it);
// the continuous bar would give I = M (L^2 / 3 + a^2 / 12), d = L / 2. At the
// amplitude theta0 the exact period is T0 / AGM(1, cos(theta0 / 2)) (the
// complete elliptic integral through the arithmetic-geometric mean), 1.0019 T0
// at 10 deg. Implicit Euler's own period error at h = 1/600 s is
// O((omega h)^2) ~ 1e-4, and its damping leaves the amplitude ~0.96 per period.
//
// Measured: the angle of the centre of mass about the pin; the period is the
// time from its first to its third zero crossing (T/4 and 5T/4 for an ideal
// pendulum), each crossing interpolated linearly between frames.
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "core/model/sim_model.h"
#include "core/scene/scene_desc.h"
#include "core/sim/state.h"

namespace tetlab::test {

inline constexpr double kPendulumAmplitudeDegrees = 10.0;
inline constexpr float kPendulumLength = 0.3f;  // [m]
inline constexpr float kPendulumWidth = 0.03f;  // [m]
inline const glm::vec3 kPendulumPivot{0.0f, 1.0f, 0.0f};

// The bar hanging from the pin line through kPendulumPivot along z, turned by
// theta0 about it; VBD at the default settings, no ground, no damping.
inline SceneDesc pendulumScene(SolverKind solver, int substeps, int iterations) {
  SceneDesc desc;
  BodySpec bar;
  bar.source = BodySource::Box;
  // Built hanging below the origin, so the pin line (x = y = 0) is the origin's z axis.
  bar.box.min = {-0.5f * kPendulumWidth, -kPendulumLength, -0.5f * kPendulumWidth};
  bar.box.size = {kPendulumWidth, kPendulumLength, kPendulumWidth};
  bar.box.cells = {2u, 10u, 2u};  // the middle vertex row of the top face is the pin line
  bar.transform.rotateDegrees = {0.0f, 0.0f, float(kPendulumAmplitudeDegrees)};
  bar.transform.translate = kPendulumPivot;
  bar.material.youngsModulus = 1e9f;
  bar.material.density = 1000.0f;
  bar.material.damping = 0.0f;
  const float e = 1e-4f;
  bar.pins.push_back(PinRegion(kPendulumPivot - glm::vec3(e, e, kPendulumWidth),
                               kPendulumPivot + glm::vec3(e, e, kPendulumWidth)));
  desc.bodies.push_back(bar);
  desc.settings.solver = solver;
  desc.settings.step.substeps = substeps;
  desc.settings.step.iterations = iterations;
  desc.settings.colliders.ground.enabled = false;
  return desc;
}

inline double pendulumAgm(double a, double b) {
  for (int k = 0; k < 30; ++k) {
    const double m = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = m;
  }
  return a;
}

// The rigid compound pendulum of the model's masses at the state's positions (above) [s].
inline double pendulumReferencePeriod(const SimModel& m, const State& s, double g) {
  double I = 0.0;
  glm::dvec2 moment(0.0);
  for (uint32_t v = 0; v < m.vertexCount(); ++v) {
    const glm::dvec2 r(double(s.x[v].x) - kPendulumPivot.x, double(s.x[v].y) - kPendulumPivot.y);
    I += double(m.mass[v]) * (r.x * r.x + r.y * r.y);
    moment += double(m.mass[v]) * r;
  }
  const double T0 = 2.0 * M_PI * std::sqrt(I / (g * std::sqrt(moment.x * moment.x + moment.y * moment.y)));
  const double theta0 = kPendulumAmplitudeDegrees * M_PI / 180.0;
  return T0 / pendulumAgm(1.0, std::cos(0.5 * theta0));
}

// Angle of the centre of mass about the pin line from the downward vertical [rad].
inline double pendulumAngle(const SimModel& m, const State& s) {
  glm::dvec2 moment(0.0);
  for (uint32_t v = 0; v < m.vertexCount(); ++v)
    moment += double(m.mass[v]) *
              glm::dvec2(double(s.x[v].x) - kPendulumPivot.x, double(s.x[v].y) - kPendulumPivot.y);
  return std::atan2(moment.x, -moment.y);
}

// Steps frames of dt with `step` (which leaves the state in `s`) until the third
// zero crossing of the angle or maxFrames; returns the first-to-third crossing
// time [s], or NaN when fewer than three crossings happened; outLargest: the
// largest |angle| after the release [rad].
inline double measurePendulumPeriod(const SimModel& m, State& s, double dt, int maxFrames, double* outLargest,
                                    const std::function<bool(State&)>& step) {
  std::vector<double> crossings;
  double previous = pendulumAngle(m, s);
  for (int f = 1; f <= maxFrames && crossings.size() < 3; ++f) {
    if (!step(s)) return NAN;
    const double angle = pendulumAngle(m, s);
    *outLargest = std::max(*outLargest, std::fabs(angle));
    if ((previous > 0.0) != (angle > 0.0)) crossings.push_back(dt * (f - 1 + previous / (previous - angle)));
    previous = angle;
  }
  return crossings.size() < 3 ? NAN : crossings[2] - crossings[0];
}

}  // namespace tetlab::test
