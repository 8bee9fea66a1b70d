// Motion and separation spheres (NvCloth) on the four CPU solvers, applied
// after each substep's solve (core/sim/sphere_constraints.h):
//  - motion: a sheet pinned along one edge swings down under gravity (its far
//    edge falls ~0.4 m); with motion spheres of radius 0.25 d + 2 cm (d the
//    rest distance to the pinned edge) every particle ends within its radius of
//    its rest place: the far edge moves at most 12 cm;
//  - separation: the same sheet held above a ball by pins that follow the
//    ball, ball collisions off, sags into the ball without separation spheres;
//    with them (5 cm, tangent to each rest place towards the ball) no
//    particle ends inside the ball, and the ball's drag carries them along.
#include <gtest/gtest.h>

#include <cmath>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/collider_records.h"
#include "core/sim/solver.h"
#include "core/sim/sphere_constraints.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

constexpr float kSide = 0.4f, kY = 0.5f;

struct Sheet {
  SimModel model;
  State state;
  std::vector<PinFollower> followers;
  SolverSettings settings;
};

Sheet pinnedSheet(SolverKind kind, bool followBall) {
  Sheet s;
  BodyDesc body = clothBody(makeClothPatch(glm::vec3(-0.5f * kSide, kY, 0.0f), glm::vec2(kSide), glm::uvec2(10, 10)));
  body.material.youngsModulus = 1.0e6f;
  body.material.thickness = 1.0e-3f;
  body.material.density = 200.0f;
  body.name = "sheet";
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(built.ok());
  s.model = std::move(*built);
  s.state = makeState(s.model);
  std::vector<uint32_t> edge;
  std::vector<glm::vec3> at;
  for (uint32_t v = 0; v < s.model.vertexCount(); ++v)
    if (s.model.restPositions[v].z < 1e-4f) {
      edge.push_back(v);
      at.push_back(s.model.restPositions[v]);
    }
  pinVertices(s.state, edge);
  s.settings.solver = kind;
  s.settings.step.substeps = 10;
  s.settings.step.iterations = 10;
  s.settings.step.velocityDamping = 1.0f;
  s.settings.step.constraints.neoHookean = false;
  if (followBall) {
    // A ball under the sheet's middle, its top 6 cm below the sheet.
    s.settings.colliders.spheres.push_back(SphereCollider{glm::vec3(0.0f, kY - 0.06f - 0.15f, 0.2f), 0.15f, 0.5f});
    const ColliderRef ball{ColliderList::Spheres, 0};
    s.followers.push_back(makePinFollower(ball, *colliderFrame(s.settings.colliders, ball), edge, at));
  }
  return s;
}

// Steps `frames` frames with the spheres of `spheres` (recomputed every frame
// from the colliders, as the session does); `move` may move the colliders and
// the pins that follow them before each frame, `observe` sees each frame's end.
template <class Move, class Observe>
void run(Sheet& s, const SphereSettings& spheres, int frames, Move&& move, Observe&& observe) {
  auto solver = makeCpuSolver(s.settings.solver);
  solver->reset(s.model, s.state);
  const SphereRig rig = buildSphereRig(s.model, s.followers, s.state.x, s.settings.colliders);
  std::vector<glm::vec4> motion, separation, targets;
  StepDiagnostics d;
  for (int f = 0; f < frames; ++f) {
    move(f, s);
    std::vector<glm::vec3> pins;
    for (const PinFollower& follower : s.followers) {
      followerTargets(follower, *colliderFrame(s.settings.colliders, follower.collider), pins);
      for (size_t k = 0; k < pins.size(); ++k) s.state.x[follower.vertices[k]] = glm::vec4(pins[k], 0.0f);
    }
    s.state.spheres = {};
    if (spheres.any()) {
      sphereTargets(rig, spheres, s.settings.colliders, s.followers, motion, separation);
      SphereTargets& t = s.state.spheres;
      t.motionStart = f > 0 && !targets.empty() ? targets : motion;
      t.motionTarget = motion;
      t.separationStart = t.separationTarget = separation;
      t.stiffness = spheres.stiffness;
      targets = motion;
    }
    stepSimulation(s.model, s.settings, *solver, s.state, d);
    ASSERT_TRUE(d.finite) << d.problem;
    observe(s);
  }
}

