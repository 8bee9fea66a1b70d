// Action = reaction of body-body contacts, normal and friction: a head-on hit
// of two blocks in free space (tests/head_on_scene.h) keeps the total linear
// momentum (m v0, 0, 0) to headon::kTolerance of m v0, on every CPU solver and
// at mu = 0, 0.4 and 1, at the default substeps and (VBD) at 40. The angular
// momentum about the centre of mass is measured and printed, not held to that
// bound: it drifts on every solver, the position-based ones included
// (tests/head_on_scene.h says why).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>

#include "tests/head_on_scene.h"

namespace tetlab {
namespace {

void checkHeadOn(SolverKind kind, float mu, int substeps) {
  const SimModel model = headon::blocks();
  const SolverSettings s = headon::settings(kind, mu, substeps);
  State state = makeState(model);
  headon::launch(model, state);
  const double p0 = headon::momenta(model, state.x, state.v).P.x;
  auto solver = makeCpuSolver(kind);
  solver->reset(model, state);
  StepDiagnostics diag;
  headon::Drift worst;
  uint32_t contacts = 0;
  for (int f = 0; f < headon::kFrames; ++f) {
    ASSERT_TRUE(phystest::run(model, s, *solver, state, 1, diag));
    worst = headon::worse(worst, headon::drift(headon::momenta(model, state.x, state.v), p0));
    contacts = std::max(contacts, diag.bodyContacts);
  }
  const headon::Momenta end = headon::momenta(model, state.x, state.v);
  std::printf("[ measured ] %s %d substeps mu %.1f: worst drift / (m v0): axial %.2e, sideways %.2e; angular / "
              "(m v0 %.2f m) %.2e; B carries %.3f of m v0; up to %u contacts\n",
              phystest::solverName(kind), substeps, mu, worst.axial, worst.sideways, headon::kLever, worst.angular,
              end.pB / p0, contacts);
  EXPECT_GT(contacts, 0u) << "the blocks never touched: the test is vacuous";
  EXPECT_GT(end.pB, 0.25 * p0) << "the block that was hit must move";
  // Known gap (docs/solvers_vbd_avbd.md): AVBD body-contact friction is not yet momentum-exact.
  const double bound = headon::knownFrictionDrift(kind, mu) ? headon::kKnownGapTolerance : headon::kTolerance;
  EXPECT_LE(worst.axial, bound);
  EXPECT_LE(worst.sideways, bound);
}

class HeadOnCollision : public testing::TestWithParam<std::tuple<SolverKind, float>> {};

TEST_P(HeadOnCollision, KeepsLinearMomentum) {
  const auto [kind, mu] = GetParam();
  checkHeadOn(kind, mu, StepSettings{}.substeps);
}

INSTANTIATE_TEST_SUITE_P(Solvers, HeadOnCollision,
                         testing::Combine(testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd,
                                                          SolverKind::Avbd),
                                          testing::Values(0.0f, 0.4f, 1.0f)),
                         headon::paramName);

// The same hit at headon::kManySubsteps on VBD, whose lagged, inertia-scaled
// contact rows keep the reaction at any h. Not held to it here, both open
// (docs/solvers_vbd_avbd.md, docs/solvers.md "Known limits"): AVBD, which at
// 40 substeps drifts axial 2.8e-3 at mu 0 and sideways 7.9e-3 at mu 0.4 and
// 0.13 at mu 1, and PBD and XPBD, whose free bodies lose momentum at many
// substeps with no contact at all.
class HeadOnCollisionManySubsteps : public testing::TestWithParam<float> {};

TEST_P(HeadOnCollisionManySubsteps, KeepsLinearMomentum) { checkHeadOn(SolverKind::Vbd, GetParam(), headon::kManySubsteps); }

INSTANTIATE_TEST_SUITE_P(Vbd, HeadOnCollisionManySubsteps, testing::Values(0.0f, 0.4f, 1.0f),
                         [](const testing::TestParamInfo<float>& info) { return headon::muName(info.param); });

}  // namespace
}  // namespace tetlab
