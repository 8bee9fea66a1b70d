// The cloth membrane (core/model/cloth_membrane.h) on the four CPU solvers,
// against plane-stress elasticity:
//  - a strip hanging under its own weight (nu = 0) lengthens by
//    rho g L^2 / (2 E): its tension grows linearly from the free end, so the
//    mean strain is half of rho g L / E; thickness and width cancel;
//  - a strip stretched by eps between two clamped ends narrows in its middle
//    by nu eps (uniaxial plane stress; the clamps' hold on the width decays
//    within about a width, and the middle is two widths away) with the
//    material's own nu, where the edge springs narrow it by their fixed 1/3.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

constexpr float kG = 9.81f;
// E h = 10 N/m: a soft fabric, where the position-based solvers converge at 10
// substeps x 10-20 iterations (stiffer, XPBD's answer is softer than the
// material's: see XpbdAtStiffSettingsShowsItsConvergenceGap below).
constexpr float kSoftYoungs = 1.0e4f;

SimModel strip(glm::vec2 size, glm::uvec2 cells, const Material& material, bool vertical) {
  SurfaceMesh patch = makeClothPatch(glm::vec3(-0.5f * size.x, 0.0f, -0.5f * size.y), size, cells);
  if (vertical)  // the patch's z becomes the height below y = 1: the strip hangs in the xy plane
    for (glm::vec3& p : patch.positions) p = glm::vec3(p.x, 1.0f - (p.z + 0.5f * size.y), 0.0f);
  return phystest::buildCloth(patch, material, "strip");
}

SolverSettings quasiStatic(SolverKind kind) {
  SolverSettings s;
  s.solver = kind;
  s.step.dt = 1.0f / 60.0f;
  s.step.substeps = 10;
  s.step.iterations = 10;
  s.step.velocityDamping = 4.0f;  // settles the strip: transients decay by e^-4 per second
  s.step.constraints.neoHookean = false;
  s.step.constraints.collisions = false;
  return s;
}

void run(const SimModel& model, const SolverSettings& settings, State& state, int frames) {
  auto solver = makeCpuSolver(settings.solver);
  solver->reset(model, state);
  StepDiagnostics diag;
  for (int f = 0; f < frames; ++f) {
    stepSimulation(model, settings, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << "frame " << f << ": " << diag.problem;
  }
}

class ClothMembraneStatics : public testing::TestWithParam<SolverKind> {};

TEST_P(ClothMembraneStatics, HangingStripLengthensByRhoGLSquaredOverTwoE) {
  const float L = 0.5f;
  Material m;
  m.youngsModulus = kSoftYoungs;
  m.poissonRatio = 0.0f;
  m.density = 10.0f;  // 10 g/m^2 at 1 mm: the strain rho g L / E = 0.5 % at the pins
  m.thickness = 1.0e-3f;
  m.bendingStiffness = 0.0f;  // a pure membrane: nothing else holds the strip's shape
  const SimModel model = strip(glm::vec2(0.1f, L), glm::uvec2(4, 20), m, true);
  State state = makeState(model);
  ASSERT_EQ(pinVertices(model, state, [](glm::vec3 p) { return p.y > 1.0f - 1e-4f; }), 5u);
  run(model, quasiStatic(GetParam()), state, 360);
  double drop = 0.0;
  int bottom = 0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.restPositions[i].y < 1.0f - L + 1e-4f) {
      drop += double(model.restPositions[i].y - state.x[i].y);
      ++bottom;
    }
  ASSERT_EQ(bottom, 5);
  drop /= bottom;
  const double expected = double(m.density) * kG * L * L / (2.0 * m.youngsModulus);
  std::printf("[ measured ] %s: free end lowered by %.4e m, rho g L^2 / (2 E) = %.4e m (ratio %.3f)\n",
              phystest::solverName(GetParam()), drop, expected, drop / expected);
  if (GetParam() == SolverKind::Pbd) {
    // PBD's stiffness is a per-iteration fraction (pbd_params.h), not the material's: only the order of magnitude.
    EXPECT_GT(drop, 0.3 * expected);
    EXPECT_LT(drop, 3.0 * expected);
  } else {
    EXPECT_NEAR(drop, expected, 0.03 * expected);
  }
}

