// Material::damping (Rayleigh D = k_d K) as the one pass after every frame
// (core/sim/rayleigh_damping.h), checked against the properties
// stiffness-proportional damping has, on all four solvers:
//   (a) it removes only motion: the settled sag of the beam preset is the undamped one;
//   (b) a mode of angular frequency omega gets the damping ratio zeta = c / (2 m omega)
//       with c = k_d m omega_K^2, omega_K the mode's frequency under K;
//   (c) linear momentum is kept and rigid motion is not damped;
//   (d) ringing dies out on every solver, translation is untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "core/sim/presets.h"
#include "core/sim/rayleigh_damping.h"
#include "core/sim/solver.h"
#include "core/sim/stepper.h"
#include "tests/com_height.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

constexpr float kE = 1.0e8f, kKd = 2.0e-3f;
constexpr double kDt = 1.0 / 60.0;

Scene beamScene(float damping) {
  PresetOptions options;
  options.material = {kE, 0.3f, 1000.0f, damping};
  auto scene = makePresetScene("beam", options);
  EXPECT_TRUE(scene.ok());
  return std::move(scene).value();
}

// COM drop of the beam below its rest height, once per frame from rest.
std::vector<double> comDropHistory(const Scene& scene, SolverKind kind, int substeps, int iterations, int frames,
                                   int* outDampingIterations = nullptr) {
  SolverSettings settings = scene.settings;
  settings.solver = kind;
  settings.step.substeps = substeps;
  settings.step.iterations = iterations;
  State state = makeSceneState(scene);
  auto solver = makeCpuSolver(kind);
  solver->reset(scene.model, state);
  const double y0 = test::comY(scene.model, state);
  std::vector<double> drop;
  StepDiagnostics diag;
  for (int f = 0; f < frames; ++f) {
    stepSimulation(scene.model, settings, *solver, state, diag);
    EXPECT_TRUE(diag.finite) << diag.problem;
    if (!diag.finite) break;
    if (outDampingIterations) *outDampingIterations = std::max(*outDampingIterations, diag.dampingIterations);
    drop.push_back(y0 - test::comY(scene.model, state));
  }
  return drop;
}

double mean(const std::vector<double>& v, size_t begin, size_t end) {
  double s = 0.0;
  for (size_t i = begin; i < end; ++i) s += v[i];
  return s / double(end - begin);
}

// Free decay of the first bending mode: peaks of |y - yEq| (parabolic
// interpolation over the 60 Hz samples), omega from their spacing (half a
// period apart), zeta from the log decrement over the first `peaks` of them.
struct Decay {
  double omega = 0.0, zeta = 0.0;
};

Decay measureDecay(const std::vector<double>& y, double yEq, int peaks) {
  std::vector<double> t, a;
  for (size_t i = 1; i + 1 < y.size() && int(t.size()) < peaks; ++i) {
    const double p = std::fabs(y[i - 1] - yEq), c = std::fabs(y[i] - yEq), n = std::fabs(y[i + 1] - yEq);
    const bool sameSide = (y[i - 1] - yEq) * (y[i] - yEq) > 0.0 && (y[i + 1] - yEq) * (y[i] - yEq) > 0.0;
    if (!(sameSide && c >= p && c > n)) continue;
    const double denom = p - 2.0 * c + n;
    const double s = denom != 0.0 ? 0.5 * (p - n) / denom : 0.0;  // vertex of the parabola, in samples
    t.push_back((double(i) + s) * kDt);
    a.push_back(c - 0.25 * (p - n) * s);
  }
  Decay d;
  if (t.size() < 3) return d;
  const size_t k = t.size() - 1;
  d.omega = M_PI / ((t[k] - t[0]) / double(k));
  // Successive peaks are half a period apart: ln(a0 / ak) = zeta omega k T / 2.
  const double delta = 2.0 * std::log(a[0] / a[k]) / double(k);  // per full period
  d.zeta = delta / std::sqrt(4.0 * M_PI * M_PI + delta * delta);
  return d;
}

struct Budget {
  SolverKind kind;
  int substeps, iterations;
};
// XPBD and PBD at their Small Steps budget, VBD and AVBD where they reach the
// beam's stiffness (docs/solvers.md conformance table).
constexpr Budget kBudgets[] = {{SolverKind::Pbd, 120, 1},
                               {SolverKind::Xpbd, 120, 1},
                               {SolverKind::Vbd, 120, 5},
                               {SolverKind::Avbd, 120, 5}};

// (a) and (b) read the same eight runs (each solver's beam undamped and damped,
// 240 frames from rest), so they are one test: the runs are the cost.
struct BeamHistories {
  Budget budget;
  std::vector<double> free, damped;
  int cgIterations = 0;
};

std::vector<BeamHistories> beamHistories() {
  std::vector<BeamHistories> out;
  for (const Budget& b : kBudgets) {
    BeamHistories h{b, {}, {}, 0};
    h.free = comDropHistory(beamScene(0.0f), b.kind, b.substeps, b.iterations, 240);
    h.damped = comDropHistory(beamScene(kKd), b.kind, b.substeps, b.iterations, 240, &h.cgIterations);
    out.push_back(std::move(h));
  }
  return out;
}

