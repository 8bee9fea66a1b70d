// Wind on cloth (core/sim/wind.h, shaders/cl/common/wind.clh): the force law
// against the aerodynamics it states (drag 1/2 rho C_d A |cos| s^2 along the
// flow, lift 1/2 rho C_l A cos sin s^2 across it), no force without relative
// air motion, the kick's momentum equal to the summed force, gusts that
// reproduce from their seed, and a flag held along one edge that streams out
// downstream on all four solvers.
#include <gtest/gtest.h>

#include <cmath>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/wind.clh"

#include <glm/trigonometric.hpp>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

constexpr float kRho = 1.225f, kDrag = 1.2f, kLift = 0.6f;

SimModel sheet(glm::vec3 corner, float side, glm::vec3 rotateDeg = glm::vec3(0.0f)) {
  SurfaceMesh patch = makeClothPatch(corner, glm::vec2(side), glm::uvec2(8, 8));
  if (rotateDeg != glm::vec3(0.0f)) {
    const float a = glm::radians(rotateDeg.x), c = std::cos(a), s = std::sin(a);
    for (glm::vec3& p : patch.positions) {
      const glm::vec3 d = p - corner;
      p = corner + glm::vec3(d.x, c * d.y - s * d.z, s * d.y + c * d.z);  // about x through the corner
    }
  }
  BodyDesc body = clothBody(patch);
  body.material.youngsModulus = 1.0e6f;
  body.material.density = 200.0f;
  body.material.thickness = 1.0e-3f;
  body.name = "sheet";
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(built.ok()) << built.error().message;
  return std::move(built).value();
}

// Sum of the triangle forces on a still sheet.
glm::dvec3 totalForce(const SimModel& m, glm::vec3 wind) {
  glm::dvec3 sum(0.0);
  const glm::vec3 still(0.0f);
  for (const glm::uvec3& t : m.clothTriangles)
    sum += glm::dvec3(clm::wind_triangle_force(m.restPositions[t.x], m.restPositions[t.y], m.restPositions[t.z], still,
                                               still, still, wind, kRho, kDrag, kLift));
  return sum;
}

TEST(Wind, HeadOnDragIsHalfRhoVSquaredCdAAndLiftVanishes) {
  const float side = 0.4f, v = 6.0f;
  const SimModel m = sheet(glm::vec3(0.0f), side);  // normal +y
  const double expected = 0.5 * kRho * v * v * kDrag * side * side;
  for (float sign : {1.0f, -1.0f}) {  // either face catches it
    const glm::dvec3 f = totalForce(m, glm::vec3(0.0f, sign * v, 0.0f));
    EXPECT_NEAR(f.y, sign * expected, 1e-5 * expected);
    EXPECT_NEAR(f.x, 0.0, 1e-6 * expected);
    EXPECT_NEAR(f.z, 0.0, 1e-6 * expected);
  }
  // Edge-on: neither drag nor lift.
  const glm::dvec3 edge = totalForce(m, glm::vec3(v, 0.0f, 0.0f));
  EXPECT_NEAR(glm::length(edge), 0.0, 1e-6 * expected);
}

// At 30 degrees between the flow and the sheet's normal: drag |cos| = 0.866 of
// the head-on value along the flow, lift cos sin = 0.433 across it, in the
// plane of the flow and the normal.
TEST(Wind, DragAndLiftAtAnAngleFollowTheFlatPlateLaw) {
  const float side = 0.4f, v = 5.0f;
  const SimModel m = sheet(glm::vec3(0.0f), side);
  const float a = glm::radians(30.0f);
  const glm::vec3 flow(std::sin(a), std::cos(a), 0.0f);  // 30 deg from +y, in the xy plane
  const glm::dvec3 f = totalForce(m, v * flow);
  const double q = 0.5 * kRho * v * v * side * side;
  const glm::dvec3 uh(flow);
  const glm::dvec3 across = glm::normalize(glm::dvec3(0.0, 1.0, 0.0) - double(std::cos(a)) * uh);
  EXPECT_NEAR(glm::dot(f, uh), q * kDrag * std::cos(a), 1e-5 * q);
  EXPECT_NEAR(glm::dot(f, across), q * kLift * std::cos(a) * std::sin(a), 1e-5 * q);
}

