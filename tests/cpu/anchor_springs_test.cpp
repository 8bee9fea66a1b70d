// Anchor springs (issue 15 item 4, core/sim/anchor_springs.h) on every solver
// of the CPU reference, against the hung-cube oscillator of
// tests/spring_scenes.h:
//  - unbreakable, the pull peaks at 2 m g and first exceeds 1.5 m g in the
//    frame the closed form gives;
//  - with a breaking force F = 1.5 m g it breaks in the frame whose end state
//    first pulls harder than F, not before, and the cube then falls freely;
//  - a breaking strain breaks it in the same frame (the same stretch);
//  - a fresh state (a reset) has it whole again.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/scene/scene_build.h"
#include "core/sim/anchor_spring_resolution.h"
#include "core/scene/scene_json.h"
#include "core/sim/scene.h"
#include "core/sim/simulator.h"
#include "tests/cpu/physics_scenes.h"
#include "tests/spring_scenes.h"

namespace tetlab {
namespace {

using namespace springtest;

struct HangRun {
  std::vector<float> pull;       // per frame (index f - 1 for frame f): anchorSpringForce at its end [N]
  std::vector<float> centroidPull;  // the same from the top face's centroid (pullFromCentroid)
  int brokenFrame = -1;          // 1-based frame it broke in (-1: never)
  float vyAtBreak = 0.0f, vyAfter = 0.0f;  // mean v_y at the end of the break frame and 30 frames later
  float restLength = 0.0f;       // the spring's, as built [m]
};

HangRun hang(SolverKind kind, float breakForce, float breakStrain, int frames) {
  HangRun run;
  Result<BuiltScene> built = buildScene(hungCube(breakForce, breakStrain), SceneBuildOptions{});
  EXPECT_TRUE(built.ok()) << built.error().message;
  if (!built) return run;
  const Scene& scene = built->scene;
  EXPECT_EQ(scene.springs.springs.size(), 1u);
  // The patch: the top face's 3 x 3 vertices and the middle layer's 5 within 8 cm.
  EXPECT_EQ(scene.springs.subCount(), 14u);
  const std::vector<uint32_t> patch(scene.springs.vertex.begin(), scene.springs.vertex.end());
  const float L = scene.springs.springs[0].restLength;
  run.restLength = L;
  CpuSimulator sim(scene.model, makeSceneState(scene), kind);
  const SolverSettings settings = settingsFor(scene.settings, kind);
  std::vector<glm::vec4> subX;
  for (int f = 1; f <= frames; ++f) {
    StepDiagnostics d;
    EXPECT_TRUE(sim.step(settings, d).ok());
    EXPECT_TRUE(d.finite) << d.problem;
    const State& s = sim.state();
    gatherSpringPositions(s.springs, s.x, subX);
    // The spring as it was during the frame (before a break zeroed it): k is the spec's.
    AnchorSprings whole = scene.springs;
    run.pull.push_back(glm::length(anchorSpringForce(whole, 0, subX)));
    run.centroidPull.push_back(pullFromCentroid(s.x, patch, L));
    if (d.springsBroken) {
      EXPECT_EQ(run.brokenFrame, -1) << "a spring breaks once";
      run.brokenFrame = f;
      run.vyAtBreak = meanVelocityY(s.v);
      EXPECT_EQ(s.springs.springs[0].brokenFrame, f - 1) << "brokenFrame counts from 0";
      EXPECT_NEAR(s.springs.springs[0].brokenTime, f * kDt, 1e-6);
    }
    if (run.brokenFrame > 0 && f == run.brokenFrame + 30) run.vyAfter = meanVelocityY(s.v);
    EXPECT_EQ(s.springs.springs[0].broken, run.brokenFrame > 0);
  }
  return run;
}

int firstFrameAbove(const std::vector<float>& pull, float force) {
  for (size_t k = 0; k < pull.size(); ++k)
    if (pull[k] > force) return int(k) + 1;
  return -1;
}

class AnchorSpringSolvers : public testing::TestWithParam<SolverKind> {};

TEST_P(AnchorSpringSolvers, PullFollowsTheOscillatorAndBreaksInTheFrameItFirstExceedsTheLimit) {
  const SolverKind kind = GetParam();
  const float mg = kMass * kG;
  const float limit = 1.5f * mg;
  // Half a period and a bit: the peak is at frame 43.
  const HangRun unbroken = hang(kind, 0.0f, 0.0f, 50);
  ASSERT_EQ(unbroken.pull.size(), 50u);
  EXPECT_EQ(unbroken.brokenFrame, -1) << "no limit: never breaks";
  float peak = 0.0f;
  for (float p : unbroken.pull) peak = std::max(peak, p);
  const int crossing = firstFrameAbove(unbroken.pull, limit);
  std::printf("  %s: peak pull %.3f N (2 m g = %.3f), first frame above 1.5 m g: %d (closed form %d)\n",
              phystest::solverName(kind), peak, 2.0f * mg, crossing, analyticFirstFrameAbove(limit));
  // The pull is the spring's: the sub-springs agree with the centroid's stretch.
  for (size_t k = 0; k < unbroken.pull.size(); ++k)
    EXPECT_NEAR(unbroken.pull[k], unbroken.centroidPull[k], 0.01f * mg) << "frame " << k + 1;
  ASSERT_GT(crossing, 0);
  if (kind != SolverKind::Pbd) {
    // Undamped oscillator: peak 2 m g (the 60 Hz sampling misses the crest by
    // at most 1 - cos(omega dt / 2) = 0.07 %; implicit Euler at 1200
    // substeps/s loses (omega h)^2 / 2 per substep, 0.05 % in half a period),
    // first above 1.5 m g in frame 29. 2 % allows the cube's own sag.
    EXPECT_NEAR(peak, 2.0f * mg, 0.02f * mg);
    EXPECT_NEAR(crossing, analyticFirstFrameAbove(limit), 1) << "within one frame of the closed form";
  } else {
    // PBD's compliance is a per-projection fraction, not 1 / k (docs/solvers.md): its spring is softer and the
    // cube drops further, so it crosses earlier; only that it is softer, not by how much.
    EXPECT_GT(peak, 2.0f * mg);
  }

  // With the limit: whole until the frame whose end state first pulls harder, then broken.
  const HangRun breaking = hang(kind, limit, 0.0f, crossing + 31);
  EXPECT_EQ(breaking.brokenFrame, crossing) << "breaks in the frame its force first exceeds F";
  for (int f = 1; f < crossing; ++f) EXPECT_LE(breaking.pull[size_t(f - 1)], limit) << "frame " << f;
  EXPECT_GT(breaking.pull[size_t(crossing - 1)], limit);
  // Then nothing holds the cube: 30 frames of free fall, dv = -g 0.5 s (2 %).
  EXPECT_NEAR(breaking.vyAfter - breaking.vyAtBreak, -kG * 30.0f * kDt, 0.02f * kG * 30.0f * kDt);

  // A breaking strain at the same stretch, 1.5 m g / k over L (less 0.1 % so
  // rounding cannot move it past the frame): the same frame.
  const float strain = 0.999f * limit / kStiffness / unbroken.restLength;
  const HangRun strained = hang(kind, 0.0f, strain, crossing + 1);
  EXPECT_EQ(strained.brokenFrame, crossing);
}

TEST_P(AnchorSpringSolvers, AResetBringsBrokenSpringsBack) {
  const SolverKind kind = GetParam();
  // 1 N: the pull m g (1 - cos(omega t)) passes it at t = 0.104 s, in frame 7.
  Result<BuiltScene> built = buildScene(hungCube(1.0f, 0.0f), SceneBuildOptions{});
  ASSERT_TRUE(built.ok()) << built.error().message;
  CpuSimulator sim(built->scene.model, makeSceneState(built->scene), kind);
  const SolverSettings settings = settingsFor(built->scene.settings, kind);
  auto framesUntilBroken = [&] {
    for (int f = 1; f <= 20; ++f) {
      StepDiagnostics d;
      EXPECT_TRUE(sim.step(settings, d).ok());
      if (d.springsBroken) return f;
    }
    return -1;
  };
  const int first = framesUntilBroken();
  ASSERT_GT(first, 0);
  if (kind != SolverKind::Pbd) EXPECT_NEAR(first, analyticFirstFrameAbove(1.0f), 1);
  EXPECT_EQ(sim.springs().brokenCount(), 1u);
  ASSERT_TRUE(sim.writeState(makeSceneState(built->scene)).ok());
  EXPECT_EQ(sim.springs().brokenCount(), 0u);
  EXPECT_GT(sim.springs().stiffness[0], 0.0f);
  EXPECT_EQ(sim.springs().frames, 0);
  // Whole again, it holds and breaks as before.
  EXPECT_EQ(framesUntilBroken(), first);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, AnchorSpringSolvers,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

TEST(AnchorSprings, SceneFilesKeepThemAndBadSpringsAreNamed) {
  SceneDesc d = hungCube(14.7f, 0.25f);
  Result<SceneDesc> back = parseSceneJson(sceneToJsonText(d), "<test>");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->bodies[0].springs.size(), 1u);
  const AnchorSpringSpec& s = back->bodies[0].springs[0];
  EXPECT_EQ(s.name, "hanger");
  EXPECT_EQ(s.attach, d.bodies[0].springs[0].attach);
  EXPECT_EQ(s.anchor, d.bodies[0].springs[0].anchor);
  EXPECT_FLOAT_EQ(s.stiffness, kStiffness);
  EXPECT_FLOAT_EQ(s.restLength, -1.0f) << "the default (from the distance) is not written as a number";
  EXPECT_FLOAT_EQ(s.breakForce, 14.7f);
  EXPECT_FLOAT_EQ(s.breakStrain, 0.25f);

  // A patch that misses the body names the body, the spring and the distance.
  SceneDesc miss = hungCube(0.0f, 0.0f);
  miss.bodies[0].springs[0].attach = glm::vec3(0.0f, 5.0f, 0.0f);
  Result<BuiltScene> built = buildScene(miss, SceneBuildOptions{});
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.error().message.find("body 'cube', springs[0] ('hanger')"), std::string::npos)
      << built.error().message;
  EXPECT_NE(built.error().message.find("raise radius"), std::string::npos) << built.error().message;

