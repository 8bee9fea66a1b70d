// Long-range attachments (Kim, Chentanez, Mueller 2012; shaders/cl/common/tether.clh)
// on all four CPU solvers: a soft sheet (E h = 20 N/m) held at the two
// corners of one edge stretches under its own weight, most near the pins
// (17-19 % on every solver). With tethers on (no slack) no vertex gets farther
// from its nearest pin than at rest: that is what an LRA bounds, exactly. It
// does not bound each edge (two vertices each within reach of a corner may
// still pull apart across the sagging top edge), so the edges' stretch is
// asserted to drop by more than half (measured: to 5-5.5 %). A stiffer cloth
// (E h = 300 N/m) stays under 1 % with tethers: the second test.
#include <gtest/gtest.h>

#include <cmath>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

constexpr float kSide = 0.4f;  // [m]

struct Hang {
  float maxStretch = 0.0f;  // largest edge strain [-]
  float maxReach = 0.0f;    // largest distance to the nearest pin over its rest value, minus 1 [-]
};

Hang hangSheet(SolverKind kind, bool tethers, float youngs) {
  const SurfaceMesh patch = makeClothPatch(glm::vec3(-0.5f * kSide, 1.0f, 0.0f), glm::vec2(kSide), glm::uvec2(10, 10));
  BodyDesc body = clothBody(patch);
  body.material.youngsModulus = youngs;
  body.material.thickness = 1.0e-3f;
  body.material.density = 200.0f;
  body.name = "sheet";
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(built.ok()) << built.error().message;
  const SimModel& model = *built;
  State state = makeState(model);
  std::vector<uint32_t> pins;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::vec3 p = model.restPositions[i];
    if (p.z < 1e-4f && std::fabs(std::fabs(p.x) - 0.5f * kSide) < 1e-4f) pins.push_back(i);
  }
  EXPECT_EQ(pins.size(), 2u);
  pinVertices(state, pins);
  SolverSettings settings;
  settings.solver = kind;
  settings.step.dt = 1.0f / 60.0f;
  settings.step.substeps = 10;
  settings.step.iterations = 10;
  settings.step.velocityDamping = 2.0f;
  settings.step.constraints.neoHookean = false;
  settings.step.constraints.collisions = false;
  settings.step.constraints.tethers = tethers;
  settings.positionBased.tetherSlack = 0.0f;
  auto solver = makeCpuSolver(kind);
  solver->reset(model, state);
  StepDiagnostics diag;
  for (int f = 0; f < 300; ++f) {
    stepSimulation(model, settings, *solver, state, diag);
    EXPECT_TRUE(diag.finite) << diag.problem;
    if (!diag.finite) break;
  }
  Hang out;
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const glm::uvec2 ed = model.edges[e];
    const float l = glm::length(glm::vec3(state.x[ed.x]) - glm::vec3(state.x[ed.y]));
    out.maxStretch = std::max(out.maxStretch, l / model.restLength[e] - 1.0f);
  }
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    // Against the nearest pin; on the sheet's mirror line both pins are nearest
    // (the tether holds to one of them), so the smaller excess counts.
    float rest = INFINITY;
    for (uint32_t p : pins) rest = std::min(rest, glm::length(model.restPositions[i] - model.restPositions[p]));
    if (!(rest > 0.0f)) continue;
    float reach = INFINITY;
    for (uint32_t p : pins)
      if (glm::length(model.restPositions[i] - model.restPositions[p]) <= rest * (1.0f + 1e-6f))
        reach = std::min(reach, glm::length(glm::vec3(state.x[i]) - glm::vec3(state.x[p])) / rest - 1.0f);
    out.maxReach = std::max(out.maxReach, reach);
  }
  return out;
}

class ClothTethers : public testing::TestWithParam<SolverKind> {};

TEST_P(ClothTethers, KeepASoftSheetHeldAtTwoCornersFromStretching) {
  const Hang free = hangSheet(GetParam(), false, 2.0e4f);
  const Hang tethered = hangSheet(GetParam(), true, 2.0e4f);
  std::printf("  %s: max edge stretch %.2f %% without tethers, %.2f %% with; farthest from its pin +%.2f %% / +%.2f %%\n",
              phystest::solverName(GetParam()), 100.0 * free.maxStretch, 100.0 * tethered.maxStretch,
              100.0 * free.maxReach, 100.0 * tethered.maxReach);
  EXPECT_LT(tethered.maxReach, 1e-4f) << "no vertex farther from its pin than at rest (slack 0)";
  EXPECT_LT(tethered.maxStretch, 0.5f * free.maxStretch) << "tethers take most of the stretch out";
  EXPECT_GT(free.maxStretch, 0.05f) << "without tethers the soft sheet stretches visibly";
}

// The bar: a cloth of E h = 300 N/m (a light knit; woven cotton is
// stiffer still) held at two corners settles with every edge within 1 % of its
// rest length when tethered, and visibly longer without (measured: 0.2-0.5 %
// with, 1.3-2.9 % without).
TEST_P(ClothTethers, HoldAClothHeldAtTwoCornersUnderOnePercentStretch) {
  const Hang free = hangSheet(GetParam(), false, 3.0e5f);
  const Hang tethered = hangSheet(GetParam(), true, 3.0e5f);
  std::printf("  %s: max edge stretch %.2f %% without tethers, %.2f %% with\n", phystest::solverName(GetParam()),
              100.0 * free.maxStretch, 100.0 * tethered.maxStretch);
  EXPECT_LT(tethered.maxStretch, 0.01f);
  EXPECT_GT(free.maxStretch, 0.01f) << "without tethers the same cloth stretches past 1 %";
  EXPECT_GT(free.maxStretch, 2.0f * tethered.maxStretch) << "and visibly more than with them";
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, ClothTethers,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

}  // namespace
}  // namespace tetlab
