// Contact with the ground plane: a dropped body comes to rest above it, and
// Coulomb friction stops a sliding block within the distance that a constant
// deceleration mu g predicts: d = v0^2 / (2 mu g).
#include <gtest/gtest.h>

#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

using namespace phystest;

class ContactSolver : public testing::TestWithParam<SolverKind> {};

// A soft 10 cm block (E = 1e5 Pa) dropped from 0.5 m (a block, not the drop
// preset's ball, which would keep rolling).
TEST_P(ContactSolver, DroppedBodyComesToRestAboveTheGround) {
  const SimModel model = buildBox({-0.05f, 0.5f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}, Material{1e5f, 0.3f, 1000, 0});
  SolverSettings settings;
  settings.solver = GetParam();
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  float lowest = INFINITY;
  // 3 s: the fall takes 0.32 s; the rest is for the bounce and wobble to stop.
  for (int f = 0; f < 180; ++f) {
    ASSERT_TRUE(run(model, settings, *solver, state, 1, diag));
    lowest = std::min(lowest, minY(state));
  }
  std::printf("%s: lowest vertex ever %.2e m, final max speed %.2e m/s, hard violation %.2e m\n",
              solverName(GetParam()), lowest, maxSpeed(state), diag.maxViolation);
  EXPECT_GT(lowest, -1e-3f);
  // At rest: slower than 1/10 of what 1 mm of free fall gives (sqrt(2 g 1e-3) = 0.14 m/s).
  EXPECT_LT(maxSpeed(state), 0.014);
  EXPECT_LT(centerOfMass(model, state).y, 0.1) << "it fell";
}

INSTANTIATE_TEST_SUITE_P(Solvers, ContactSolver,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         paramName);

// A 10 cm block (E = 1e5 Pa) resting on the ground, launched along +x at
// v0 = 1 m/s, mu = 0.5: it must stop after v0^2 / (2 mu g) = 0.102 m (+-20%).
// Position-based friction (collisions_contacts.cpp) caps the tangential
// correction at mu times the resolved depth, which per substep is the weight's
// h^2 g: exactly the Coulomb impulse. (VBD/AVBD: tests/cpu/vbd_contact_test.cpp.)
class PositionBasedContact : public testing::TestWithParam<SolverKind> {};

TEST_P(PositionBasedContact, FrictionStopsASlidingBlockWhereCoulombSays) {
  const float mu = 0.5f, v0 = 1.0f, g = 9.81f;
  const SimModel model = buildBox({-0.05f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}, Material{1e5f, 0.3f, 1000, 0});
  SolverSettings settings;
  settings.solver = GetParam();
  settings.colliders.ground.friction = mu;
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  // Let the block settle on the ground first (its own weight compresses it a little).
  ASSERT_TRUE(run(model, settings, *solver, state, 30, diag));
  for (auto& v : state.v) v += glm::vec4(v0, 0.0f, 0.0f, 0.0f);
  const double x0 = centerOfMass(model, state).x;
  // Coulomb stopping time v0 / (mu g) = 0.2 s; run 1 s.
  ASSERT_TRUE(run(model, settings, *solver, state, 60, diag));
  const double distance = centerOfMass(model, state).x - x0;
  const double expected = v0 * v0 / (2.0 * mu * g);
  std::printf("%s: slid %.4f m, Coulomb predicts %.4f m (ratio %.3f); final speed %.2e m/s\n",
              solverName(GetParam()), distance, expected, distance / expected, maxSpeed(state));
  EXPECT_NEAR(distance, expected, 0.2 * expected);
  EXPECT_LT(maxSpeed(state), 0.01) << "it stopped";
  EXPECT_GT(minY(state), -1e-3f);
}

INSTANTIATE_TEST_SUITE_P(Solvers, PositionBasedContact, testing::Values(SolverKind::Pbd, SolverKind::Xpbd),
                         paramName);

// The analytic colliders: a block dropped onto a sphere, a rotated box and a
// capsule (ground off) never has a vertex inside the collider beyond 1 mm
// (the sphere and capsule tops are curved, so the block may slide off them;
// on the flat box top it rests).
TEST_P(PositionBasedContact, AnalyticCollidersAreNotPenetrated) {
  for (int type = 0; type < 3; ++type) {
    const SimModel model = buildBox({-0.05f, 0.3f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}, Material{1e5f, 0.3f, 1000, 0});
    SolverSettings settings;
    settings.solver = GetParam();
    settings.colliders.ground.enabled = false;
    if (type == 0) settings.colliders.spheres.push_back({{0.02f, 0.0f, 0.0f}, 0.2f, 0.5f});
    if (type == 1) {
      BoxCollider box;
      box.center = {0.0f, 0.0f, 0.0f};
      box.halfExtents = {0.3f, 0.1f, 0.3f};
      const float c = std::cos(0.3f), s = std::sin(0.3f);
      box.rotation = glm::mat3(glm::vec3(c, 0, -s), glm::vec3(0, 1, 0), glm::vec3(s, 0, c));  // about y
      settings.colliders.boxes.push_back(box);
    }
    if (type == 2) settings.colliders.capsules.push_back({{-0.3f, 0.0f, 0.01f}, {0.3f, 0.0f, -0.01f}, 0.1f, 0.5f});
    State state = makeState(model);
    auto solver = makeCpuSolver(GetParam());
    solver->reset(model, state);
    StepDiagnostics diag;
    float worst = 0.0f;
    for (int f = 0; f < 60; ++f) {
      ASSERT_TRUE(run(model, settings, *solver, state, 1, diag));
      worst = std::max(worst, diag.maxViolation);
    }
    const char* names[] = {"sphere", "box", "capsule"};
    std::printf("%s on a %s: worst penetration %.2e m, centre of mass y %.3f m\n", solverName(GetParam()),
                names[type], worst, centerOfMass(model, state).y);
    EXPECT_LT(worst, 1e-3f) << names[type];
    EXPECT_LT(centerOfMass(model, state).y, 0.3) << names[type] << ": it fell onto the collider";
    // The box top is flat (rotated about y only): the block rests on it, at y = 0.1 + 0.05.
    if (type == 1) EXPECT_NEAR(centerOfMass(model, state).y, 0.15, 0.01);
  }
}

}  // namespace
}  // namespace tetlab
