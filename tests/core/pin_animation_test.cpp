// Keyed pins (core/sim/pin_animation.h): the pose between keys (linear and
// smoothstep), held before the first and after the last key, whole turns kept
// as angles, and the scene file's keys read, sorted and written back.
#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "core/scene/scene_json.h"
#include "core/sim/pin_animation.h"

namespace tetlab {
namespace {

PinAnimation twist(KeyInterpolation interpolation) {
  PinAnimation a;
  a.interpolation = interpolation;
  a.keys = {PinKey{1.0f, glm::vec3(0.0f), glm::vec3(0.0f)}, PinKey{3.0f, glm::vec3(0.2f, 0.0f, 0.0f), glm::vec3(360.0f, 0.0f, 0.0f)}};
  return a;
}

TEST(PinAnimation, LinearAndSmoothBetweenKeysHeldOutside) {
  const PinAnimation lin = twist(KeyInterpolation::Linear);
  EXPECT_EQ(poseAt(lin, 0.0).rotateDegrees.x, 0.0f) << "before the first key: its pose";
  EXPECT_FLOAT_EQ(poseAt(lin, 1.5).rotateDegrees.x, 90.0f);
  EXPECT_FLOAT_EQ(poseAt(lin, 2.0).translate.x, 0.1f);
  EXPECT_EQ(poseAt(lin, 3.0).rotateDegrees.x, 360.0f) << "exactly the last key at its time";
  EXPECT_EQ(poseAt(lin, 9.0).translate, glm::vec3(0.2f, 0.0f, 0.0f)) << "held after the last key";
  const PinAnimation smooth = twist(KeyInterpolation::Smooth);
  EXPECT_FLOAT_EQ(poseAt(smooth, 2.0).rotateDegrees.x, 180.0f) << "smoothstep is symmetric about the middle";
  EXPECT_FLOAT_EQ(poseAt(smooth, 1.5).rotateDegrees.x, 360.0f * 0.15625f);  // s = 1/4: 3s^2 - 2s^3
  EXPECT_EQ(poseAt(PinAnimation{}, 5.0).translate, glm::vec3(0.0f)) << "no keys: no motion";
}

TEST(PinAnimation, AWholeTurnIsAWholeTurnAndThePivotHolds) {
  AnimatedPins pins;
  pins.animation = twist(KeyInterpolation::Linear);
  pins.pivot = glm::vec3(1.0f, 0.5f, 0.0f);
  pins.rest = {glm::vec3(1.0f, 0.55f, 0.05f), glm::vec3(1.0f, 0.5f, 0.0f)};
  std::vector<glm::vec3> out;
  animatedTargets(pins, 2.0, out);  // 180 degrees about x through the pivot, 0.1 m along x
  EXPECT_NEAR(out[0].x, 1.1f, 1e-6f);
  EXPECT_NEAR(out[0].y, 0.45f, 1e-6f);
  EXPECT_NEAR(out[0].z, -0.05f, 1e-6f);
  EXPECT_NEAR(glm::length(out[1] - glm::vec3(1.1f, 0.5f, 0.0f)), 0.0f, 1e-6f) << "the pivot only translates";
  animatedTargets(pins, 1.75, out);  // 135 degrees: past a half turn, no shortcut back
  const glm::vec2 d(out[0].y - 0.5f, out[0].z);
  EXPECT_NEAR(std::atan2(d.y, d.x) * 180.0f / 3.14159265f, 45.0f + 135.0f, 1e-3f);
}

TEST(PinAnimation, SceneFilesKeepTheKeysSortedAndRefuseDuplicates) {
  SceneDesc desc;
  desc.bodies.push_back(BodySpec{});
  PinRegion region(glm::vec3(-1.0f), glm::vec3(1.0f));
  region.animation = twist(KeyInterpolation::Smooth);
  std::swap(region.animation.keys[0], region.animation.keys[1]);  // out of order: the reader sorts them
  region.animation.pivotSet = true;
  region.animation.pivot = glm::vec3(1.0f, 2.0f, 3.0f);
  region.animation.releaseAt = 4.5f;
  desc.bodies[0].pins.push_back(region);
  Result<SceneDesc> back = parseSceneJson(sceneToJsonText(desc), "round trip");
  ASSERT_TRUE(back) << back.error().message;
  const PinAnimation& a = back->bodies[0].pins[0].animation;
  ASSERT_EQ(a.keys.size(), 2u);
  EXPECT_EQ(a.keys[0].time, 1.0f);
  EXPECT_EQ(a.keys[1].rotateDegrees.x, 360.0f);
  EXPECT_EQ(a.interpolation, KeyInterpolation::Smooth);
  EXPECT_TRUE(a.pivotSet);
  EXPECT_EQ(a.pivot, glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_EQ(a.releaseAt, 4.5f);

  desc.bodies[0].pins[0].animation.keys[1].time = 3.0f;
  desc.bodies[0].pins[0].animation.keys[0].time = 3.0f;
  Result<SceneDesc> twice = parseSceneJson(sceneToJsonText(desc), "two.json");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("/bodies/0/pins/0/keys"), std::string::npos) << twice.error().message;
  EXPECT_NE(twice.error().message.find("two keys at t = 3"), std::string::npos) << twice.error().message;
}

TEST(PinAnimation, TogglesFlipHeldAndFreeAndAReleaseIsForGood) {
  PinAnimation a;
  EXPECT_TRUE(a.heldAt(100.0)) << "no schedule: held";
  a.toggleAt = {1.0f, 2.0f, 3.0f};
  EXPECT_TRUE(a.heldAt(0.999));
  EXPECT_FALSE(a.heldAt(1.0)) << "free from the first toggle on";
  EXPECT_TRUE(a.heldAt(2.5));
  EXPECT_FALSE(a.heldAt(3.0));
  a.releaseAt = 2.2f;
  EXPECT_FALSE(a.heldAt(2.5)) << "released: the later toggles do not hold it again";
  EXPECT_TRUE(a.active());
}

TEST(PinAnimation, SceneFilesKeepToggleTimesAndRefuseFallingOnes) {
  SceneDesc desc;
  desc.bodies.push_back(BodySpec{});
  PinRegion region(glm::vec3(-1.0f), glm::vec3(1.0f));
  region.animation.toggleAt = {0.5f, 1.25f};
  desc.bodies[0].pins.push_back(region);
  Result<SceneDesc> back = parseSceneJson(sceneToJsonText(desc), "round trip");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->bodies[0].pins[0].animation.toggleAt, (std::vector<float>{0.5f, 1.25f}));
  desc.bodies[0].pins[0].animation.toggleAt = {1.0f, 0.5f};
  Result<SceneDesc> falling = parseSceneJson(sceneToJsonText(desc), "falling.json");
  ASSERT_FALSE(falling);
  EXPECT_NE(falling.error().message.find("toggle_at"), std::string::npos) << falling.error().message;
  EXPECT_NE(falling.error().message.find("must rise"), std::string::npos) << falling.error().message;
}

}  // namespace
}  // namespace tetlab
