// VBD/AVBD's adaptive initial guess on a body fixed by its pins
// (shaders/cl/common/vbd_initial_guess.clh): the pins do not take the guess's
// h^2 g, so it strains the elements next to them and an under-converged solve
// keeps part of that as energy. A held body starts from inertia instead. The
// beam preset (clamped at one end, VBD at its 10 x 4) gained 36.8 J over 5 s
// with the adaptive guess, against a rise tolerance of 1.58 J (1 % of its energy
// scale, core/sim/convergence.h); an unforced run may not gain more than that.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include <glm/geometric.hpp>

#include "tests/preset_files.h"
#include "core/scene/enum_names.h"
#include "core/sim/convergence.h"
#include "core/sim/energy.h"
#include "core/sim/held_bodies.h"
#include "core/sim/solver.h"
#include "core/sim/stepper.h"

namespace tetlab {
namespace {

TEST(HeldBodies, ABodyFixedByItsPinsIsHeldAndOneFreeToSwingIsNot) {
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
  // The second body's vertices, and three of them not on one line.
  std::vector<uint32_t> body;
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.vertexBody[i] == 1) body.push_back(i);
  ASSERT_GE(body.size(), 3u);
  const auto at = [&](uint32_t i) { return glm::vec3(state.x[i]); };
  constexpr uint32_t kNoVertex = ~0u;
  uint32_t a = body[0], b = body[1], c = kNoVertex;
  for (uint32_t i : body)
    if (glm::length(glm::cross(at(b) - at(a), at(i) - at(a))) > 1e-4f) c = i;
  ASSERT_NE(c, kNoVertex);
  // One pin, then two (a hinge line): free to swing, not held.
  state.x[a].w = 0.0f;
  markHeldVertices(model, state.x, held);
  EXPECT_EQ(std::count(held.begin(), held.end(), 1), 0) << "one pin: the body swings about it";
  state.x[b].w = 0.0f;
  markHeldVertices(model, state.x, held);
  EXPECT_EQ(std::count(held.begin(), held.end(), 1), 0) << "two pins: the body swings about their line";
  // A third pin off that line fixes the body: that body, and only it, is held.
  state.x[c].w = 0.0f;
  markHeldVertices(model, state.x, held);
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    ASSERT_EQ(held[i], model.vertexBody[i] == 1 ? 1 : 0) << "vertex " << i;
}

// A steel-stiff bar hinged along one edge must swing like the soft one: with
// an inertia start (the rule for fixed bodies) it did not move at all in
// 0.67 s, at 10 x 4 or 60 x 40, so a hinge keeps the adaptive guess. The bar's
// centre starts 0.2 m out from the hinge; a quarter swing takes ~0.3 s, so by
// 0.67 s it has passed under the hinge (measured 0.2 -> -0.2 m converged).
TEST(HeldBodies, StiffBarOnAHingeSwings) {
  SceneDesc desc;
  BodySpec bar;
  bar.source = BodySource::Box;
  bar.box.min = {0.0f, 0.9f, -0.05f};
  bar.box.size = {0.4f, 0.1f, 0.1f};
  bar.box.cells = {8u, 2u, 2u};
  bar.material.youngsModulus = 1e9f;
  bar.material.density = 1000.0f;
  bar.pins.push_back(PinRegion(glm::vec3(-0.001f, 0.999f, -0.051f), glm::vec3(0.001f, 1.001f, 0.051f)));
  desc.bodies.push_back(bar);
  desc.settings.solver = SolverKind::Vbd;
  desc.settings.colliders.ground.enabled = false;
  Result<BuiltScene> built = test::buildPresetDesc(desc);
  ASSERT_TRUE(built.ok());
  const SimModel& model = built->scene.model;
  const SolverSettings& s = built->scene.settings;
  State state = makeInitialState(*built);
  auto solver = makeCpuSolver(SolverKind::Vbd);
  solver->reset(model, state);
  for (int f = 0; f < 40; ++f) {
    StepDiagnostics diag;
    stepSimulation(model, s, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << diag.problem;
  }
  double mass = 0.0, comX = 0.0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    mass += model.mass[i];
    comX += double(model.mass[i]) * double(state.x[i].x);
  }
  comX /= mass;
  std::printf("[ measured ] stiff hinged bar (VBD %d x %d): centre at x = %.3f m after 0.67 s (started at 0.2 m)\n",
              s.step.substeps, s.step.iterations, comX);
  EXPECT_LT(comX, 0.0) << "the bar hovers instead of swinging under its hinge";
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