// (a) Damping removes only motion: the settled sag equals the undamped mean.
// Undamped: mean over 2 s of oscillation (about 13 periods: the mean of a sine
// over a non-integer count of periods is off by < 1 / (pi N) of its amplitude,
// here < 3 % of an amplitude that is itself ~ the sag; the second half of the
// window is used, so < 2.5 % of the sag).
//
// (b) The first bending mode's damping ratio. C = k_d K gives the mode
// c = k_d m omega_K^2, so zeta = k_d omega_K^2 / (2 omega) at the omega a
// solver oscillates with (an under-converged solver is softer than K: omega <
// omega_K, and K's damping is then relatively stronger). omega_K is taken from
// the most converged run (VBD at 120 x 5, within 1 % of AVBD). Each solver's
// own numerical damping zeta0 (undamped run) is subtracted. The decay is read
// from the first 90 frames undamped (12 peaks) and the first 150 damped (8).
// Tolerance 15 %: the operator split (backward Euler over a frame lowers the
// rate by ln(1 + dt k_d omega^2) / (dt k_d omega^2) ~ 3 %), 100 CG iterations
// (the tolerance is not always reached), the COM's share of higher modes and
// the 60 Hz peak interpolation.
TEST(RayleighDamping, StaticSagIsTheUndampedOneAndTheModeDampingRatioIsRayleigh) {
  const std::vector<BeamHistories> runs = beamHistories();
  for (const BeamHistories& h : runs) {
    ASSERT_EQ(h.free.size(), 240u) << phystest::solverName(h.budget.kind);
    ASSERT_EQ(h.damped.size(), 240u) << phystest::solverName(h.budget.kind);
  }
  for (const BeamHistories& h : runs) {
    const double undampedSag = mean(h.free, 120, 240);
    const double dampedSag = mean(h.damped, 180, 240);
    std::printf("[ measured ] %s %dx%d E = 1e8: COM sag undamped %.4e m, k_d = 2 ms %.4e m (ratio %.4f)\n",
                phystest::solverName(h.budget.kind), h.budget.substeps, h.budget.iterations, undampedSag, dampedSag,
                dampedSag / undampedSag);
    EXPECT_NEAR(dampedSag / undampedSag, 1.0, 0.02) << phystest::solverName(h.budget.kind);
  }
  std::vector<Decay> free, damped;
  for (const BeamHistories& h : runs) {
    const std::vector<double> f(h.free.begin(), h.free.begin() + 90), d(h.damped.begin(), h.damped.begin() + 150);
    free.push_back(measureDecay(f, mean(f, 0, f.size()), 12));
    damped.push_back(measureDecay(d, mean(d, 120, 150), 8));
    ASSERT_GT(damped.back().omega, 0.0) << phystest::solverName(h.budget.kind);
  }
  const double omegaK = damped[2].omega;  // VBD 120 x 5
  for (size_t i = 0; i < runs.size(); ++i) {
    const Budget& b = runs[i].budget;
    const double expected = kKd * omegaK * omegaK / (2.0 * damped[i].omega);
    const double got = damped[i].zeta - free[i].zeta;
    std::printf("[ measured ] %s %dx%d: omega %.1f rad/s, zeta undamped %.4f, damped %.4f, difference %.4f, "
                "k_d omega_K^2 / (2 omega) = %.4f (ratio %.3f), CG iterations up to %d\n",
                phystest::solverName(b.kind), b.substeps, b.iterations, damped[i].omega, free[i].zeta,
                damped[i].zeta, got, expected, got / expected, runs[i].cgIterations);
    EXPECT_NEAR(got / expected, 1.0, 0.15) << phystest::solverName(b.kind);
  }
}

