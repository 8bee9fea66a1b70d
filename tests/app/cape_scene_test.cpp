// The cape preset (issue 13): a cloth whose top edge is pinned to a mesh SDF
// collider (the armadillo, assets/scenes/cape.json) through a pin region that
// follows the collider (core/sim/pin_followers.h). The character is swayed
// the way a user ctrl-drags it, 25 cm side to side and 15 cm back and forth
// (an 0.8 Hz sway: up to 1.3 m/s), for 300 frames on every solver and both
// backends. Asserted:
//  - the pinned edge is exactly where the collider's frame puts it, every frame
//    (the pins are kinematic and written by the session, not solved);
//  - after 300 frames no cloth vertex is inside the collider deeper than the
//    cloth's thickness (1 mm), while the cape lies on the back (its nearest
//    free vertex within 3 cm); in every frame before, none deeper than the
//    4 mm contact layer the projecting solvers keep it out of, and for VBD's
//    penalty contacts less than the character's travel in one frame (measured:
//    0 at the end on every solver; mid-sway 0 on PBD, XPBD and AVBD, 3.6 mm on
//    VBD);
//  - the cape moved with the character (its free corner followed the sway).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "tests/app/app_test_util.h"
#include "core/scene/enum_names.h"
#include "core/session/sim_session.h"
#include "core/sim/collider_records.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {
namespace {

struct CapeRun {
  SolverKind solver;
  Backend backend;
  bool hardPins = false;  // AVBD: pins as hard rows with targets of its own, which must follow too
};

std::string caseName(const testing::TestParamInfo<CapeRun>& info) {
  return std::string(solverName(info.param.solver)) + (info.param.hardPins ? "_hard_pins" : "") +
         (info.param.backend == Backend::OpenCl ? "_opencl" : "_cpu");
}

class CapeScene : public testing::TestWithParam<CapeRun> {
 protected:
  // The cape preset on the run's solver and backend with these spheres (skips without an OpenCL device).
  void start(const SphereSettings& spheres = {}) {
    const CapeRun run = GetParam();
    Result<SceneDesc> desc = test::loadPresetDesc("cape.json");
    ASSERT_TRUE(desc.ok()) << desc.error().message;
    desc->settings.solver = run.solver;
    desc->settings.avbd.hardPins = run.hardPins;
    desc->settings.spheres = spheres;
    session_ = test::makeSession(*desc);
    ASSERT_TRUE(session_);
    if (run.backend != Backend::OpenCl) return;
    Result<ClContext> made = createClContext();
    if (!made) GTEST_SKIP() << "no OpenCL device: " << made.error().message;
    ctx_.emplace(std::move(*made));
    Status st = session_->setBackend(Backend::OpenCl, &*ctx_);
    ASSERT_TRUE(st.ok()) << st.error().message;
  }
  std::optional<ClContext> ctx_;         // outlives the session, which uses it
  std::unique_ptr<SimSession> session_;
};

TEST_P(CapeScene, FollowsTheDraggedCharacterAndStaysOutsideIt) {
  const CapeRun run = GetParam();
  start();
  if (IsSkipped() || HasFatalFailure()) return;
  std::unique_ptr<SimSession>& session = session_;
  const Scene& scene = session->built().scene;
  ASSERT_EQ(scene.followers.size(), 1u);
  const PinFollower& follower = scene.followers[0];
  ASSERT_GE(follower.vertices.size(), 10u) << "the cape's whole top edge follows the character";
  const float thickness = scene.model.materials.at(0).thickness;

  Colliders& colliders = session->settings().colliders;
  ASSERT_EQ(colliders.meshes.size(), 1u);
  const glm::vec3 home = colliders.meshes[0].center;
  // The corner farthest below the pins: it hangs free and must follow the sway.
  uint32_t corner = 0;
  for (uint32_t i = 0; i < scene.model.vertexCount(); ++i)
    if (scene.model.restPositions[i].y < scene.model.restPositions[corner].y) corner = i;

  const float dt = session->settings().step.dt;
  std::vector<glm::vec3> targets;
  double cornerTravel = 0.0;
  glm::vec3 cornerBefore = glm::vec3(session->state().x[corner]);
  float deepestEver = 0.0f;  // over every frame
  constexpr int kFrames = 300;
  for (int f = 0; f < kFrames; ++f) {
    const float t = float(f) * dt;
    const float w = 2.0f * 3.14159265f * 0.8f;
    colliders.meshes[0].center = home + glm::vec3(0.25f * std::sin(w * t), 0.0f, 0.15f * std::sin(0.5f * w * t));
    session->advance();
    ASSERT_FALSE(session->blownUp()) << "frame " << f << ": " << session->blowUpMessage();
    ASSERT_TRUE(session->syncPositions().ok());
    const State& s = session->state();
    followerTargets(follower, *colliderFrame(colliders, follower.collider), targets);
    for (size_t k = 0; k < follower.vertices.size(); ++k) {
      const glm::vec4 x = s.x[follower.vertices[k]];
      ASSERT_EQ(x.w, 0.0f) << "a follower is still a pin";
      // Kinematic pins sit exactly there; AVBD's hard pins are held by rows (to 1e-5 m).
      ASSERT_LT(glm::length(glm::vec3(x) - targets[k]), 1e-5f) << "frame " << f << ": pin " << k << " left the collider";
    }
    const ColliderRecords now = packColliders(colliders);
    for (uint32_t i = 0; i < s.x.size(); ++i)
      forEachCollider(now, glm::vec3(s.x[i]), [&](const ColliderSample& c) { deepestEver = std::max(deepestEver, -c.phi); });
    const glm::vec3 c = glm::vec3(s.x[corner]);
    cornerTravel += glm::length(c - cornerBefore);
    cornerBefore = c;
  }

  const ColliderRecords records = packColliders(colliders);
  const State& s = session->state();
  const int32_t character = int32_t(colliderRecordCount(colliders)) - 1;  // the last record: the one mesh
  float deepest = 0.0f, nearestFree = INFINITY;
  uint32_t deepestVertex = 0;
  for (uint32_t i = 0; i < s.x.size(); ++i)
    forEachCollider(records, glm::vec3(s.x[i]), [&](const ColliderSample& c) {
      if (-c.phi > deepest) {
        deepest = -c.phi;
        deepestVertex = i;
      }
      if (c.id == character && s.x[i].w > 0.0f) nearestFree = std::min(nearestFree, c.phi);
    });
  std::printf("  %s: deepest vertex %.2f mm inside a collider (vertex %u), nearest free vertex %.2f mm from the "
              "character, free corner travelled %.2f m; deepest in any frame %.2f mm\n",
              caseName({run, 0}).c_str(), 1e3 * deepest, deepestVertex, 1e3 * nearestFree, cornerTravel,
              1e3 * deepestEver);
  EXPECT_LE(deepest, thickness) << "vertex " << deepestVertex << " is inside the character";
  // Mid-sway: the session moves the character once per frame, by up to |v| dt (1.31 m/s / 60 =
  // 22 mm), so vertices start each frame up to that deep. The projecting solvers (PBD, XPBD, AVBD's
  // contact rows) put them back within the 4 mm contact layer the scene sets for all; VBD's penalty
  // contacts push them out over the substeps and leave a few mm (measured 3.6 mm at the default
  // k_c = 1e6 N/m, and more, not less, when stiffer: 6.5 mm at 1e7, 10.5 mm at 1e8, which also
  // leaves VBD's residual 1e5x larger), so VBD is held to less than one frame's travel: no vertex
  // passes through the character.
  const float layer = session->settings().positionBased.contactOffset;
  const float frameTravel = 1.31f * dt;
  EXPECT_LE(deepestEver, run.solver == SolverKind::Vbd ? frameTravel : layer)
      << "a vertex went through the character during the sway";
  // The last frame catches the cape mid-swing, so "on the back" is within 3 cm (measured 5.6-23 mm
  // over the solvers with the membrane; 2-11 mm with edge springs).
  EXPECT_LT(nearestFree, 0.03f) << "the cape lies on the character's back (else the check above is vacuous)";
  // The sway moves the pins about 2.9 m over the run (4 x 0.25 m a period, 4 periods, plus the
  // 15 cm back and forth); a corner dragged along travels at least half of that.
  EXPECT_GT(cornerTravel, 1.4) << "the cape's free corner did not follow the character";
}

// The same sway with motion spheres on through the session (SimSession builds
// the spheres from the pins and the followed character every frame and hands
// them to the backend): every free particle ends within scale d + bias of its
// rest place carried by the character, d its rest distance to the collar.
TEST_P(CapeScene, MotionSpheresHoldTheCapeNearItsPlaceOnTheSwayingCharacter) {
  if (GetParam().hardPins) GTEST_SKIP() << "one AVBD case is enough here";
  SphereSettings spheres;
  spheres.motion = true;
  spheres.motionScale = 0.1f;
  spheres.motionBias = 0.01f;
  start(spheres);
  if (IsSkipped() || HasFatalFailure()) return;
  std::unique_ptr<SimSession>& session = session_;
  Colliders& colliders = session->settings().colliders;
  const glm::vec3 home = colliders.meshes[0].center;
  const float dt = session->settings().step.dt;
  for (int f = 0; f < 120; ++f) {
    const float w = 2.0f * 3.14159265f * 0.8f;
    colliders.meshes[0].center = home + glm::vec3(0.25f * std::sin(w * float(f) * dt), 0.0f, 0.0f);
    session->advance();
    ASSERT_FALSE(session->blownUp()) << session->blowUpMessage();
  }
  ASSERT_TRUE(session->syncPositions().ok());
  const SimModel& model = session->model();
  const State& s = session->state();
  const glm::vec3 shift = colliders.meshes[0].center - home;  // the character only translated
  float worst = -INFINITY, farthest = 0.0f;
  for (uint32_t v = 0; v < model.vertexCount(); ++v) {
    if (s.x[v].w == 0.0f) continue;
    float d = INFINITY;  // rest distance to the nearest pin (the collar)
    for (uint32_t p : session->built().scene.followers[0].vertices)
      d = std::min(d, glm::length(model.restPositions[p] - model.restPositions[v]));
    const float moved = glm::length(glm::vec3(s.x[v]) - (model.restPositions[v] + shift));
    worst = std::max(worst, moved - (0.1f * d + 0.01f));
    farthest = std::max(farthest, moved);
  }
  std::printf("  farthest from its carried rest place %.3f m; worst excess over its sphere %.2g m\n", farthest, worst);
  EXPECT_LT(worst, 1e-4f) << "a particle left its motion sphere";
}

INSTANTIATE_TEST_SUITE_P(AllSolversBothBackends, CapeScene,
                         testing::Values(CapeRun{SolverKind::Pbd, Backend::Cpu}, CapeRun{SolverKind::Xpbd, Backend::Cpu},
                                         CapeRun{SolverKind::Vbd, Backend::Cpu}, CapeRun{SolverKind::Avbd, Backend::Cpu},
                                         CapeRun{SolverKind::Pbd, Backend::OpenCl},
                                         CapeRun{SolverKind::Xpbd, Backend::OpenCl},
                                         CapeRun{SolverKind::Vbd, Backend::OpenCl},
                                         CapeRun{SolverKind::Avbd, Backend::OpenCl},
                                         CapeRun{SolverKind::Avbd, Backend::Cpu, true},
                                         CapeRun{SolverKind::Avbd, Backend::OpenCl, true}),
                         caseName);

}  // namespace
}  // namespace tetlab
