// Force fields (issue 15 item 5, core/sim/force_fields.h): the field law
// (direction, sign, region and falloff) from the shared function, and on every
// solver the motion it causes: a free particle in a radial field of strength s
// accelerates at s / m; a per-mass directional field accelerates a whole body
// like gravity; a vortex turns a ring of particles about its axis.
#include <gtest/gtest.h>

#include <cmath>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/force_fields.clh"

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/scene/scene_json.h"
#include "core/sim/force_fields.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

glm::vec3 pushAt(const ForceField& f, glm::vec3 p) {
  const std::vector<glm::vec4> r = packForceFields(ForceFields{{f}});
  EXPECT_EQ(r.size(), size_t(kForceFieldStride));
  return clm::field_push(p, r[0], r[1], r[2]);
}

TEST(ForceFieldLaw, RadialPushesAwayAndAttractsWithANegativeStrength) {
  ForceField f;
  f.kind = ForceFieldKind::Radial;
  f.center = glm::vec3(1.0f, 0.0f, 0.0f);
  f.strength = 2.0f;
  const glm::vec3 p = pushAt(f, glm::vec3(1.0f, 3.0f, 4.0f));  // 5 m away along (0, 0.6, 0.8)
  EXPECT_NEAR(p.x, 0.0f, 1e-6f);
  EXPECT_NEAR(p.y, 1.2f, 1e-6f);
  EXPECT_NEAR(p.z, 1.6f, 1e-6f);
  f.strength = -2.0f;
  EXPECT_NEAR(pushAt(f, glm::vec3(1.0f, 3.0f, 4.0f)).y, -1.2f, 1e-6f);
  EXPECT_EQ(pushAt(f, f.center), glm::vec3(0.0f)) << "no direction at the centre: no push";
}

TEST(ForceFieldLaw, RegionAndFalloff) {
  ForceField f;
  f.kind = ForceFieldKind::Directional;
  f.direction = glm::vec3(0.0f, 0.0f, 2.0f);  // normalised when packed
  f.strength = 4.0f;
  f.radius = 2.0f;
  f.falloff = 2.0f;
  EXPECT_NEAR(pushAt(f, glm::vec3(1.0f, 0.0f, 0.0f)).z, 4.0f * 0.25f, 1e-6f);  // (1 - 1/2)^2
  EXPECT_EQ(pushAt(f, glm::vec3(2.5f, 0.0f, 0.0f)), glm::vec3(0.0f)) << "outside the region";
  f.falloff = 0.0f;
  EXPECT_NEAR(pushAt(f, glm::vec3(1.9f, 0.0f, 0.0f)).z, 4.0f, 1e-6f) << "falloff 0: a hard edge";
  f.radius = 0.0f;
  EXPECT_NEAR(pushAt(f, glm::vec3(100.0f, 0.0f, 0.0f)).z, 4.0f, 1e-6f) << "no region: everywhere";
}

TEST(ForceFieldLaw, VortexTurnsAboutItsAxisCounterClockwise) {
  ForceField f;
  f.kind = ForceFieldKind::Vortex;
  f.direction = glm::vec3(0.0f, 1.0f, 0.0f);
  f.strength = 3.0f;
  const glm::vec3 p = pushAt(f, glm::vec3(2.0f, 5.0f, 0.0f));  // on +x, any height
  EXPECT_NEAR(p.x, 0.0f, 1e-6f);
  EXPECT_NEAR(p.y, 0.0f, 1e-6f);
  EXPECT_NEAR(p.z, -3.0f, 1e-6f);  // y x x = -z
  EXPECT_EQ(pushAt(f, glm::vec3(0.0f, 7.0f, 0.0f)), glm::vec3(0.0f)) << "on the axis: no push";
}

