// Motion and separation spheres (core/sim/sphere_constraints.h,
// shaders/cl/common/sphere_constraints.clh): the projections, the blend over
// the frame, the log-mapped stiffness, and the spheres a sheet gets from its
// pins and the collider they follow.
#include <gtest/gtest.h>

#include <cmath>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/scene/scene_json.h"
#include "core/sim/sphere_constraints.h"
#include "core/sim/state_setup.h"
#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/sphere_constraints.clh"

namespace tetlab {
namespace {

TEST(SphereConstraints, MotionPullsInsideSeparationPushesOutsideByTheStiffnessFraction) {
  const glm::vec4 sphere(1.0f, 0.0f, 0.0f, 0.5f);
  // 2 from the centre, radius 0.5: the violation is 1.5 along the centre line.
  EXPECT_LT(glm::length(clm::sphere_keep_inside(glm::vec3(3.0f, 0.0f, 0.0f), sphere, 1.0f) - glm::vec3(1.5f, 0, 0)), 1e-6f);
  EXPECT_LT(glm::length(clm::sphere_keep_inside(glm::vec3(3.0f, 0.0f, 0.0f), sphere, 0.5f) - glm::vec3(2.25f, 0, 0)), 1e-6f);
  EXPECT_EQ(clm::sphere_keep_inside(glm::vec3(1.2f, 0.0f, 0.0f), sphere, 1.0f), glm::vec3(1.2f, 0.0f, 0.0f)) << "inside: free";
  EXPECT_LT(glm::length(clm::sphere_keep_outside(glm::vec3(1.0f, 0.1f, 0.0f), sphere, 1.0f) - glm::vec3(1, 0.5f, 0)), 1e-6f);
  EXPECT_EQ(clm::sphere_keep_outside(glm::vec3(1.0f, 0.9f, 0.0f), sphere, 1.0f), glm::vec3(1.0f, 0.9f, 0.0f)) << "outside: free";
  const glm::vec4 none(0.0f, 0.0f, 0.0f, -1.0f);
  EXPECT_EQ(clm::sphere_keep_inside(glm::vec3(9.0f), none, 1.0f), glm::vec3(9.0f));
  EXPECT_EQ(clm::sphere_blend(none, sphere, 0.5f).w, -1.0f) << "a sphere missing at either end is none";
  const glm::vec4 mid = clm::sphere_blend(sphere, glm::vec4(3.0f, 2.0f, 0.0f, 1.5f), 0.5f);
  EXPECT_LT(glm::length(mid - glm::vec4(2.0f, 1.0f, 0.0f, 1.0f)), 1e-6f);
}

TEST(SphereConstraints, StiffnessPerSixtiethIsTheSameForAnySubstepCount) {
  EXPECT_FLOAT_EQ(sphereSubstepStiffness(1.0f, 0.001f), 1.0f);
  EXPECT_NEAR(sphereSubstepStiffness(0.5f, 1.0f / 60.0f), 0.5f, 1e-6f);
  // Ten substeps of 1/600 s leave the same share of a violation as one of 1/60 s.
  const float k = sphereSubstepStiffness(0.5f, 1.0f / 600.0f);
  EXPECT_NEAR(std::pow(1.0f - k, 10.0f), 0.5f, 1e-5f);
}

// A 0.4 m sheet whose z = 0 edge is pinned and follows a sphere collider below it.
struct Rig {
  SimModel model;
  State state;
  std::vector<PinFollower> followers;
  Colliders colliders;
};

Rig sheetOnABall() {
  Rig r;
  BodyDesc body = clothBody(makeClothPatch(glm::vec3(-0.2f, 0.5f, 0.0f), glm::vec2(0.4f), glm::uvec2(4, 4)));
  body.name = "sheet";
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(built.ok());
  r.model = std::move(*built);
  r.state = makeState(r.model);
  std::vector<uint32_t> edge;
  std::vector<glm::vec3> at;
  for (uint32_t v = 0; v < r.model.vertexCount(); ++v)
    if (r.model.restPositions[v].z < 1e-4f) {
      edge.push_back(v);
      at.push_back(r.model.restPositions[v]);
    }
  pinVertices(r.state, edge);
  r.colliders.spheres.push_back(SphereCollider{glm::vec3(0.0f, 0.2f, 0.2f), 0.2f, 0.5f});
  const ColliderRef ball{ColliderList::Spheres, 0};
  r.followers.push_back(makePinFollower(ball, *colliderFrame(r.colliders, ball), edge, at));
  return r;
}

TEST(SphereConstraints, SpheresSitAtTheRestPlacesInTheFollowedFrameWithRadiiFromThePins) {
  Rig r = sheetOnABall();
  const SphereRig rig = buildSphereRig(r.model, r.followers, r.state.x, r.colliders);
  SphereSettings s;
  s.motion = s.separation = true;
  s.motionScale = 0.5f;
  s.motionBias = 0.01f;
  s.separationRadius = 0.05f;
  std::vector<glm::vec4> motion, separation;
  sphereTargets(rig, s, r.colliders, r.followers, motion, separation);
  for (uint32_t v = 0; v < r.model.vertexCount(); ++v) {
    const glm::vec3 p = r.model.restPositions[v];
    if (r.state.x[v].w == 0.0f) {
      EXPECT_LT(motion[v].w, 0.0f) << "pins get no sphere";
      continue;
    }
    // The nearest pin of a sheet pinned along z = 0 is straight back along z.
    EXPECT_LT(glm::length(glm::vec3(motion[v]) - p), 1e-6f);
    EXPECT_NEAR(motion[v].w, 0.5f * p.z + 0.01f, 1e-6f);
    // Separation: tangent to the rest place, its centre towards the ball's centre.
    const glm::vec3 towardBall = glm::normalize(glm::vec3(0.0f, 0.2f, 0.2f) - p);
    EXPECT_NEAR(separation[v].w, 0.05f, 1e-7f);
    EXPECT_LT(glm::length(glm::vec3(separation[v]) - (p + 0.05f * towardBall)), 1e-5f);
  }
  // The ball moves: the spheres ride along.
  r.colliders.spheres[0].center += glm::vec3(0.1f, -0.05f, 0.3f);
  std::vector<glm::vec4> moved, movedSep;
  sphereTargets(rig, s, r.colliders, r.followers, moved, movedSep);
  for (uint32_t v = 0; v < r.model.vertexCount(); ++v) {
    if (motion[v].w < 0.0f) continue;
    EXPECT_LT(glm::length(glm::vec3(moved[v]) - glm::vec3(motion[v]) - glm::vec3(0.1f, -0.05f, 0.3f)), 1e-5f);
    EXPECT_LT(glm::length(glm::vec3(movedSep[v]) - glm::vec3(separation[v]) - glm::vec3(0.1f, -0.05f, 0.3f)), 1e-5f);
  }
}

TEST(SphereConstraints, WithoutAFollowedColliderMotionSpheresStayInTheWorldAndNoneSeparate) {
  Rig r = sheetOnABall();
  const SphereRig rig = buildSphereRig(r.model, {}, r.state.x, r.colliders);  // no follower: the world frame
  SphereSettings s;
  s.motion = s.separation = true;
  s.motionScale = 0.0f;
  s.motionBias = 0.03f;
  std::vector<glm::vec4> motion, separation;
  sphereTargets(rig, s, r.colliders, {}, motion, separation);
  for (uint32_t v = 0; v < r.model.vertexCount(); ++v) {
    EXPECT_LT(separation[v].w, 0.0f) << "no followed collider: no inside to keep out of";
    if (r.state.x[v].w != 0.0f) EXPECT_NEAR(motion[v].w, 0.03f, 1e-7f);
  }
}

TEST(SphereConstraints, SceneFilesKeepTheSettingsAndRefuseOutOfRangeValues) {
  SceneDesc d;
  d.name = "spheres";
  d.bodies.emplace_back();  // a scene needs a body (the default box)
  SphereSettings& s = d.settings.spheres;
  s.motion = true;
  s.motionScale = 0.3f;
  s.motionBias = -0.01f;
  s.separation = true;
  s.separationRadius = 0.07f;
  s.stiffness = 0.6f;
  Result<SceneDesc> back = parseSceneJson(sceneToJsonText(d), "spheres.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  const SphereSettings& b = back->settings.spheres;
  EXPECT_TRUE(b.motion && b.separation);
  EXPECT_FLOAT_EQ(b.motionScale, 0.3f);
  EXPECT_FLOAT_EQ(b.motionBias, -0.01f);
  EXPECT_FLOAT_EQ(b.separationRadius, 0.07f);
  EXPECT_FLOAT_EQ(b.stiffness, 0.6f);

  Result<SceneDesc> bad = parseSceneJson(
      R"({"format": "tetlab-scene", "version": 1, "bodies": [{"box": {}}],
          "spheres": {"motion": true, "stiffness": 2}})", "bad.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("bad.json"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("spheres/stiffness"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace tetlab
