// Fidelity at stiff settings (issue 10): what a user gets on default settings
// when the material is steel-like, checked against closed forms.
//
//   - free fall of a stiff body at the substep counts the app chooses (XPBD's
//     automatic raise reaches hundreds): x(t) = x0 + g t^2 / 2 + g h t / 2
//     (implicit/symplectic Euler's discrete solution, see vbd_dynamics_test);
//   - the default VBD/AVBD initial guess ("adaptive") right after a reset;
//   - XPBD's Neo-Hookean substep rule: bounded just above its calibration
//     point on the beam, unbounded well below it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/cpu/xpbd_solver.h"
#include "core/sim/energy.h"
#include "core/sim/presets.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "tests/com_height.h"

namespace tetlab {
namespace {

using test::comY;

Scene presetScene(const char* name, float youngs, uint32_t cellsThick = 2) {
  PresetOptions options;
  options.material = presetDefaultMaterial(name);
  options.material.youngsModulus = youngs;
  options.cellsThick = cellsThick;
  auto scene = makePresetScene(name, options);
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message);
  return std::move(scene).value();
}

// The scene's start state with `kind` reset on it.
std::unique_ptr<Solver> startRun(const Scene& scene, SolverKind kind, State& outState) {
  outState = makeSceneState(scene);
  auto solver = makeCpuSolver(kind);
  solver->reset(scene.model, outState);
  return solver;
}

// Discrete free-fall drop after `frames` frames of `substeps` (see the header).
double discreteDrop(const StepSettings& step, int frames, int substeps) {
  const double h = double(step.dt) / substeps, t = double(step.dt) * frames, g = 9.81;
  return 0.5 * g * t * t + 0.5 * g * h * t;
}

// The drop preset at E = 1e8 and 1e9 (ball 0.5 m above the ground, so it is in
// free fall for 0.32 s) on XPBD with the substeps the app picks: it must fall the
// closed form's 49.1 mm in 0.1 s within 1 %, and keep doing so after 0.25 s.
// Before the velocity split (common/step_integrate.clh) h^2 g rounded away and
// the ball hovered at com_y = 0.600000021.
TEST(StiffFidelity, XpbdStiffDropFallsAtGWithTheAutomaticSubsteps) {
  for (float youngs : {1e8f, 1e9f}) {
  const Scene scene = presetScene("drop", youngs);
  SolverSettings settings = scene.settings;
  settings.solver = SolverKind::Xpbd;
  const XpbdSubstepPlan plan = planXpbdSubsteps(scene.model, settings);
  ASSERT_TRUE(plan.raised()) << "a 1e8 Pa ball needs more than the preset's substeps on XPBD";
  settings.step.substeps = plan.used;
  State state;
  auto solver = startRun(scene, SolverKind::Xpbd, state);
  const double y0 = comY(scene.model, state);
  StepDiagnostics diag;
  for (int f = 1; f <= 15; ++f) {
    stepSimulation(scene.model, settings, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << diag.problem;
    if (f == 6 || f == 15) {
      const double expected = discreteDrop(settings.step, f, plan.used);
      const double drop = y0 - comY(scene.model, state);
      std::printf("[ measured ] XPBD drop E=%.0e, %d substeps, %d frames: %.5f m (closed form %.5f)\n",
                  double(youngs), plan.used, f, drop, expected);
      EXPECT_NEAR(drop / expected, 1.0, 0.01) << youngs << " Pa, " << f << " frames";
    }
  }
  }
}

// Free fall at the largest automatic substep count (the cap): the velocity is
// exact in any case, so the position must match the closed form to within the
// float rounding of the predict, at most ulp(0.6 m)/2 = 3e-8 m per substep
// (N = 2000 x 6 substeps: 3.6e-4 m worst case, far less in practice). We ask
// for 0.5 % of the 49 mm.
TEST(StiffFidelity, FreeFallIsExactAtTheSubstepCap) {
  const Scene scene = presetScene("drop", 1e5f);
  for (SolverKind kind : {SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd}) {
    SolverSettings settings = scene.settings;
    settings.solver = kind;
    settings.step.substeps = kXpbdMaxAutoSubsteps;
    settings.step.iterations = 1;
    State state;
    auto solver = startRun(scene, kind, state);
    const double y0 = comY(scene.model, state);
    StepDiagnostics diag;
    for (int f = 0; f < 6; ++f) stepSimulation(scene.model, settings, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << diag.problem;
    const double expected = discreteDrop(settings.step, 6, settings.step.substeps);
    const double drop = y0 - comY(scene.model, state);
    EXPECT_NEAR(drop / expected, 1.0, 0.005) << int(kind);
  }
}

// A free stiff body (the drop preset's ball, no ground) at E = 1e8 and 1e9 on
// the default VBD/AVBD settings (10 substeps x 4 iterations, adaptive initial
// guess): within 1 % of the discrete closed form after 0.1 s and 1 s. Before:
// a 0.2 m box at 1e8 fell 13.9 mm instead of 49.9 mm in 0.1 s.
TEST(StiffFidelity, StiffBoxOnDefaultVbdAndAvbdSettingsFallsAtG) {
  for (float youngs : {1e8f, 1e9f})
  for (SolverKind kind : {SolverKind::Vbd, SolverKind::Avbd}) {
    const Scene scene = presetScene("drop", youngs);
    SolverSettings settings;  // defaults, as a user gets them
    settings.solver = kind;
    settings.step.constraints.collisions = false;
    State state;
    auto solver = startRun(scene, kind, state);
    const double y0 = comY(scene.model, state);
    StepDiagnostics diag;
    for (int f = 1; f <= 60; ++f) {
      stepSimulation(scene.model, settings, *solver, state, diag);
      ASSERT_TRUE(diag.finite) << diag.problem;
      if (f == 6 || f == 60) {
        const double expected = discreteDrop(settings.step, f, settings.step.substeps);
        const double drop = y0 - comY(scene.model, state);
        std::printf("[ measured ] %s stiff ball E=%.0e, defaults, %d frames: %.5f m (closed form %.5f)\n",
                    kind == SolverKind::Vbd ? "VBD" : "AVBD", double(youngs), f, drop, expected);
        EXPECT_NEAR(drop / expected, 1.0, 0.01) << int(kind) << " at frame " << f;
      }
    }
  }
}

// Largest rise of the total energy above its start, relative to m g L (L = the
// body's size, 1 m scale), over the first and the second half of an undamped
// XPBD run at a fixed substep count. XPBD is dissipative when stable: after the
// first-frame transient (its O(h) overshoot) the energy does not climb again.
struct EnergyRise {
  double firstHalf = 0.0, secondHalf = 0.0;
  // 1e-5 m g L: the float noise of a stiff body at rest (positions held within an
  // ulp of equilibrium move at ulp/h, common/step_integrate.clh).
  bool bounded() const { return std::isfinite(secondHalf) && secondHalf <= 1.05 * firstHalf + 1e-5 && firstHalf < 0.1; }
};

EnergyRise xpbdEnergyRise(const Scene& scene, int substeps, double seconds) {
  SolverSettings settings = scene.settings;
  settings.solver = SolverKind::Xpbd;
  settings.step.substeps = substeps;
  settings.step.iterations = 1;
  State state;
  auto solver = startRun(scene, SolverKind::Xpbd, state);
  double mass = 0.0;
  for (float m : scene.model.mass) mass += m;
  const double scale = mass * 9.81 * 1.0;
  const double e0 = computeEnergy(scene.model, settings, state).total();
  EnergyRise rise;
  StepDiagnostics diag;
  const int frames = int(seconds / settings.step.dt);
  for (int f = 0; f < frames; ++f) {
    stepSimulation(scene.model, settings, *solver, state, diag);
    if (!diag.finite) return {INFINITY, INFINITY};
    double& worst = f < frames / 2 ? rise.firstHalf : rise.secondHalf;
    worst = std::max(worst, (diag.energy.total() - e0) / scale);
  }
  return rise;
}

// The rule's calibration points (xpbd_solver.h): the beam preset at E = 1e8
// (undamped, 1 iteration) is unbounded at 75 substeps (measured rise 145 m g L,
// 14 at 80, 5.6 at 82) and bounded from 85 on; at the preset's E = 1e7 and 4
// iterations, 30 gains energy over 20,000 frames and 35 does not (the long run
// is tests/gpu/xpbd_beam_energy_gpu_test.cpp). The rule must ask for at least
// 85 and 35 there and, to cost no needless substeps, no more than 1.3 times
// those (the old rule asked for 218 at 1e8). The same rule keeps the hang preset at E = 1e8 bounded with
// the count it asks for. (The drop preset is left out: after its ground
// impacts a stiff XPBD ball gains energy at some counts, 143 and 190, but not
// at 150-180 or 200+, which is not the shear limit; see the issue note.)
TEST(StiffFidelity, XpbdNeoHookeanSubstepRuleMatchesTheBeam) {
  const Scene beam = presetScene("beam", 1e8f);
  SolverSettings settings = beam.settings;
  settings.solver = SolverKind::Xpbd;
  const XpbdSubstepPlan plan = planXpbdSubsteps(beam.model, settings);
  std::printf("[ measured ] beam E=1e8: XPBD rule asks %d substeps (h_max %.3g s)\n", plan.needed, plan.limit);
  EXPECT_LE(plan.needed, 110);
  EXPECT_GE(plan.needed, 85);
  {
    const Scene preset = presetScene("beam", 1e7f);
    SolverSettings s = preset.settings;
    s.solver = SolverKind::Xpbd;
    const int needed = planXpbdSubsteps(preset.model, s).needed;
    std::printf("[ measured ] beam E=1e7: XPBD rule asks %d substeps\n", needed);
    EXPECT_GE(needed, 35);
    EXPECT_LE(needed, 45);
  }
  for (int substeps : {85, plan.needed}) {
    const EnergyRise r = xpbdEnergyRise(beam, substeps, 2.0);
    std::printf("[ measured ] beam E=1e8, %d substeps: rise %.3g then %.3g m g L\n", substeps, r.firstHalf,
                r.secondHalf);
    EXPECT_TRUE(r.bounded()) << substeps << " substeps";
  }
  const EnergyRise low = xpbdEnergyRise(beam, 75, 2.0);
  EXPECT_GT(low.firstHalf, 1.0) << "75 substeps are below the limit: the run must blow up, or the test cannot see it";
  {
    const char* name = "hang";
    const Scene scene = presetScene(name, 1e8f);
    SolverSettings s = scene.settings;
    s.solver = SolverKind::Xpbd;
    const int needed = planXpbdSubsteps(scene.model, s).needed;
    const EnergyRise r = xpbdEnergyRise(scene, needed, 2.0);
    std::printf("[ measured ] %s E=1e8, %d substeps: rise %.3g then %.3g m g L\n", name, needed, r.firstHalf,
                r.secondHalf);
    EXPECT_TRUE(r.bounded()) << name;
  }
}

// A stiff slab at rest, translated 0.6 m from the origin, has no elastic energy;
// float positions round each coordinate by at most eps = ulp(1 m) / 2 = 6e-8 m,
// a strain of at most 4 eps / a_min per tet (a_min the smallest rest edge), so
// the energy is at most V (mu + lambda) (4 eps / a_min)^2 summed over the tets.
// The direct form of the density cancelled at F = I and read 0.012 J.
TEST(StiffFidelity, ElasticEnergyOfAFrozenStiffSlabIsRoundingSized) {
  const Scene scene = presetScene("hang", 1e8f);
  SolverSettings settings = scene.settings;
  State state = makeSceneState(scene);
  for (glm::vec4& x : state.x) x += glm::vec4(0.3f, 0.6f, 0.2f, 0.0f);
  float aMin = INFINITY;
  for (float l : scene.model.restLength) aMin = std::min(aMin, l);
  const NeoHookeanParameters nh = neoHookeanFromMaterial(scene.model.materials[0]);
  double volume = 0.0;
  for (float v : scene.model.restVolume) volume += v;
  const double eps = 0.5 * 1.1920929e-7;
  const double strain = 4.0 * eps / aMin;
  const double bound = volume * (double(nh.mu) + double(nh.lambda)) * strain * strain;
  const double elastic = computeElasticEnergy(scene.model, settings, state);
  std::printf("[ measured ] frozen slab E=1e8: elastic %.3g J (bound %.3g J)\n", elastic, bound);
  EXPECT_LT(std::fabs(elastic), bound);
}

}  // namespace
}  // namespace tetlab