// Middle width of a strip pulled to (1 + eps) its length, zero gravity.
double contractionRatio(SolverKind kind, float nu, bool membrane, float youngs = kSoftYoungs) {
  const glm::vec2 size(0.4f, 0.1f);
  Material m;
  m.youngsModulus = youngs;
  m.poissonRatio = nu;
  m.density = 200.0f;
  m.thickness = 1.0e-3f;
  const SimModel model = strip(size, glm::uvec2(32, 8), m, false);
  State state = makeState(model);
  const float half = 0.5f * size.x;
  pinVertices(model, state, [&](glm::vec3 p) { return std::fabs(p.x) > half - 1e-4f; });
  const float eps = 0.01f;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    state.x[i].x *= 1.0f + eps;  // start stretched: only the width has to settle
    state.xPrev[i] = state.x[i];
  }
  SolverSettings s = quasiStatic(kind);
  s.step.gravity = glm::vec3(0.0f);
  s.step.iterations = 20;
  s.step.constraints.membrane = membrane;
  run(model, s, state, 160);
  float zMin = 1.0f, zMax = -1.0f;
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (std::fabs(model.restPositions[i].x) < 1e-4f) {
      zMin = std::min(zMin, state.x[i].z);
      zMax = std::max(zMax, state.x[i].z);
    }
  return -(double(zMax - zMin) / size.y - 1.0) / eps;
}

TEST_P(ClothMembraneStatics, StretchedStripNarrowsByTheMaterialsPoissonRatio) {
  double previous = -1.0;
  for (float nu : {0.0f, 0.45f}) {
    const double ratio = contractionRatio(GetParam(), nu, true);
    std::printf("[ measured ] %s membrane, nu %.2f: middle narrows by %.3f eps\n", phystest::solverName(GetParam()),
                nu, ratio);
    if (GetParam() == SolverKind::Pbd) {
      // PBD's per-iteration stiffness fractions do not keep the two moduli's ratio: nu = 0 stays 0 and a
      // larger nu narrows more, no more than that (measured 0 at nu = 0, 0.22 at 0.3, 0.33 at 0.45).
      EXPECT_GT(ratio, previous + (nu > 0.0f ? 0.05 : 0.0)) << "nu " << nu;
      if (nu == 0.0f) EXPECT_NEAR(ratio, 0.0, 0.02);
    } else {
      EXPECT_NEAR(ratio, nu, 0.02 + 0.05 * nu) << "nu " << nu;
    }
    previous = ratio;
  }
  // Control: the edge springs cannot take the material's nu: they narrow the strip alike for every nu
  // (nu only enters the plate bending D, which the flat strip hardly feels).
  const double springs0 = contractionRatio(GetParam(), 0.0f, false), springs45 = contractionRatio(GetParam(), 0.45f, false);
  std::printf("[ measured ] %s edge springs: middle narrows by %.3f eps at nu 0 and %.3f at nu 0.45\n",
              phystest::solverName(GetParam()), springs0, springs45);
  EXPECT_NEAR(springs0, springs45, 0.005);
  EXPECT_GT(springs0, 0.15) << "a spring net has its own Poisson ratio, whatever the material's";
}

// The rule docs/solvers.md gives for XPBD cloth: at E h = 1 kN/m, 10 substeps x
// 20 iterations leave XPBD short of the membrane's equilibrium (measured
// 0.25 eps against nu = 0.3), and the compliant-energy probe says so: the
// multipliers carry less energy than the deformation implies.
TEST(ClothMembraneXpbd, AtStiffSettingsShowsItsConvergenceGap) {
  const double soft = contractionRatio(SolverKind::Xpbd, 0.3f, true);
  const double stiff = contractionRatio(SolverKind::Xpbd, 0.3f, true, 1.0e6f);
  std::printf("[ measured ] XPBD membrane, nu 0.30: narrows by %.3f eps at E h = 10 N/m, %.3f at 1 kN/m\n", soft, stiff);
  EXPECT_NEAR(soft, 0.3, 0.035);
  EXPECT_GT(std::fabs(stiff - 0.3), 0.03) << "if XPBD now converges here, retire this test and the docs' rule";
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, ClothMembraneStatics,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

}  // namespace
}  // namespace tetlab