SolverSettings windSettings(SolverKind kind, glm::vec3 wind) {
  SolverSettings s;
  s.solver = kind;
  s.step.constraints.neoHookean = false;
  s.step.constraints.collisions = false;
  s.wind.enabled = true;
  s.wind.velocity = wind;
  s.wind.fluidDensity = kRho;
  s.wind.drag = kDrag;
  s.wind.lift = kLift;
  return s;
}

TEST(Wind, StillAirOnAStillSheetAppliesNothing) {
  const SimModel m = sheet(glm::vec3(0.0f, 1.0f, 0.0f), 0.4f);
  State state = makeState(m);
  const State start = state;
  SolverSettings s = windSettings(SolverKind::Xpbd, glm::vec3(0.0f));
  s.step.gravity = glm::vec3(0.0f);
  s.wind.gust = 0.8f;  // gusts scale the mean wind: still air stays still
  // The wind alone: the hinges' float weights leave |v| ~ 1e-8 on the flat sheet,
  // and the membrane's float F a Green strain of ~1e-8 at rest, which move it by
  // ~1e-18 m and ~1e-9 m; bit-equality asks for no other force, so the sheet's
  // stretch is its edge springs (exactly at rest length).
  s.step.constraints.bending = false;
  s.step.constraints.membrane = false;
  auto solver = makeCpuSolver(s.solver);
  solver->reset(m, state);
  StepDiagnostics d;
  for (int f = 0; f < 10; ++f) stepSimulation(m, s, *solver, state, d);
  for (uint32_t i = 0; i < m.vertexCount(); ++i) {
    EXPECT_EQ(state.x[i], start.x[i]);
    EXPECT_EQ(state.v[i], start.v[i]);
  }
}

// One substep of a free sheet in wind, no gravity: the kick's momentum
// sum m_i dv_i equals h times the summed triangle force.
TEST(Wind, KickCarriesTheSummedForce) {
  const SimModel m = sheet(glm::vec3(0.0f, 1.0f, 0.0f), 0.4f);
  State state = makeState(m);
  SolverSettings s = windSettings(SolverKind::Pbd, glm::vec3(1.0f, 4.0f, 0.5f));
  s.step.gravity = glm::vec3(0.0f);
  s.step.substeps = 1;
  s.step.dt = 1e-3f;
  const std::vector<glm::uvec4> tris = packWindElements(m);
  glm::dvec3 momentum(0.0);
  for (uint32_t i = 0; i < m.vertexCount(); ++i)
    momentum += double(m.mass[i]) *
                glm::dvec3(clm::wind_vertex_dv(i, state.x.data(), state.v.data(), tris.data(),
                                               m.vertexWindElements.offsets.data(),
                                               m.vertexWindElements.items.data(), s.wind.velocity, kRho, kDrag,
                                               kLift, s.step.dt));
  const glm::dvec3 force = totalForce(m, s.wind.velocity);
  EXPECT_NEAR(glm::length(momentum - double(s.step.dt) * force), 0.0, 1e-5 * double(s.step.dt) * glm::length(force));
}

