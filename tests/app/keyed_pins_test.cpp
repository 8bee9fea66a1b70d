// Keyed pins in the session (issue 15 item 3): the twisted-beam preset's end
// turns by its keyed angle while the clamped end stays, and the twist spreads
// along the beam as a uniform section's does (linearly, when the turn is slow
// against the torsional period); a keyed region ends exactly at its last key;
// the shaken jelly's base is let go at its release time, and a reset holds it again.
#include <gtest/gtest.h>

#include <cmath>

#include "core/scene/rotation.h"
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

}  // namespace
}  // namespace tetlab