  // Out-of-range values in a file: the JSON path and the range.
  Result<SceneDesc> bad = parseSceneJson(
      R"({"bodies": [{"box": {}, "springs": [{"attach": [0,0,0], "anchor": [0,1,0], "stiffness": -5}]}]})", "f.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("/bodies/0/springs/0/stiffness"), std::string::npos) << bad.error().message;
  Result<SceneDesc> noAnchor =
      parseSceneJson(R"({"bodies": [{"box": {}, "springs": [{"attach": [0,0,0]}]}]})", "f.json");
  ASSERT_FALSE(noAnchor.ok());
  EXPECT_NE(noAnchor.error().message.find("anchor"), std::string::npos) << noAnchor.error().message;
}

// Float positions step a spring's force by k ulp(x): at 1e9 N/m and 2.6 m
// (ulp 2.4e-7 m) that is 238 N, so a limit of 1.5 m g = 14.7 N is rounding;
// at the test's own 19.3 N/m it is 5e-6 N and nothing is said.
TEST(AnchorSprings, AStiffSpringsForceStepNearItsLimitIsNamed) {
  Result<BuiltScene> soft = buildScene(hungCube(14.7f, 0.0f), SceneBuildOptions{});
  ASSERT_TRUE(soft.ok()) << soft.error().message;
  EXPECT_EQ(springResolutionWarning(soft->scene.springs), "");
  SceneDesc d = hungCube(14.7f, 0.0f);
  d.bodies[0].springs[0].stiffness = 1.0e9f;
  Result<BuiltScene> stiff = buildScene(d, SceneBuildOptions{});
  ASSERT_TRUE(stiff.ok()) << stiff.error().message;
  const AnchorSpring& s = stiff->scene.springs.springs[0];
  EXPECT_NEAR(springForceResolution(s), 1.0e9f * (std::nextafter(2.6f, 3.0f) - 2.6f), 1.0f);
  const std::string w = springResolutionWarning(stiff->scene.springs);
  EXPECT_NE(w.find("spring 'hanger'"), std::string::npos) << w;
  EXPECT_NE(w.find("lower its stiffness or raise the limit"), std::string::npos) << w;
}

TEST(AnchorSprings, DefaultRestLengthStartsUnstretchedAndEnergyIsHalfKStretchSquared) {
  SceneDesc d = hungCube(0.0f, 0.0f);
  d.bodies[0].springs[0].restLength = -1.0f;  // from the rest distance
  d.bodies[0].springs[0].anchor = glm::vec3(0.3f, kTop + 0.4f, 0.0f);
  Result<BuiltScene> built = buildScene(d, SceneBuildOptions{});
  ASSERT_TRUE(built.ok()) << built.error().message;
  const AnchorSprings& sp = built->scene.springs;
  // |anchor - patch centroid|: the centroid lies 1.79 cm below the attach point (the middle layer's vertices).
  EXPECT_NEAR(sp.springs[0].restLength, glm::length(d.bodies[0].springs[0].anchor - sp.springs[0].attach), 1e-6f);
  EXPECT_LT(sp.springs[0].attach.y, kTop);
  State state = makeSceneState(built->scene);
  std::vector<glm::vec4> subX;
  gatherSpringPositions(sp, state.x, subX);
  EXPECT_LT(glm::length(anchorSpringForce(sp, 0, subX)), 1e-4f);
  // Move the cube 2 cm straight away from the anchor: E = k/2 (0.02)^2 summed over sub-springs of k/14.
  const glm::vec3 away = glm::normalize(sp.springs[0].attach - sp.springs[0].anchor) * 0.02f;
  for (glm::vec4& x : state.x) x += glm::vec4(away, 0.0f);
  gatherSpringPositions(sp, state.x, subX);
  EXPECT_NEAR(anchorSpringEnergy(sp, subX), 0.5 * kStiffness * 0.02 * 0.02, 1e-3 * 0.5 * kStiffness * 0.0004);
  EXPECT_NEAR(glm::length(anchorSpringForce(sp, 0, subX)), kStiffness * 0.02f, 1e-3f * kStiffness * 0.02f);
}

}  // namespace
}  // namespace tetlab
