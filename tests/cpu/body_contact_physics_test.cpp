// Body-body contact (core/sim/body_contacts.h) in all four solvers, checked
// against what physics requires of a contact between two bodies:
//  - a body resting on another stays on top and comes to rest;
//  - a body dropped onto another does not pass through it;
//  - the contact force is two-sided: in free space a collision keeps the
//    total linear momentum and moves the body that was hit;
//  - Coulomb friction between the bodies stops a sliding block after
//    v0^2 / (2 mu g), as on the ground (tests/cpu/contact_test.cpp).
// Each scene is also run with the contact toggle off, to show it depends on it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/cpu/vbd_terms.h"
#include "core/sim/body_contact_detection.h"
#include "tests/cpu/physics_scenes.h"

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/body_contact.clh"

namespace tetlab {
namespace {

using namespace phystest;

SimModel twoBoxes(glm::vec3 minA, glm::vec3 sizeA, glm::uvec3 cellsA, glm::vec3 minB, glm::vec3 sizeB,
                  glm::uvec3 cellsB) {
  return buildTwoBoxes(minA, sizeA, cellsA, minB, sizeB, cellsB);
}

struct BodyBounds {
  glm::vec3 lo{INFINITY}, hi{-INFINITY};
  glm::dvec3 com{0.0}, momentum{0.0};
};

BodyBounds bounds(const SimModel& m, const State& s, uint32_t body) {
  BodyBounds b;
  double mass = 0.0;
  for (uint32_t i = 0; i < m.vertexCount(); ++i) {
    if (m.vertexBody[i] != body) continue;
    const glm::vec3 p = glm::vec3(s.x[i]);
    b.lo = glm::min(b.lo, p);
    b.hi = glm::max(b.hi, p);
    b.com += double(m.mass[i]) * glm::dvec3(p);
    b.momentum += double(m.mass[i]) * glm::dvec3(glm::vec3(s.v[i]));
    mass += m.mass[i];
  }
  b.com /= mass;
  return b;
}

// Deepest penetration (-C, C from the contact's frozen plane) of the contacts
// of the last substep, at the current positions [m]; 0 when none.
float deepestContact(const State& s) {
  const BodyContacts& c = s.bodyContacts;
  float worst = 0.0f;
  for (size_t k = 0; k < c.ids.size(); ++k) {
    const glm::uvec4 id = c.ids[k];
    if (id.x == kNoContact) continue;
    const float C = clm::body_contact_gap(glm::vec3(s.x[id.x]), glm::vec3(s.x[id.y]), glm::vec3(s.x[id.z]),
                                          glm::vec3(s.x[id.w]), glm::vec3(c.normal[k]), glm::vec3(c.weights[k]), 0.0f);
    worst = std::max(worst, -C);
  }
  return worst;
}

class BodyContactSolver : public testing::TestWithParam<SolverKind> {
 protected:
  SolverSettings settings() const {
    SolverSettings s;
    s.solver = GetParam();
    return s;
  }
};

// A 10 cm block on a 30 x 10 x 30 cm slab lying on the ground, 2 cm apart.
// It falls the 2 cm, lands and must come to rest on top: the lowest point of
// the block at most 1 mm below the highest point of the slab (the same bound
// as resting on the ground), with its centre of mass half a block above the
// slab's top plus the contact thickness (the slab under a 1 kg block
// compresses by stress / E * height = 981 Pa / 1e5 Pa * 0.1 m = 1 mm).
TEST_P(BodyContactSolver, BlockComesToRestOnAnotherBody) {
  const SimModel model =
      twoBoxes({-0.15f, 0.0f, -0.15f}, {0.3f, 0.1f, 0.3f}, {3, 1, 3}, {-0.05f, 0.12f, -0.05f}, glm::vec3(0.1f), {2, 2, 2});
  const SolverSettings s = settings();
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  float worstOverlap = 0.0f;
  for (int f = 0; f < 120; ++f) {
    ASSERT_TRUE(run(model, s, *solver, state, 1, diag));
    const BodyBounds slab = bounds(model, state, 0), block = bounds(model, state, 1);
    worstOverlap = std::max(worstOverlap, slab.hi.y - block.lo.y);
  }
  const BodyBounds slab = bounds(model, state, 0), block = bounds(model, state, 1);
  std::printf("%s: block rests at com y %.4f m (slab top %.4f m), worst overlap %.2e m, max speed %.2e m/s, "
              "contacts %u, deepest C < 0 at rest %.2e m\n",
              solverName(GetParam()), block.com.y, slab.hi.y, worstOverlap, maxSpeed(state), diag.bodyContacts,
              bodyContactPenetration(state));
  EXPECT_LT(worstOverlap, 1e-3f);
  EXPECT_NEAR(block.com.y, slab.hi.y + 0.05 + s.bodyContacts.thickness, 3e-3);
  EXPECT_LT(maxSpeed(state), 0.014) << "at rest (1/10 of the speed of 1 mm of free fall)";
  EXPECT_GT(diag.bodyContacts, 0u);
}

// The same block dropped from 30 cm above the slab (impact at 2.4 m/s): no
// vertex ever gets more than 2 mm behind the surface it touches (the impact
// dents the soft slab, which the frozen contact planes follow), and the block
// ends on top.
TEST_P(BodyContactSolver, DroppedBlockDoesNotPassThroughAnotherBody) {
  const SimModel model =
      twoBoxes({-0.15f, 0.0f, -0.15f}, {0.3f, 0.1f, 0.3f}, {3, 1, 3}, {-0.05f, 0.4f, -0.05f}, glm::vec3(0.1f), {2, 2, 2});
  const SolverSettings s = settings();
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  float deepest = 0.0f;
  for (int f = 0; f < 90; ++f) {
    ASSERT_TRUE(run(model, s, *solver, state, 1, diag));
    deepest = std::max(deepest, deepestContact(state));
  }
  const BodyBounds slab = bounds(model, state, 0), block = bounds(model, state, 1);
  std::printf("%s: deepest contact penetration %.2e m, block com y %.4f m over slab top %.4f m\n",
              solverName(GetParam()), deepest, block.com.y, slab.hi.y);
  EXPECT_LT(deepest, 2e-3f);
  EXPECT_GT(block.lo.y, slab.hi.y - 2e-3f) << "the block fell through";
}

// Free space (no gravity, no ground): block A at 1 m/s hits block B at rest.
// Contact forces are internal to the pair, so the total momentum stays
// m v0 = 1 kg m/s (to 1%: what the solvers keep for internal elastic forces
// is far tighter, tests/cpu/solver_physics_test.cpp), B ends up carrying a
// good part of it (a one-sided contact would leave B at rest), and the two
// never overlap by more than 2 mm.
TEST_P(BodyContactSolver, CollisionInFreeSpaceKeepsMomentumAndPushesTheOtherBody) {
  const SimModel model =
      twoBoxes({-0.12f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}, {0.0f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2});
  SolverSettings s = settings();
  s.step.gravity = glm::vec3(0.0f);
  s.colliders.ground.enabled = false;
  State state = makeState(model);
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.vertexBody[i] == 0) state.v[i] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
  const glm::dvec3 p0 = linearMomentum(model, state);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  float worstOverlap = 0.0f;
  // 0.5 s: contact after 2 cm (20 ms), the soft blocks part again within ~0.1 s.
  for (int f = 0; f < 30; ++f) {
    ASSERT_TRUE(run(model, s, *solver, state, 1, diag));
    const BodyBounds a = bounds(model, state, 0), b = bounds(model, state, 1);
    worstOverlap = std::max(worstOverlap, a.hi.x - b.lo.x);
  }
  const glm::dvec3 p1 = linearMomentum(model, state);
  const BodyBounds a = bounds(model, state, 0), b = bounds(model, state, 1);
  std::printf("%s: momentum %.5f -> %.5f kg m/s (A %.4f, B %.4f), worst overlap %.2e m\n", solverName(GetParam()),
              p0.x, p1.x, a.momentum.x, b.momentum.x, worstOverlap);
  EXPECT_NEAR(p1.x, p0.x, 0.01 * p0.x);
  EXPECT_NEAR(p1.y, 0.0, 0.01 * p0.x);
  EXPECT_NEAR(p1.z, 0.0, 0.01 * p0.x);
  EXPECT_GT(b.momentum.x, 0.25 * p0.x) << "the block that was hit must move";
  EXPECT_LT(worstOverlap, 2e-3f);
}

// A 10 cm block launched at v0 = 1 m/s along a pinned 1 m slab with body
// friction mu = 0.5 stops after v0^2 / (2 mu g) = 0.102 m (+-20%, the bound of
// the ground friction test).
TEST_P(BodyContactSolver, FrictionBetweenBodiesStopsASlidingBlockWhereCoulombSays) {
  const float mu = 0.5f, v0 = 1.0f, g = 9.81f;
  const SimModel model = twoBoxes({-0.3f, 0.0f, -0.2f}, {1.0f, 0.1f, 0.4f}, {10, 1, 4}, {-0.25f, 0.1f + 0.003f, -0.05f},
                                  glm::vec3(0.1f), {2, 2, 2});
  SolverSettings s = settings();
  s.bodyContacts.friction = mu;
  s.colliders.ground.enabled = false;
  State state = makeState(model);
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.vertexBody[i] == 0) state.x[i].w = 0.0f;  // the slab is fixed
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  ASSERT_TRUE(run(model, s, *solver, state, 30, diag));  // settle on the slab
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.vertexBody[i] == 1) state.v[i] += glm::vec4(v0, 0.0f, 0.0f, 0.0f);
  const double x0 = bounds(model, state, 1).com.x;
  ASSERT_TRUE(run(model, s, *solver, state, 60, diag));  // Coulomb stopping time v0 / (mu g) = 0.2 s
  const BodyBounds block = bounds(model, state, 1);
  const double distance = block.com.x - x0, expected = v0 * v0 / (2.0 * mu * g);
  std::printf("%s: slid %.4f m on the slab, Coulomb predicts %.4f m (ratio %.3f); final speed %.2e m/s\n",
              solverName(GetParam()), distance, expected, distance / expected, maxSpeed(state));
  EXPECT_NEAR(distance, expected, 0.2 * expected);
  EXPECT_LT(maxSpeed(state), 0.01) << "it stopped";
  EXPECT_GT(block.lo.y, 0.1f - 1e-3f) << "it stayed on the slab";
}

// Without body contacts the block falls through the slab: the scenes above
// test the contacts, not something else holding the block up.
TEST_P(BodyContactSolver, WithTheToggleOffTheBlockFallsThrough) {
  const SimModel model =
      twoBoxes({-0.15f, 0.0f, -0.15f}, {0.3f, 0.1f, 0.3f}, {3, 1, 3}, {-0.05f, 0.12f, -0.05f}, glm::vec3(0.1f), {2, 2, 2});
  SolverSettings s = settings();
  s.step.constraints.bodyContacts = false;
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  ASSERT_TRUE(run(model, s, *solver, state, 60, diag));
  EXPECT_EQ(diag.bodyContacts, 0u);
  EXPECT_LT(bounds(model, state, 1).com.y, 0.1) << "nothing but body contact should hold the block up";
}

INSTANTIATE_TEST_SUITE_P(Solvers, BodyContactSolver,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         paramName);

}  // namespace
}  // namespace tetlab