// (c) The pass alone on a free box: it keeps sum m dv = 0 (the mass
// preconditioner keeps every CG iterate's momentum; float rounding only), and
// leaves a rigid translation and an infinitesimal rotation of the unstressed
// body untouched (D annihilates both).
TEST(RayleighDamping, PassKeepsMomentumAndLeavesRigidMotionAlone) {
  const Material material{1.0e6f, 0.3f, 1000.0f, 0.01f};
  const SimModel model = phystest::buildBox({-0.1f, -0.1f, -0.1f}, {0.2f, 0.2f, 0.2f}, {3, 2, 2}, material);
  const RayleighDampingSettings settings;
  const float dt = 1.0f / 60.0f;
  auto momentumOf = [&](const State& st) { return phystest::linearMomentum(model, st); };

  // Deformed, with a velocity field that has strain rates in it.
  State s = makeState(model);
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::vec3 p(s.x[i]);
    s.x[i] += glm::vec4(0.02f * p.x, -0.01f * p.y * p.x * 10.0f, 0.0f, 0.0f);
    s.v[i] = glm::vec4(0.3f + 2.0f * p.x * p.y, std::sin(20.0f * p.x), -p.z, 0.0f);
  }
  const std::vector<glm::vec4> v0 = s.v;
  const glm::dvec3 before = momentumOf(s);
  const RayleighDampingReport report = applyRayleighDamping(model, settings, SpringChoice{}, dt, s);
  ASSERT_TRUE(report.applied);
  double changeScale = 0.0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    changeScale += double(model.mass[i]) * glm::length(glm::vec3(s.v[i] - v0[i]));
  const double drift = glm::length(momentumOf(s) - before);
  std::printf("[ measured ] damped strain rates: sum m |dv| = %.3e kg m/s, |sum m dv| = %.3e, %d CG iterations\n",
              changeScale, drift, report.iterations);
  ASSERT_GT(changeScale, 1e-3);
  EXPECT_LT(drift, 1e-5 * changeScale);

  // Rigid translation and an infinitesimal rotation about the centre, at rest shape.
  for (bool rotation : {false, true}) {
    State r = makeState(model);
    for (uint32_t i = 0; i < model.vertexCount(); ++i) {
      const glm::vec3 p(r.x[i]);
      r.v[i] = glm::vec4(rotation ? glm::cross(glm::vec3(0.0f, 3.0f, 1.0f), p) : glm::vec3(0.5f, 0.2f, -0.1f), 0.0f);
    }
    const std::vector<glm::vec4> rigid = r.v;
    applyRayleighDamping(model, settings, SpringChoice{}, dt, r);
    float worst = 0.0f, speed = 0.0f;
    for (uint32_t i = 0; i < model.vertexCount(); ++i) {
      worst = std::max(worst, glm::length(glm::vec3(r.v[i] - rigid[i])));
      speed = std::max(speed, glm::length(glm::vec3(rigid[i])));
    }
    EXPECT_LT(worst, 1e-5f * speed) << (rotation ? "rotation" : "translation") << " is not damped";
  }
}

// (d) End to end on every solver: a free box without gravity, translating and
// ringing (stretched 2 % along x at t = 0). Its internal energy (total minus
// the kinetic energy of the mean velocity) falls under damping, and a body
// that only translates moves exactly as undamped.
TEST(RayleighDamping, RingingDiesOutAndTranslationIsUntouchedOnEverySolver) {
  constexpr int kFrames = 30;
  for (SolverKind kind : {SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd}) {
    for (bool ringing : {true, false}) {
      struct Run {
        double internal = 0.0;
        std::vector<glm::vec4> x;
      };
      auto run = [&](float damping) {
        // Soft (E = 1e4 Pa: the stretch mode's omega ~ pi sqrt(E / rho) / L ~ 50 rad/s, so h omega
        // = 0.04 and implicit Euler's own damping stays small) and k_d = 0.02 s: zeta ~ 0.5.
        const Material material{1.0e4f, 0.3f, 1000.0f, damping};
        const SimModel model = phystest::buildBox({-0.1f, -0.1f, -0.1f}, {0.2f, 0.2f, 0.2f}, {2, 2, 2}, material);
        SolverSettings settings;
        settings.solver = kind;
        settings.step.gravity = glm::vec3(0.0f);
        settings.step.substeps = 20;
        settings.step.iterations = 4;
        settings.colliders.ground.enabled = false;
        State state = makeState(model);
        for (uint32_t i = 0; i < model.vertexCount(); ++i) {
          state.v[i] = glm::vec4(0.5f, 0.2f, -0.1f, 0.0f);
          if (ringing) state.x[i].x *= 1.02f;
        }
        auto solver = makeCpuSolver(kind);
        solver->reset(model, state);
        StepDiagnostics diag;
        for (int f = 0; f < kFrames; ++f) stepSimulation(model, settings, *solver, state, diag);
        EXPECT_TRUE(diag.finite) << diag.problem;
        const double M = phystest::totalMass(model);
        const glm::dvec3 P = phystest::linearMomentum(model, state);
        Run r;
        r.internal = diag.energy.total() - 0.5 * glm::dot(P, P) / M;
        r.x = state.x;
        return r;
      };
      const Run free = run(0.0f), damped = run(0.02f);
      std::printf("[ measured ] %s %s: internal energy %.3e J undamped, %.3e J damped after 0.5 s\n",
                  phystest::solverName(kind), ringing ? "ringing" : "translating", free.internal, damped.internal);
      if (ringing) {
        // exp(-2 zeta omega t) ~ exp(-25) of the energy with damping, against implicit Euler's
        // own loss (~ e^-1) without: a factor 10 is a loose bound.
        EXPECT_LT(damped.internal, 0.1 * free.internal) << phystest::solverName(kind);
      } else {
        float worst = 0.0f;
        for (size_t i = 0; i < free.x.size(); ++i)
          worst = std::max(worst, glm::length(glm::vec3(free.x[i]) - glm::vec3(damped.x[i])));
        EXPECT_LT(worst, 1e-5f) << phystest::solverName(kind) << ": translation is not damped";
      }
    }
  }
}

}  // namespace
}  // namespace tetlab
