// The hair preset (assets/scenes/hair.json) at its own settings, on every
// solver: curly strands clamped on a head, unforced apart from gravity, with a
// drag of 0.5/s. Nothing in the scene adds energy, so the total may not rise
// above its start by more than 1 % of the strands' weight times their length
// (a rise that size is the hair jumping 1 % of its length).
//
// Found by the soak (issue 16): at the preset's former 20 substeps x 5
// iterations every solver let strands of this coil-like hair spin up about
// their roots, tips at 5-40 m/s, the energy climbing by up to 3000 times that
// bound. A tight coil is stiff along its wire and soft as a coil, an
// ill-conditioned solve that few iterations leave unconverged, and what is
// left of a guess that already holds the substep's fall (h^2 g: the XPBD/PBD
// prediction, VBD's adaptive and free-fall guesses) keeps feeding the spin.
// Measured with this test, five strands (+energy / allowed):
//   XPBD 20 x 5: 770x, 30 x 5: 45x, 40 x 5: 0 (the preset).
//   VBD 20 x 5: 54x adaptive guess, 0.006x inertia guess; 40 x 5: 7x adaptive,
//   0.12x inertia. AVBD alike (50x, 0.35x; 7x, 0.6x). A body held by pins now
//   starts from inertia under the adaptive default (core/sim/held_bodies.h).
// Five strands of the preset (the generator's first five roots) show it as the
// sixty do, at a twelfth of the cost.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "tests/preset_files.h"
#include "core/scene/enum_names.h"
#include "core/sim/energy.h"
#include "core/sim/solver.h"
#include "core/sim/stepper.h"

namespace tetlab {
namespace {

class HairPreset : public ::testing::TestWithParam<SolverKind> {};

TEST_P(HairPreset, CurlyStrandsNeverGainEnergy) {
  Result<SceneDesc> desc = test::loadPresetDesc("hair.json");
  ASSERT_TRUE(desc.ok());
  ASSERT_EQ(desc->bodies.size(), 1u);
  desc->bodies[0].hair.strands = 5;
  Result<BuiltScene> built = test::buildPresetDesc(*desc);
  ASSERT_TRUE(built.ok());
  const SimModel& model = built->scene.model;
  SolverSettings s = built->scene.settings;
  s.solver = GetParam();
  ASSERT_TRUE(model.hasStrands());

  double mass = 0.0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) mass += double(model.mass[i]);
  const double allowed = 0.01 * mass * 9.81 * double(desc->bodies[0].hair.length);

  // PBD's stiffness is set by its iteration count, not by the material
  // (docs/solvers.md), so the energy measured with the material's stiffness is
  // not what it conserves while the strands fall and bend (+0.001 J at frame 3
  // whatever the iterations, 5 to 20). It is held from 1 s on, once the hair
  // has fallen and sprung back: the spin-up this test is about came later.
  const int from = s.solver == SolverKind::Pbd ? 60 : 0;
  State state = makeInitialState(*built);
  auto solver = makeCpuSolver(s.solver);
  solver->reset(model, state);
  double start = computeEnergy(model, s, state).dynamicTotal();
  double highest = start, fastest = 0.0;
  // 5 s: the spin-up at 20 x 5 began between 1.3 and 5.6 s on the four solvers.
  for (int f = 0; f < 300; ++f) {
    StepDiagnostics diag;
    stepSimulation(model, s, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << diag.problem;
    const double e = computeEnergy(model, s, state).dynamicTotal();
    if (f + 1 == from) start = highest = e;
    highest = std::max(highest, e);
    if (f >= 60)
      for (const glm::vec4& v : state.v) fastest = std::max(fastest, double(glm::length(glm::vec3(v))));
  }
  std::printf("[ measured ] hair preset, 5 strands on %s (%d x %d): energy +%.3g J at most from frame %d (allowed "
              "%.3g J), fastest point after 1 s %.3g m/s\n",
              solverName(s.solver), s.step.substeps, s.step.iterations, highest - start, from, allowed, fastest);
  EXPECT_LE(highest - start, allowed);
}

INSTANTIATE_TEST_SUITE_P(EverySolver, HairPreset,
                         ::testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         [](const auto& info) { return std::string(solverName(info.param)); });

}  // namespace
}  // namespace tetlab