// A strand across a steady wind feels a cylinder's cross-flow drag,
// 1/2 rho C_d d L v^2 along the wind; along the wind it feels nothing; at 30
// degrees only the flow across it (v sin 30) pushes, across the strand.
TEST(Wind, StrandFeelsTheCrossFlowDragOfACylinder) {
  const float L = 0.5f, d = 0.004f, v = 6.0f;
  for (float angle : {90.0f, 0.0f, 30.0f}) {
    const float a = angle * 3.14159265f / 180.0f;
    const glm::vec3 t(std::cos(a), std::sin(a), 0.0f);  // the strand's direction; the wind blows along x
    std::vector<glm::vec3> points;
    for (int k = 0; k <= 10; ++k) points.push_back(glm::vec3(0.0f, 1.0f, 0.0f) + t * (L * float(k) / 10.0f));
    BodyDesc body = strandBody({points});
    body.material.thickness = d;
    auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
    ASSERT_TRUE(built.ok()) << built.error().message;
    const SimModel& m = *built;
    State state = makeState(m);
    SolverSettings s = windSettings(SolverKind::Pbd, glm::vec3(v, 0.0f, 0.0f));
    const float h = 1e-3f;
    const std::vector<glm::uvec4> elements = packWindElements(m);
    glm::dvec3 momentum(0.0);
    for (uint32_t i = 0; i < m.vertexCount(); ++i)
      momentum += double(m.mass[i]) *
                  glm::dvec3(clm::wind_vertex_dv(i, state.x.data(), state.v.data(), elements.data(),
                                                 m.vertexWindElements.offsets.data(),
                                                 m.vertexWindElements.items.data(), s.wind.velocity, kRho, kDrag,
                                                 kLift, h));
    const glm::dvec3 u(v, 0.0, 0.0), across = u - glm::dvec3(t) * glm::dot(u, glm::dvec3(t));
    const glm::dvec3 expected = 0.5 * kRho * kDrag * d * L * glm::length(across) * across;
    EXPECT_NEAR(glm::length(momentum / double(h) - expected), 0.0, 1e-4 * (0.5 * kRho * kDrag * d * L * v * v))
        << "angle " << angle;
    if (angle == 0.0f) EXPECT_LT(glm::length(momentum), 1e-12) << "along the wind: nothing";
  }
}

TEST(Wind, GustsReproduceFromTheirSeedAndStayInTheirBand) {
  WindSettings w;
  w.velocity = glm::vec3(3.0f, 0.0f, 0.0f);
  w.gust = 0.5f;
  w.gustPeriod = 0.4f;
  w.seed = 7;
  double lo = INFINITY, hi = -INFINITY;
  for (int k = 0; k < 400; ++k) {
    const double t = 0.01 * k;
    const glm::vec3 a = windVelocityAt(w, t);
    EXPECT_EQ(a, windVelocityAt(w, t));
    lo = std::min(lo, double(a.x));
    hi = std::max(hi, double(a.x));
  }
  EXPECT_GE(lo, 1.5 - 1e-5);
  EXPECT_LE(hi, 4.5 + 1e-5);
  EXPECT_GT(hi - lo, 0.5) << "the gusts vary the wind";
  w.seed = 8;
  EXPECT_NE(windVelocityAt(w, 1.0), windVelocityAt(WindSettings{true, w.velocity, 1.225f, 1.0f, 0.5f, 0.5f, 0.4f, 7}, 1.0));
}

class WindFlag : public testing::TestWithParam<SolverKind> {};

// A 40 cm flag in the plane z = 0 held along its edge x = 0, in a 6 m/s wind
// along +z: head-on it feels 1/2 rho C_d A v^2 = 4.2 N against a weight of
// 0.31 N, so it swings round and streams out downstream: its centre of mass
// ends at least a quarter of its length down the wind.
TEST_P(WindFlag, StreamsOutDownstream) {
  const float side = 0.4f;
  const SimModel m = sheet(glm::vec3(0.0f, 1.0f, 0.0f), side, glm::vec3(90.0f, 0.0f, 0.0f));  // now in z = 0
  State state = makeState(m);
  const uint32_t pinned = pinVertices(m, state, [](glm::vec3 p) { return p.x < 1e-4f; });
  ASSERT_EQ(pinned, 9u);
  SolverSettings s = windSettings(GetParam(), glm::vec3(0.0f, 0.0f, 6.0f));
  s.step.iterations = 8;
  auto solver = makeCpuSolver(s.solver);
  solver->reset(m, state);
  StepDiagnostics d;
  for (int f = 0; f < 120; ++f) {
    stepSimulation(m, s, *solver, state, d);
    ASSERT_TRUE(d.finite) << d.problem;
  }
  double com = 0.0, mass = 0.0;
  for (uint32_t i = 0; i < m.vertexCount(); ++i) {
    com += double(m.mass[i]) * state.x[i].z;
    mass += m.mass[i];
  }
  std::printf("  %s: flag centre of mass %.3f m downstream\n", phystest::solverName(GetParam()), com / mass);
  EXPECT_GT(com / mass, 0.25 * side);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, WindFlag,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         phystest::paramName);

}  // namespace
}  // namespace tetlab
