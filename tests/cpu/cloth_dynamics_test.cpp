// Cloth on the four CPU solvers: a horizontal sheet held along one edge swings
// down and hangs. With no bending stiffness the only length scale is the
// sheet's: hanging, its far edge lies L below the pins, lengthened by its own
// weight by L rho g L / (2 E) (a strip whose tension grows linearly from the
// free edge: mean strain half of rho g L / E; 0.04 % here). The bound
// for a hanging strand, 1 % of L, is the tolerance.
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
constexpr float kPinY = 1.0f;  // [m]

SimModel sheet(const Material& material) {
  const SurfaceMesh patch =
      makeClothPatch(glm::vec3(-0.5f * kSide, kPinY, 0.0f), glm::vec2(kSide), glm::uvec2(10, 10));
  return phystest::buildCloth(patch, material, "sheet");
}

Material clothMaterial() {
  Material m;
  m.youngsModulus = 1.0e6f;  // E h = 1 kN/m: a stiff knit
  m.thickness = 1.0e-3f;
  m.density = 200.0f;        // 0.2 kg/m^2
  return m;
}

class ClothHang : public testing::TestWithParam<SolverKind> {};

TEST_P(ClothHang, SheetHeldAlongOneEdgeHangsItsLengthBelowThePins) {
  const Material material = clothMaterial();
  const SimModel model = sheet(material);
  State state = makeState(model);
  const uint32_t pinned = pinVertices(model, state, [](glm::vec3 p) { return p.z < 1e-4f; });
  ASSERT_EQ(pinned, 11u);
  SolverSettings settings;
  settings.solver = GetParam();
  settings.step.dt = 1.0f / 60.0f;
  settings.step.substeps = 10;
  settings.step.iterations = 10;
  settings.step.velocityDamping = 2.0f;  // the swing decays by e^-10 over the run
  settings.step.constraints.neoHookean = false;
  settings.step.constraints.collisions = false;
  auto solver = makeCpuSolver(settings.solver);
  solver->reset(model, state);
  StepDiagnostics diag;
  for (int f = 0; f < 300; ++f) {
    stepSimulation(model, settings, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << "frame " << f << ": " << diag.problem;
  }
  float lowest = kPinY, maxStretch = 0.0f, maxDepth = 0.0f;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    lowest = std::min(lowest, state.x[i].y);
    maxDepth = std::max(maxDepth, std::fabs(state.x[i].z));
  }
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const glm::uvec2 ed = model.edges[e];
    const float l = glm::length(glm::vec3(state.x[ed.x]) - glm::vec3(state.x[ed.y]));
    maxStretch = std::max(maxStretch, l / model.restLength[e] - 1.0f);
  }
  const double g = 9.81;
  const double expected = kSide * (1.0 + material.density * g * kSide / (2.0 * material.youngsModulus));
  std::printf("  %s: far edge %.4f m below the pins (expected %.4f), max edge stretch %.3g %%, max |z| %.3g m\n",
              phystest::solverName(GetParam()), kPinY - lowest, expected, 100.0 * maxStretch, maxDepth);
  EXPECT_NEAR(kPinY - lowest, expected, 0.01 * kSide);
  // The sheet swung down into the plane of its pins (it started across it: |z|
  // up to L). Not flat to the millimetre: a membrane without bending stiffness
  // wrinkles wherever it is compressed, and the pinned edge stops the lateral
  // (Poisson) contraction of the stretched sheet below it (4-6 mm measured).
  EXPECT_LT(maxDepth, 0.025 * kSide) << "the settled sheet hangs in the plane of its pins";
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, ClothHang,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

}  // namespace
}  // namespace tetlab
