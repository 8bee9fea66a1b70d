// VBD/AVBD's adaptive initial guess on a body held by pins
// (shaders/cl/common/vbd_initial_guess.clh): the pins do not take the guess's
// h^2 g, so it strains the elements next to them and an under-converged solve
// keeps part of that as energy. A held body starts from inertia instead. The
// beam preset (clamped at one end, VBD at its 10 x 4) gained 36.8 J over 5 s
// with the adaptive guess, against a rise tolerance of 1.58 J (1 % of its energy
// scale, core/sim/convergence.h); an unforced run may not gain more than that.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "tests/preset_files.h"
#include "core/scene/enum_names.h"
#include "core/sim/convergence.h"
#include "core/sim/energy.h"
#include "core/sim/held_bodies.h"
#include "core/sim/solver.h"
#include "core/sim/stepper.h"

namespace tetlab {
namespace {

TEST(HeldBodies, EveryVertexOfABodyWithAPinIsHeldAndNoOther) {
  Result<SceneDesc> desc = test::loadPresetDesc("pile.json");  // five free bodies
  ASSERT_TRUE(desc.ok());
  Result<BuiltScene> built = test::buildPresetDesc(*desc);
  ASSERT_TRUE(built.ok());
  const SimModel& model = built->scene.model;
  State state = makeInitialState(*built);
  std::vector<uint8_t> held;
  markHeldVertices(model, state.x, held);
  ASSERT_EQ(held.size(), model.vertexCount());
  EXPECT_EQ(std::count(held.begin(), held.end(), 1), 0) << "no pins, nothing held";
  // Pin one vertex of the second body: that body, and only it, is held.
  uint32_t first = 0;
  while (model.vertexBody[first] != 1) ++first;
  state.x[first].w = 0.0f;
  markHeldVertices(model, state.x, held);
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    ASSERT_EQ(held[i], model.vertexBody[i] == 1 ? 1 : 0) << "vertex " << i;
}

class HeldBeam : public ::testing::TestWithParam<SolverKind> {};

TEST_P(HeldBeam, ClampedBeamGainsNoEnergyAtThePresetBudget) {
  Result<SceneDesc> desc = test::loadPresetDesc("beam.json");
  ASSERT_TRUE(desc.ok());
  Result<BuiltScene> built = test::buildPresetDesc(*desc);
  ASSERT_TRUE(built.ok());
  const SimModel& model = built->scene.model;
  SolverSettings s = built->scene.settings;
  s.solver = GetParam();
  ASSERT_EQ(s.vbd.initialGuess, VbdInitialGuess::Adaptive) << "the default the rule applies to";
  ASSERT_EQ(s.avbd.primal.initialGuess, VbdInitialGuess::Adaptive);
  State state = makeInitialState(*built);
  auto solver = makeCpuSolver(s.solver);
  solver->reset(model, state);
  const EnergyReport e0 = computeEnergy(model, s, state);
  const double tolerance = kEnergyRiseTolerance * sceneEnergyScale(model, s.step, e0);
  double highest = e0.total();
  for (int f = 0; f < 300; ++f) {  // 5 s: several periods of the beam's first mode
    StepDiagnostics diag;
    stepSimulation(model, s, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << diag.problem;
    highest = std::max(highest, computeEnergy(model, s, state).total());
  }
  std::printf("[ measured ] beam on %s (%d x %d): energy +%.4g J at most (tolerance %.4g J)\n", solverName(s.solver),
              s.step.substeps, s.step.iterations, highest - e0.total(), tolerance);
  EXPECT_LE(highest - e0.total(), tolerance);
}

INSTANTIATE_TEST_SUITE_P(VbdFamily, HeldBeam, ::testing::Values(SolverKind::Vbd, SolverKind::Avbd),
                         [](const auto& info) { return std::string(solverName(info.param)); });

}  // namespace
}  // namespace tetlab