TEST(ForceFieldLaw, ScenesKeepTheirFields) {
  SceneDesc desc;
  desc.bodies.push_back(BodySpec{});
  ForceField f;
  f.kind = ForceFieldKind::Vortex;
  f.center = glm::vec3(0.1f, 0.2f, 0.3f);
  f.direction = glm::vec3(0.0f, 0.0f, 1.0f);
  f.strength = -2.5f;
  f.radius = 0.4f;
  f.falloff = 1.5f;
  f.perMass = true;
  desc.settings.forceFields.fields = {f, ForceField{}};
  desc.settings.forceFields.fields[1].enabled = false;
  Result<SceneDesc> back = parseSceneJson(sceneToJsonText(desc), "round trip");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->settings.forceFields.fields.size(), 2u);
  const ForceField& g = back->settings.forceFields.fields[0];
  EXPECT_EQ(g.kind, ForceFieldKind::Vortex);
  EXPECT_EQ(g.center, f.center);
  EXPECT_EQ(g.direction, f.direction);
  EXPECT_EQ(g.strength, f.strength);
  EXPECT_EQ(g.radius, f.radius);
  EXPECT_EQ(g.falloff, f.falloff);
  EXPECT_TRUE(g.perMass);
  EXPECT_FALSE(back->settings.forceFields.fields[1].enabled);
}

class ForceFieldMotion : public testing::TestWithParam<SolverKind> {};

SolverSettings freeSpace(SolverKind kind) {
  SolverSettings s;
  s.solver = kind;
  s.step.gravity = glm::vec3(0.0f);
  s.step.substeps = 10;
  s.step.iterations = 4;
  s.colliders.ground.enabled = false;
  return s;
}

// A two-point strand (its points of equal mass m, the segment carrying no
// force while both move alike) 10 m from a radial field's centre, strength s
// = 2 m/s^2 x m: each point accelerates at s / m away from it, for 1 s.
TEST_P(ForceFieldMotion, RadialFieldAcceleratesAFreeParticleAtStrengthOverMass) {
  BodyDesc body = strandBody({{glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, 0.01f)}});
  body.material.density = 1000.0f;
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  ASSERT_TRUE(built.ok()) << built.error().message;
  const SimModel& m = *built;
  State state = makeState(m);
  SolverSettings s = freeSpace(GetParam());
  ForceField f;
  f.kind = ForceFieldKind::Radial;
  f.center = glm::vec3(-10.0f, 0.0f, 0.005f);
  f.strength = 2.0f * m.mass[0];
  s.forceFields.fields = {f};
  auto solver = makeCpuSolver(s.solver);
  solver->reset(m, state);
  StepDiagnostics d;
  ASSERT_TRUE(phystest::run(m, s, *solver, state, 60, d));
  const double a = f.strength / double(m.mass[0]);
  for (uint32_t i = 0; i < 2; ++i) {
    std::printf("  %s: v_x %.6g m/s, expected a t = %.6g m/s\n", phystest::solverName(GetParam()), state.v[i].x, a);
    EXPECT_NEAR(state.v[i].x, a * 1.0, 0.01 * a) << "point " << i;
    EXPECT_NEAR(state.v[i].y, 0.0, 1e-3 * a);
  }
}

// A per-mass directional field of 3 m/s^2 along +x on a free box: its centre
// of mass moves as under gravity, v = a t, whatever the vertex masses.
TEST_P(ForceFieldMotion, PerMassDirectionalFieldActsLikeGravity) {
  Material mat;
  mat.youngsModulus = 1e5f;
  const SimModel m = phystest::buildBox(glm::vec3(0.0f), glm::vec3(0.1f), glm::uvec3(2), mat);
  State state = makeState(m);
  SolverSettings s = freeSpace(GetParam());
  ForceField f;
  f.kind = ForceFieldKind::Directional;
  f.direction = glm::vec3(1.0f, 0.0f, 0.0f);
  f.strength = 3.0f;
  f.perMass = true;
  s.forceFields.fields = {f};
  auto solver = makeCpuSolver(s.solver);
  solver->reset(m, state);
  StepDiagnostics d;
  ASSERT_TRUE(phystest::run(m, s, *solver, state, 30, d));
  const glm::dvec3 p = phystest::linearMomentum(m, state) / phystest::totalMass(m);
  EXPECT_NEAR(p.x, 3.0 * 0.5, 0.01 * 1.5);
  EXPECT_NEAR(p.y, 0.0, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, ForceFieldMotion,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

}  // namespace
}  // namespace tetlab
