// The torus collider (shaders/cl/common/collisions.clh sdf_torus) on every
// solver: it holds what is wider than its hole and lets through what is not.
//
//   - a 50 x 5 x 50 cm slab dropped onto a flat ring (R = 0.2 m, tube r = 0.04 m)
//     comes to rest on the top of the tube: its centre of mass at r + 2.5 cm =
//     6.5 cm (less up to a few mm: contacts are per vertex, and the vertices of
//     the slab's 8.3 cm grid straddle the tube's crest), centred over the hole
//     (the support is symmetric), no vertex in the tube deeper than the
//     solver's contact tolerance;
//   - a 10 cm block dropped through the centre (hole radius R - r = 16 cm, block
//     half-diagonal 7 cm) falls through: after 0.5 s it is as far down as free
//     fall puts it (g t^2 / 2 = 1.23 m from 0.3 m), within 2 %.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/sim/collider_records.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

using namespace phystest;

class TorusCollider_ : public testing::TestWithParam<SolverKind> {};

SolverSettings ringSettings(SolverKind kind) {
  SolverSettings s;
  s.solver = kind;
  s.colliders.ground.enabled = false;
  TorusCollider ring;
  ring.center = {0.0f, 0.0f, 0.0f};
  ring.majorRadius = 0.2f;
  ring.minorRadius = 0.04f;
  ring.friction = 0.5f;
  s.colliders.tori.push_back(ring);
  return s;
}

// Deepest vertex inside the torus [m] (0 when none is inside).
float deepestInside(const SolverSettings& s, const State& state) {
  const ColliderRecords records = packColliders(s.colliders);
  float deepest = 0.0f;
  for (const glm::vec4& x : state.x)
    forEachCollider(records, glm::vec3(x), [&](const ColliderSample& c) { deepest = std::max(deepest, -c.phi); });
  return deepest;
}

TEST_P(TorusCollider_, HoldsASlabWiderThanItsHole) {
  const SimModel model = buildBox({-0.25f, 0.1f, -0.25f}, {0.5f, 0.05f, 0.5f}, {6, 1, 6}, Material{1e6f, 0.3f, 1000, 0});
  const SolverSettings settings = ringSettings(GetParam());
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  float worst = 0.0f;
  for (int f = 0; f < 90; ++f) {
    ASSERT_TRUE(run(model, settings, *solver, state, 1, diag));
    worst = std::max(worst, deepestInside(settings, state));
  }
  const glm::dvec3 com = centerOfMass(model, state);
  std::printf("%s slab on a ring: centre of mass (%.4f, %.4f, %.4f) m, deepest vertex in the tube %.2e m\n",
              solverName(GetParam()), com.x, com.y, com.z, worst);
  // Resting on the tube top (y = 0.04) with half its 5 cm thickness above it;
  // vertices straddling the crest and the slab's sag between supports: within 5 mm.
  EXPECT_NEAR(com.y, 0.065, 0.005);
  EXPECT_NEAR(com.x, 0.0, 0.005);
  EXPECT_NEAR(com.z, 0.0, 0.005);
  // Position-based solvers resolve contacts exactly; VBD/AVBD hold them with a
  // stiff penalty/augmented row: 2 mm is 5 % of the tube radius.
  EXPECT_LT(worst, 2e-3f);
}

TEST_P(TorusCollider_, LetsABlockSmallerThanItsHoleFallThrough) {
  const SimModel model = buildBox({-0.05f, 0.25f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}, Material{1e5f, 0.3f, 1000, 0});
  const SolverSettings settings = ringSettings(GetParam());
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  ASSERT_TRUE(run(model, settings, *solver, state, 30, diag));
  const double t = 30.0 * double(settings.step.dt);
  const double expected = 0.3 - 0.5 * 9.81 * t * t;
  EXPECT_NEAR(centerOfMass(model, state).y, expected, 0.02 * 0.5 * 9.81 * t * t);
  EXPECT_EQ(deepestInside(settings, state), 0.0f);
}

INSTANTIATE_TEST_SUITE_P(Solvers, TorusCollider_,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         paramName);

}  // namespace
}  // namespace tetlab
