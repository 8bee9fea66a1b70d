// AVBD's several collider rows per vertex (common/avbd_constraint.clh,
// AvbdConstraints::beginContacts): which colliders get a row, in which order,
// and that a row's warm start (AVBD Eq. 19) follows its collider, not its slot.
// The physical check, a block pressed into a ground/wall corner, is
// CornerContact in friction_test.cpp.
#include <gtest/gtest.h>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/avbd_constraint.clh"

#include "core/cpu/avbd_constraints.h"
#include "tests/friction_scenes.h"

namespace tetlab {
namespace {

clm::AvbdContactPick pick(int id, float phi0) { return {id, phi0, glm::vec3(0.0f, 1.0f, 0.0f), 0.0f}; }

TEST(AvbdContactRows, KeepsTheDeepestCollidersDeepestFirst) {
  static_assert(AVBD_CONTACT_ROWS == 3, "the candidates below assume three rows");
  clm::AvbdContactPick list[AVBD_CONTACT_ROWS];
  int count = 0;
  for (clm::AvbdContactPick c : {pick(0, 0.003f), pick(1, -0.001f), pick(2, 0.001f), pick(3, 0.0f), pick(4, 0.002f)})
    count = clm::avbd_contact_keep(c, list, count);
  ASSERT_EQ(count, 3);
  EXPECT_EQ(list[0].id, 1);
  EXPECT_EQ(list[1].id, 3);
  EXPECT_EQ(list[2].id, 2);
  EXPECT_EQ(list[0].phi0, -0.001f);
}

TEST(AvbdContactRows, EqualDepthKeepsTheEarlierCollider) {
  clm::AvbdContactPick list[AVBD_CONTACT_ROWS];
  int count = 0;
  for (int id = 0; id < 5; ++id) count = clm::avbd_contact_keep(pick(id, 0.0f), list, count);
  ASSERT_EQ(count, AVBD_CONTACT_ROWS);
  for (int k = 0; k < AVBD_CONTACT_ROWS; ++k) EXPECT_EQ(list[k].id, k);
}

TEST(AvbdContactRows, PreviousRowIsFoundByColliderId) {
  const int previous[AVBD_CONTACT_ROWS] = {4, 0, -1};
  EXPECT_EQ(clm::avbd_contact_previous_row(0, previous), 1);
  EXPECT_EQ(clm::avbd_contact_previous_row(4, previous), 0);
  EXPECT_EQ(clm::avbd_contact_previous_row(7, previous), -1);
  EXPECT_EQ(clm::avbd_contact_previous_row(-1, previous), -1) << "an empty row matches nothing";
}

// A vertex on the ground gets a ground row; a substep later it starts inside
// the wall as well. The wall is deeper and takes the first row, the ground
// moves to the second and keeps its warm-started multiplier (Eq. 19); the
// wall, new to the vertex, starts cold (Eq. 10).
TEST(AvbdContactRows, WarmStartFollowsTheColliderIntoAnotherRow) {
  using namespace frictiontest;
  const SimModel model = cornerBlock();
  const SolverSettings settings = cornerSettings(SolverKind::Avbd);
  const AvbdParams& p = settings.avbd;
  State state = makeState(model);
  VbdMaterialCache cache;
  cache.refresh(model, springChoice(settings.step.constraints));
  AvbdConstraints rows;
  rows.reset(model, state, p);
  const float h = settings.step.dt;
  const AvbdLayout layout = AvbdLayout::make(model);
  const uint32_t K = layout.contactsPerVertex;
  ASSERT_EQ(K, uint32_t(AVBD_CONTACT_ROWS));
  const uint32_t first = layout.contacts + 3 * K * 0;  // vertex 0's rows

  for (glm::vec4& v : state.v) v = glm::vec4(0.0f);
  state.xPrev[0] = glm::vec4(kWallX - 0.01f, 0.0f, 0.0f, state.xPrev[0].w);  // on the ground, 1 cm from the wall
  rows.beginSubstep(model, settings, cache, h, state);
  EXPECT_EQ(rows.activeContacts(), 1u);
  state.lambda[first] = -5.0f;  // the ground's normal row pushed during the substep
  state.penalty[first] = 2.0e6f;

  state.xPrev[0] = glm::vec4(kWallX + 0.0002f, -0.0001f, 0.0f, state.xPrev[0].w);  // 0.2 mm into the wall
  rows.beginSubstep(model, settings, cache, h, state);
  EXPECT_EQ(state.lambda[first], 0.0f) << "the wall is new to the vertex: cold row";
  EXPECT_FLOAT_EQ(state.lambda[first + 3], -5.0f * p.alpha * p.gamma) << "the ground's multiplier moved with it";
  EXPECT_FLOAT_EQ(state.penalty[first + 3], 2.0e6f * p.gamma);
  EXPECT_EQ(state.lambda[first + 6], 0.0f) << "no third collider";
}

}  // namespace
}  // namespace tetlab
