// Pins that follow a collider (core/sim/pin_followers.h): positions kept in
// the collider's frame, so translating, rotating or resizing the collider
// moves them rigidly with it; the scene file's "follow" reads, writes back and
// is refused with the file's path when it names no collider.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "core/scene/scene_build.h"
#include "core/scene/scene_json.h"
#include "core/sim/pin_followers.h"

namespace tetlab {
namespace {

glm::mat3 rotationAboutY(float radians) {
  return glm::mat3(glm::rotate(glm::mat4(1.0f), radians, glm::vec3(0.0f, 1.0f, 0.0f)));
}

TEST(PinFollowers, RideRigidlyOnAMovedRotatedAndResizedMeshCollider) {
  Colliders c;
  c.meshes.push_back(MeshCollider{});
  c.meshes[0].center = glm::vec3(1.0f, 2.0f, 3.0f);
  c.meshes[0].size = 2.0f;
  const ColliderRef ref{ColliderList::Meshes, 0};
  const std::vector<uint32_t> ids{4, 7};
  const std::vector<glm::vec3> at{{1.0f, 3.0f, 3.0f}, {2.0f, 2.0f, 3.5f}};
  const PinFollower f = makePinFollower(ref, *colliderFrame(c, ref), ids, at);

  std::vector<glm::vec3> out;
  followerTargets(f, *colliderFrame(c, ref), out);
  for (size_t k = 0; k < at.size(); ++k) EXPECT_LT(glm::length(out[k] - at[k]), 1e-6f) << "unmoved: in place";

  // A quarter turn about y, twice the size, moved by (0, 0, -1): x' = c' + 2 R (x - c) / 2.
  c.meshes[0].rotation = rotationAboutY(0.5f * 3.14159265f);
  c.meshes[0].size = 4.0f;
  c.meshes[0].center += glm::vec3(0.0f, 0.0f, -1.0f);
  followerTargets(f, *colliderFrame(c, ref), out);
  // (1, 3, 3) is 1 above the centre: 2 above the new one. (2, 2, 3.5) is (1, 0, 0.5)
  // from it: turned to (0.5, 0, -1), doubled to (1, 0, -2).
  EXPECT_LT(glm::length(out[0] - glm::vec3(1.0f, 4.0f, 2.0f)), 1e-5f);
  EXPECT_LT(glm::length(out[1] - glm::vec3(2.0f, 2.0f, 0.0f)), 1e-5f);
  // Rigid up to the scale: the distance between them doubled exactly.
  EXPECT_NEAR(glm::length(out[0] - out[1]), 2.0f * glm::length(at[0] - at[1]), 1e-5f);
}

TEST(PinFollowers, TranslateWithShapesThatHaveNoRotation) {
  Colliders c;
  c.capsules.push_back(CapsuleCollider{});
  c.spheres.push_back(SphereCollider{});
  for (ColliderRef ref : {ColliderRef{ColliderList::Capsules, 0}, ColliderRef{ColliderList::Spheres, 0}}) {
    const glm::vec3 p(0.3f, 0.4f, 0.5f);
    const PinFollower f = makePinFollower(ref, *colliderFrame(c, ref), std::vector<uint32_t>{0},
                                          std::vector<glm::vec3>{p});
    const glm::vec3 d(0.1f, -0.2f, 0.7f);
    Colliders moved = c;
    moved.capsules[0].a += d;
    moved.capsules[0].b += d;
    moved.spheres[0].center += d;
    std::vector<glm::vec3> out;
    followerTargets(f, *colliderFrame(moved, ref), out);
    EXPECT_LT(glm::length(out[0] - (p + d)), 1e-6f);
  }
  EXPECT_FALSE(colliderFrame(c, ColliderRef{ColliderList::Boxes, 0})) << "no such box";
  EXPECT_FALSE(colliderFrame(c, ColliderRef{})) << "no reference";
}

SceneDesc clothOnABall() {
  SceneDesc d;
  d.name = "cloth on a ball";
  BodySpec b;
  b.name = "sheet";
  b.source = BodySource::Cloth;
  b.cloth.min = glm::vec3(-0.2f, 0.0f, -0.2f);
  b.cloth.size = glm::vec2(0.4f);
  b.cloth.cells = glm::uvec2(4, 4);
  b.pins.push_back(PinRegion(Region{{-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, -0.19f}}, {ColliderList::Spheres, 0}));
  d.bodies.push_back(b);
  d.settings.colliders.spheres.push_back(SphereCollider{glm::vec3(0.0f, -0.3f, 0.0f), 0.25f, 0.5f});
  return d;
}

TEST(PinFollowers, SceneFileFollowRoundTripsAndBuildsOneFollowerPerRegion) {
  const SceneDesc d = clothOnABall();
  const std::string text = sceneToJsonText(d);
  EXPECT_NE(text.find("\"follow\""), std::string::npos);
  Result<SceneDesc> back = parseSceneJson(text, "roundtrip.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->bodies.at(0).pins.size(), 1u);
  EXPECT_EQ(back->bodies[0].pins[0].follow.list, ColliderList::Spheres);
  EXPECT_EQ(back->bodies[0].pins[0].follow.index, 0u);

  Result<BuiltScene> built = buildScene(*back, SceneBuildOptions{});
  ASSERT_TRUE(built.ok()) << built.error().message;
  ASSERT_EQ(built->scene.followers.size(), 1u);
  EXPECT_EQ(built->scene.followers[0].vertices.size(), 5u) << "the sheet's z = -0.2 edge (4 cells: 5 vertices)";
  EXPECT_EQ(built->scene.pinned.size(), 5u);
}

TEST(PinFollowers, AFollowNamingNoColliderIsRefusedWithItsPath) {
  SceneDesc d = clothOnABall();
  d.bodies[0].pins[0].follow = {ColliderList::Meshes, 2};
  Result<BuiltScene> built = buildScene(d, SceneBuildOptions{});
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.error().message.find("pins[0].follow"), std::string::npos) << built.error().message;
  EXPECT_NE(built.error().message.find("meshes[2]"), std::string::npos) << built.error().message;

  const std::string bad = R"({"format": "tetlab-scene", "version": 1, "bodies": [{"cloth": {},
      "pins": [{"min": [0, 0, 0], "max": [1, 1, 1], "follow": {"collider": "teapots", "index": 0}}]}]})";
  Result<SceneDesc> parsed = parseSceneJson(bad, "bad.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("bad.json"), std::string::npos) << parsed.error().message;
  EXPECT_NE(parsed.error().message.find("teapots"), std::string::npos) << parsed.error().message;
}

}  // namespace
}  // namespace tetlab
