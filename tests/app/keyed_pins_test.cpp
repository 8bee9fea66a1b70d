// Keyed pins in the session (issue 15 item 3): the twisted-beam preset's end
// turns by its keyed angle while the clamped end stays, and the twist spreads
// along the beam as a uniform section's does (linearly, when the turn is slow
// against the torsional period); a keyed region ends exactly at its last key;
// the shaken jelly's base is let go at its release time, and a reset holds it again.
#include <gtest/gtest.h>

#include <cmath>

#include "core/scene/rotation.h"
#include "core/scene/scene_overrides.h"
#include "core/session/sim_session.h"
#include "tests/app/app_test_util.h"

namespace tetlab {
namespace {

constexpr float kPi = 3.14159265358979f;

// The vertex of `m` nearest to p (rest positions).
uint32_t nearest(const SimModel& m, glm::vec3 p) {
  uint32_t best = 0;
  for (uint32_t v = 1; v < m.vertexCount(); ++v)
    if (glm::length(m.restPositions[v] - p) < glm::length(m.restPositions[best] - p)) best = v;
  return best;
}

// The turn [deg] about +x of the cross-section at x, from its diagonal (y-0.05, z-0.05)->(y+0.05, z+0.05).
float sectionTurn(const SimSession& s, float x) {
  const SimModel& m = s.model();
  const uint32_t a = nearest(m, glm::vec3(x, 0.45f, -0.05f)), b = nearest(m, glm::vec3(x, 0.55f, 0.05f));
  const glm::vec3 d = glm::vec3(s.state().x[b]) - glm::vec3(s.state().x[a]);
  const float turn = std::atan2(d.z, d.y) - std::atan2(0.1f, 0.1f);
  float deg = turn * 180.0f / kPi;
  while (deg < -1.0f) deg += 360.0f;  // unwrap: the turn only grows here
  return deg;
}

TEST(KeyedPins, TwistedBeamTurnsByItsKeysAndTheTwistSpreadsAlongIt) {
  std::unique_ptr<SimSession> s = test::loadPresetSession("beam_twist.json");
  ASSERT_TRUE(s);
  ASSERT_EQ(s->animatedPins().size(), 1u);
  const AnimatedPins& end = s->animatedPins()[0];
  const uint32_t clamped = nearest(s->model(), glm::vec3(0.0f, 0.45f, -0.05f));
  const glm::vec3 clampedAt(s->state().x[clamped]);
  // To t = 2 s: half way through the smooth ramp, 180 degrees.
  for (int f = 0; f < 120; ++f) s->advance();
  ASSERT_FALSE(s->blownUp()) << s->blowUpMessage();
  const float keyed = poseAt(end.animation, s->time()).rotateDegrees.x;
  EXPECT_NEAR(keyed, 180.0f, 0.5f);
  EXPECT_NEAR(sectionTurn(*s, 1.0f), keyed, 1.0f) << "the end turns by the keyed angle";
  EXPECT_EQ(glm::vec3(s->state().x[clamped]), clampedAt) << "the clamped end stays put";
  // A uniform section twists at a uniform rate: the middle section half as far as the end.
  const float mid = sectionTurn(*s, 0.5f), quarter = sectionTurn(*s, 0.25f);
  std::printf("twist at t = %.2f s: end %.1f, middle %.1f, quarter %.1f deg\n", s->time(), sectionTurn(*s, 1.0f), mid,
              quarter);
  EXPECT_NEAR(mid, 0.5f * keyed, 0.1f * keyed);
  EXPECT_NEAR(quarter, 0.25f * keyed, 0.1f * keyed);
  // Past the last key (4 s) the end holds a whole turn: back at its rest place.
  for (int f = 0; f < 150; ++f) s->advance();
  ASSERT_FALSE(s->blownUp()) << s->blowUpMessage();
  std::vector<glm::vec3> last;
  animatedTargets(end, 1e9, last);
  for (size_t i = 0; i < end.vertices.size(); ++i)
    EXPECT_EQ(glm::vec3(s->state().x[end.vertices[i]]), last[i]) << "exactly the last key's pose";
  EXPECT_NEAR(sectionTurn(*s, 0.5f), 180.0f, 36.0f) << "a whole turn at the end: half a turn in the middle";
}

TEST(KeyedPins, ShakenJellyIsLetGoAtItsReleaseTimeAndAResetHoldsItAgain) {
  std::unique_ptr<SimSession> s = test::loadPresetSession("jelly_shake.json");
  ASSERT_TRUE(s);
  ASSERT_EQ(s->animatedPins().size(), 1u);
  const AnimatedPins base = s->animatedPins()[0];
  ASSERT_GT(base.vertices.size(), 10u);
  const float release = base.animation.releaseAt;
  ASSERT_GT(release, 0.0f);
  const double dt = s->settings().step.dt;
  // The frames before the release: pinned, and moved by the keys (0.25 s: 10 cm along +x).
  bool moved = false;
  while (s->time() + dt < double(release) - 1e-6) {
    s->advance();
    ASSERT_FALSE(s->blownUp()) << s->blowUpMessage();
    for (uint32_t v : base.vertices) ASSERT_EQ(s->state().x[v].w, 0.0f) << "held before " << release << " s";
    moved |= std::fabs(s->state().x[base.vertices[0]].x - base.rest[0].x) > 0.09f;
  }
  EXPECT_TRUE(moved) << "the keys shook the base";
  s->advance();  // the frame that ends at the release time
  for (uint32_t v : base.vertices) EXPECT_GT(s->state().x[v].w, 0.0f) << "let go at " << release << " s";
  const float y0 = s->state().x[base.vertices[0]].y;
  for (int f = 0; f < 30; ++f) s->advance();
  EXPECT_LT(s->state().x[base.vertices[0]].y, y0 - 0.05f) << "the released block falls";
  s->reset();
  for (uint32_t v : base.vertices) EXPECT_EQ(s->state().x[v].w, 0.0f) << "a reset holds the base again";
  s->advance();
  EXPECT_EQ(s->state().x[base.vertices[0]].w, 0.0f);
}

TEST(KeyedPins, ToggledPinsLetGoAndHoldAgainWhereTheVerticesAre) {
  Result<SceneDesc> desc = test::loadPresetDesc("jelly_shake.json");
  ASSERT_TRUE(desc.ok());
  // No shaking: the base is held, let go at 0.2 s (the block falls), held again at 0.4 s.
  PinAnimation& a = desc->bodies[0].pins[0].animation;
  a.keys.clear();
  a.releaseAt = -1.0f;
  a.toggleAt = {0.2f, 0.4f};
  std::unique_ptr<SimSession> s = test::makeSession(*desc);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->animatedPins().size(), 1u);
  const std::vector<uint32_t> base = s->animatedPins()[0].vertices;
  const glm::vec3 rest(s->state().x[base[0]]);
  const double dt = s->settings().step.dt;
  while (s->time() + dt < 0.2 - 1e-6) s->advance();
  EXPECT_EQ(glm::vec3(s->state().x[base[0]]), rest) << "held until its first toggle";
  s->advance();  // the frame ending at 0.2 s: let go
  EXPECT_GT(s->state().x[base[0]].w, 0.0f);
  while (s->time() + dt < 0.4 - 1e-6) s->advance();
  s->advance();  // the frame ending at 0.4 s: held again, where it is
  for (uint32_t v : base) ASSERT_EQ(s->state().x[v].w, 0.0f) << "held again at 0.4 s";
  const glm::vec3 caught(s->state().x[base[0]]);
  // Free for 0.2 s it fell g t^2 / 2 = 0.196 m, minus what the block's stiffness and the ground allow.
  EXPECT_LT(caught.y, rest.y - 0.05f) << "it fell while free";
  for (int f = 0; f < 20; ++f) s->advance();
  ASSERT_FALSE(s->blownUp()) << s->blowUpMessage();
  EXPECT_EQ(glm::vec3(s->state().x[base[0]]), caught) << "held where it was caught, not snapped back to its rest";
  s->reset();
  for (uint32_t v : base) EXPECT_EQ(s->state().x[v].w, 0.0f);
  EXPECT_EQ(glm::vec3(s->state().x[base[0]]), rest) << "a reset holds it at its start again";
}

// A stiff beam (E = 1e9) twisted by its keyed end stores far more elastic
// energy than 100x its weight-times-size scale (torsion G J theta^2 / 2L:
// ~1e4 J by 1.2 s): the window must not call that an explosion and stop it
// (it did, at 1.6e4 J), while a real blow-up is still caught (ConvergenceCheck).
TEST(KeyedPins, AStiffTwistedBeamIsNotMistakenForAnExplosion) {
  Result<SceneDesc> desc = test::loadPresetDesc("beam_twist.json");
  ASSERT_TRUE(desc.ok());
  SceneOverrides o;
  o.youngs = 1e9f;
  o.solver = SolverKind::Vbd;
  applyOverrides(o, *desc);
  std::unique_ptr<SimSession> s = test::makeSession(*desc);
  ASSERT_TRUE(s);
  for (int f = 0; f < 100; ++f) s->advance();
  EXPECT_FALSE(s->blownUp()) << s->blowUpMessage();
  // The case matters: the stored energy is beyond the old bound.
  EXPECT_GT(s->diagnostics().energy.dynamicTotal() - s->energyStart(), kExplosionFactor * s->energyScale());
}

}  // namespace
}  // namespace tetlab
