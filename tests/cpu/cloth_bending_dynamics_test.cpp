// Cloth bending on the four CPU solvers: a strip clamped at one end (its first
// two columns of vertices pinned) droops under its own weight like a
// cantilever. Euler-Bernoulli with the strip's bending stiffness D w and load
// q = rho h g w per length gives the tip deflection
//
//   delta(L) = q L^4 / (8 D w) = rho h g L^4 / (8 D),   L: from the clamp to the tip,
//
// independent of the width (a strip bent cylindrically along the patch's grid
// axis stores D/2 k^2 per area: cloth_bending.h). The discrete clamp lies
// somewhere in the pinned cell (the hinges across the second pinned column
// see the first free one), so the droop must lie between delta(L - a) and
// delta(L), a the cell size. The model is linear in D: quadrupling D divides
// the droop by 4 (to 5 %: the small-deflection theory's error is O((delta/L)^2),
// under 1 % here, plus the solvers' remaining iteration error). With bending
// off the strip hangs down. PBD's stiffness is a per-projection fraction
// (pbd_params.h), not the material's: for PBD only the order (4D droops less
// than D, which droops less than none) is the physics.
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

constexpr float kLength = 0.2f, kWidth = 0.08f;  // [m]
constexpr uint32_t kCells = 10, kWidthCells = 4;
constexpr float kCell = kLength / float(kCells);
constexpr float kY = 1.0f;
constexpr float kD = 0.02f;  // [N m]: a stiff plastic sheet, droop ~9 % of its length

Material stripMaterial(float D) {
  Material m;
  m.youngsModulus = 1.0e7f;  // E h = 10 kN/m: the membrane stretches 1e-5
  m.thickness = 1.0e-3f;
  m.density = 200.0f;        // 0.2 kg/m^2
  m.bendingStiffness = D;
  return m;
}

// Tip droop [m] after settling (the strip starts flat and level).
float tipDroop(SolverKind kind, float D, bool bending) {
  const SurfaceMesh patch = makeClothPatch(glm::vec3(0.0f, kY, 0.0f), glm::vec2(kLength, kWidth), glm::uvec2(kCells, kWidthCells));
  BodyDesc body = clothBody(patch);
  body.material = stripMaterial(D);
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(built.ok()) << built.error().message;
  const SimModel& model = *built;
  State state = makeState(model);
  EXPECT_EQ(pinVertices(model, state, [](glm::vec3 p) { return p.x < kCell + 1e-4f; }), 2u * (kWidthCells + 1));
  SolverSettings settings;
  settings.solver = kind;
  settings.step.dt = 1.0f / 60.0f;
  // Converged budgets (10 x 10 leaves XPBD and VBD up to 2x too soft at 4 D):
  // the position-based solvers converge with substeps, the VBD family with iterations.
  const bool positionBased = kind == SolverKind::Pbd || kind == SolverKind::Xpbd;
  settings.step.substeps = positionBased ? 50 : 10;
  settings.step.iterations = positionBased ? 10 : 50;
  settings.step.velocityDamping = 4.0f;  // the first mode (~5 Hz) settles within the 4 s run (e^-16)
  settings.step.constraints.neoHookean = false;
  settings.step.constraints.collisions = false;
  settings.step.constraints.bending = bending;
  auto solver = makeCpuSolver(kind);
  solver->reset(model, state);
  StepDiagnostics diag;
  for (int f = 0; f < 240; ++f) {
    stepSimulation(model, settings, *solver, state, diag);
    EXPECT_TRUE(diag.finite) << "frame " << f << ": " << diag.problem;
    if (!diag.finite) return 0.0f;
  }
  float tip = 0.0f;
  int n = 0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.restPositions[i].x > kLength - 1e-4f) {
      tip += kY - state.x[i].y;
      ++n;
    }
  return tip / float(n);
}

double cantilever(float D, double L) { return 200.0 * 1e-3 * 9.81 * std::pow(L, 4.0) / (8.0 * D); }

class ClothBendingCantilever : public testing::TestWithParam<SolverKind> {};

TEST_P(ClothBendingCantilever, StripDroopsAsAnEulerBernoulliCantilever) {
  const SolverKind kind = GetParam();
  const float droop = tipDroop(kind, kD, true);
  const float stiffer = tipDroop(kind, 4.0f * kD, true);
  const float none = tipDroop(kind, kD, false);
  const double shortBeam = cantilever(kD, kLength - kCell), longBeam = cantilever(kD, kLength);
  phystest::expectCantileverDroops(kind, droop, stiffer, none, shortBeam, longBeam, kLength - kCell);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, ClothBendingCantilever,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

}  // namespace
}  // namespace tetlab
