// Cloth triangles as two-sided body-contact targets (core/sim/body_contact_detection.cpp,
// body_contact_sheet_side): a soft box dropped onto a sheet held at its four
// corners is caught and rests in it, on all four CPU solvers. Before sheets
// were contact targets the box fell straight through (only the sheet's
// vertices met the box's faces, and the box's vertices are where it lands).
// Caught means: no box vertex ends more than the contact thickness below the
// sheet's lowest point, and the box has stopped (it weighs 1 kg on a sheet of
// 72 g; the membrane E h = 1 kN/m sags a few centimetres under it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

constexpr float kSheetY = 0.5f;  // [m]
constexpr float kHalf = 0.3f;    // half the sheet's side [m]

SimModel boxOverSheet() {
  std::vector<BodyDesc> bodies;
  Material box;
  box.youngsModulus = 1.0e5f;
  box.density = 1000.0f;  // 0.1 m cube: 1 kg
  bodies.push_back(BodyDesc{makeBoxTetMesh(glm::vec3(-0.05f, kSheetY + 0.02f, -0.05f), glm::vec3(0.1f),
                                           glm::uvec3(2)),
                            box, "box"});
  const SurfaceMesh patch = makeClothPatch(glm::vec3(-kHalf, kSheetY, -kHalf), glm::vec2(2.0f * kHalf),
                                           glm::uvec2(12, 12));
  BodyDesc sheet = clothBody(patch);
  sheet.material.youngsModulus = 1.0e6f;
  sheet.material.thickness = 1.0e-3f;
  sheet.material.density = 200.0f;
  sheet.name = "sheet";
  bodies.push_back(std::move(sheet));
  auto built = buildSimModel(bodies);
  EXPECT_TRUE(built.ok()) << built.error().message;
  return std::move(built).value();
}

class ClothCatch : public testing::TestWithParam<SolverKind> {};

TEST_P(ClothCatch, SheetHeldAtItsCornersCatchesADroppedBox) {
  const SimModel model = boxOverSheet();
  State state = makeState(model);
  const uint32_t pinned = pinVertices(model, state, [](glm::vec3 p) {
    return std::fabs(std::fabs(p.x) - kHalf) < 1e-4f && std::fabs(std::fabs(p.z) - kHalf) < 1e-4f;
  });
  ASSERT_EQ(pinned, 4u);
  SolverSettings settings;
  settings.solver = GetParam();
  settings.step.dt = 1.0f / 60.0f;
  settings.step.substeps = 10;
  settings.step.iterations = 8;
  settings.step.velocityDamping = 3.0f;  // the hammock's bounce (~1.5 m/s at most) decays by e^-6
  settings.step.constraints.collisions = false;  // no ground: a box that passes the sheet falls for ever
  settings.step.constraints.bodyContacts = true;
  settings.bodyContacts.thickness = 0.003f;
  settings.bodyContacts.searchRadius = 0.02f;
  // VBD's body contacts are penalties k = kappa m_c / h^2 scaled by the contact's
  // effective mass m_c, here a cloth vertex's (~70 times lighter than a box
  // vertex). Landing at v = sqrt(2 g d) the box vertex must be stopped within
  // the thickness in a substep: penetration (m_box / m_c) v h / kappa < thickness,
  // so kappa >= (m_box / m_c) v h / thickness (docs/solvers_vbd_avbd.md). AVBD's
  // multiplier carries the load at any kappa; it gets the same value.
  double boxMass = 0.0, clothMass = 0.0;
  uint32_t boxVertices = 0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    if (model.isCloth(model.vertexBody[i])) {
      clothMass += model.mass[i];
    } else {
      boxMass += model.mass[i];
      ++boxVertices;
    }
  }
  const double meanBox = boxMass / boxVertices, meanCloth = clothMass / (model.vertexCount() - boxVertices);
  const double landing = std::sqrt(2.0 * 9.81 * 0.02), h = settings.step.dt / settings.step.substeps;
  const float kappa = float(meanBox / meanCloth * landing * h / settings.bodyContacts.thickness);
  settings.vbd.bodyContactStiffness = std::max(settings.vbd.bodyContactStiffness, kappa);
  settings.avbd.primal.bodyContactStiffness = settings.vbd.bodyContactStiffness;
  auto solver = makeCpuSolver(settings.solver);
  solver->reset(model, state);
  StepDiagnostics diag;
  for (int f = 0; f < 120; ++f) {
    stepSimulation(model, settings, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << "frame " << f << ": " << diag.problem;
  }
  float boxLowest = INFINITY, sheetLowest = INFINITY, boxSpeed = 0.0f;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    if (model.isCloth(model.vertexBody[i])) {
      sheetLowest = std::min(sheetLowest, state.x[i].y);
    } else {
      boxLowest = std::min(boxLowest, state.x[i].y);
      boxSpeed = std::max(boxSpeed, glm::length(glm::vec3(state.v[i])));
    }
  }
  std::printf("  %s: box lowest %.4f m, sheet lowest %.4f m (sag %.3f m), box speed %.3g m/s, kappa %.1f\n",
              phystest::solverName(GetParam()), boxLowest, sheetLowest, kSheetY - sheetLowest, boxSpeed,
              settings.vbd.bodyContactStiffness);
  EXPECT_GT(boxLowest, sheetLowest - settings.bodyContacts.thickness) << "the box went through the sheet";
  EXPECT_LT(kSheetY - sheetLowest, 0.25f) << "the sheet holds the box (a box through it would leave it flat)";
  EXPECT_GT(kSheetY - sheetLowest, 0.005f) << "the box's weight bends the sheet down";
  EXPECT_LT(boxSpeed, 0.1f) << "the box rests in the sheet";
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, ClothCatch,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

}  // namespace
}  // namespace tetlab