void nothing(const Sheet&) {}

class ClothSpheres : public testing::TestWithParam<SolverKind> {};

TEST_P(ClothSpheres, MotionSpheresKeepEachParticleWithinItsRadiusOfItsRestPlace) {
  SphereSettings spheres;
  spheres.motion = true;
  spheres.motionScale = 0.25f;
  spheres.motionBias = 0.02f;
  Sheet free = pinnedSheet(GetParam(), false), held = pinnedSheet(GetParam(), false);
  run(free, SphereSettings{}, 90, [](int, Sheet&) {}, nothing);
  run(held, spheres, 90, [](int, Sheet&) {}, nothing);
  float freeFar = 0.0f, heldFar = 0.0f, worstExcess = -INFINITY;
  for (uint32_t v = 0; v < held.model.vertexCount(); ++v) {
    const glm::vec3 rest = held.model.restPositions[v];
    const float moved = glm::length(glm::vec3(held.state.x[v]) - rest);
    const float radius = 0.25f * rest.z + 0.02f;  // the nearest pin is straight back along z
    if (held.state.x[v].w != 0.0f) worstExcess = std::max(worstExcess, moved - radius);
    heldFar = std::max(heldFar, moved);
    freeFar = std::max(freeFar, glm::length(glm::vec3(free.state.x[v]) - rest));
  }
  std::printf("  %s: farthest from rest %.3f m free, %.3f m with motion spheres (worst excess over the radius %.2g m)\n",
              phystest::solverName(GetParam()), freeFar, heldFar, worstExcess);
  EXPECT_LT(worstExcess, 1e-5f) << "a particle left its motion sphere";
  EXPECT_LT(heldFar, 0.25f * kSide + 0.02f + 1e-5f);
  EXPECT_GT(freeFar, 0.3f) << "without spheres the far edge swings down (the test is not vacuous)";
}

TEST_P(ClothSpheres, SeparationSpheresKeepASheetOutOfTheBallItsPinsFollow) {
  SphereSettings spheres;
  spheres.separation = true;
  spheres.separationRadius = 0.05f;
  auto sway = [](int f, Sheet& s) {  // the ball is dragged 10 cm sideways over the first second
    s.settings.colliders.spheres[0].center.x = 0.1f * std::min(1.0f, float(f) / 60.0f);
  };
  // The deepest any sheet particle gets inside the ball over the run.
  auto deepest = [](const Sheet& s, float& deep) {
    const ColliderRecords records = packColliders(s.settings.colliders);
    for (const glm::vec4& x : s.state.x)
      forEachCollider(records, glm::vec3(x), [&](const ColliderSample& c) {
        if (c.id != 0) deep = std::max(deep, -c.phi);  // the ball, not the ground
      });
  };
  Sheet sinking = pinnedSheet(GetParam(), true), held = pinnedSheet(GetParam(), true);
  for (Sheet* s : {&sinking, &held}) s->settings.step.constraints.collisions = false;  // only the spheres hold it
  float sunk = 0.0f, kept = 0.0f;
  run(sinking, SphereSettings{}, 120, sway, [&](const Sheet& s) { deepest(s, sunk); });
  run(held, spheres, 120, sway, [&](const Sheet& s) { deepest(s, kept); });
  float meanX = 0.0f;
  for (const glm::vec4& x : held.state.x) meanX += x.x / float(held.state.x.size());
  std::printf("  %s: deepest inside the ball %.4f m without separation spheres, %.4f m with; sheet centre x %.3f m\n",
              phystest::solverName(GetParam()), sunk, kept, meanX);
  EXPECT_GT(sunk, 0.01f) << "without spheres or collisions the sheet sinks into the ball";
  EXPECT_LT(kept, 1e-4f) << "the separation spheres keep it out, in every frame";
  EXPECT_GT(meanX, 0.08f) << "the sheet rode along with the dragged ball";
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, ClothSpheres,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

}  // namespace
}  // namespace tetlab
