// The PBD/XPBD body-contact pass (core/cpu/constraints_body_contacts.cpp) on
// hand-built rows, checked against what the maths promises:
//  - a row is linear in x, so one unrelaxed projection closes it exactly;
//  - two rows that describe the same gap (p of A against B, B's vertex against
//    A) close it in one pass without overshoot (relax = 1/2 each);
//  - every pass keeps sum_v m_v dx_v = 0 (rows scaled alike on all vertices);
//  - with all rows acting, one pass does not increase the D-weighted norm of
//    C (the Gershgorin bound, shaders/cl/common/pb_body_contact.clh);
//  - friction removes the tangential motion (static) or mu times the depth (kinetic).
// The last test prints the cost of body contacts in the two-box scene.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include "core/cpu/constraints_projection.h"
#include "tests/cpu/physics_scenes.h"

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/pb_body_contact.clh"

namespace tetlab {
namespace {

// Vertices with the given positions and inverse masses, no rows yet.
State makeRowsState(const std::vector<glm::vec4>& x) {
  State s;
  s.x = x;
  s.xPrev = x;  // no motion over the substep: no friction unless a test moves xPrev
  resizeBodyContacts(uint32_t(x.size()), uint32_t(x.size()), s.bodyContacts);
  return s;
}

// Row in slot `slot`: p against (a, b, c) with normal n and weights w.
void addRow(State& s, uint32_t slot, glm::uvec4 ids, glm::vec3 n, glm::vec3 w, float thickness = 0.0f,
            float mu = 0.0f) {
  BodyContacts& c = s.bodyContacts;
  c.ids[slot] = ids;
  c.normal[slot] = glm::vec4(n, thickness);
  c.weights[slot] = glm::vec4(w, mu);
  ++c.active;
  for (uint32_t role = 0; role < 4; ++role) {
    const uint32_t v = ids[role];
    c.vertexItems[v * kMaxContactsPerVertex + c.vertexCount[v]++] = slot * 4 + role;
  }
}

float gap(const State& s, uint32_t slot) {
  const BodyContacts& c = s.bodyContacts;
  const glm::uvec4 id = c.ids[slot];
  return clm::body_contact_gap(glm::vec3(s.x[id.x]), glm::vec3(s.x[id.y]), glm::vec3(s.x[id.z]),
                               glm::vec3(s.x[id.w]), glm::vec3(c.normal[slot]), glm::vec3(c.weights[slot]),
                               c.normal[slot].w);
}

glm::dvec3 momentumChange(const State& before, const State& after) {
  glm::dvec3 p(0.0);
  for (size_t i = 0; i < before.x.size(); ++i)
    if (before.x[i].w > 0.0f)
      p += glm::dvec3(glm::vec3(after.x[i]) - glm::vec3(before.x[i])) / double(before.x[i].w);
  return p;
}

void runPass(State& s) {
  ProjectionContext ctx;
  ctx.state = &s;
  projectBodyContacts(ctx);
}

TEST(PositionBasedBodyContact, OneRowAgainstAFreeTriangleClosesInOnePass) {
  // p 1 cm inside the triangle's plane y = 0, closest point at the centroid.
  State s = makeRowsState({{0.1f, -0.01f, 0.1f, 1.0f}, {0, 0, 0, 1.0f}, {0.3f, 0, 0, 2.0f}, {0, 0, 0.3f, 0.5f}});
  addRow(s, 0, {0, 1, 2, 3}, {0, 1, 0}, glm::vec3(1.0f / 3.0f));
  const State before = s;
  runPass(s);
  EXPECT_NEAR(gap(s, 0), 0.0f, 1e-7f) << "a lone row is not relaxed (relax = W / W = 1)";
  EXPECT_NEAR(glm::length(momentumChange(before, s)), 0.0, 1e-9);
}

TEST(PositionBasedBodyContact, TwoRowsOnTheSameGapCloseItWithoutOvershoot) {
  // p (body A) 4 mm below q (body B) along y: p against B's face at q (n = +y)
  // and q against A's face at p (n = -y) are the same constraint y_p - y_q >= 0.
  // Summing both full projections would move the gap to +4 mm; the pass closes it.
  State s = makeRowsState({{0, -0.004f, 0, 1.0f}, {0, 0, 0, 1.0f}, {1, 0, 0, 1.0f}, {0, 0, 1, 1.0f},
                           {1, -0.004f, 0, 1.0f}, {0, -0.004f, 1, 1.0f}});
  addRow(s, 0, {0, 1, 2, 3}, {0, 1, 0}, {1, 0, 0});
  addRow(s, 1, {1, 0, 4, 5}, {0, -1, 0}, {1, 0, 0});
  runPass(s);
  EXPECT_NEAR(gap(s, 0), 0.0f, 1e-7f);
  EXPECT_NEAR(gap(s, 1), 0.0f, 1e-7f);
}

TEST(PositionBasedBodyContact, ManyCoupledRowsKeepMomentumAndNeverGrowTheWeightedViolation) {
  // 12 free vertices of masses 0.45..5 kg; 8 random rows (each vertex of body 0 against a
  // random triangle of body 1 and back), all deeply penetrating, so all act.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<glm::vec4> x;
  for (int i = 0; i < 12; ++i) x.emplace_back(u(rng), u(rng) * 0.01f, u(rng), 0.2f + 2.0f * u(rng));
  State s = makeRowsState(x);
  for (uint32_t r = 0; r < 8; ++r) {
    const uint32_t p = r < 4 ? r : 6 + r - 4;             // body 0: 0..5, body 1: 6..11
    const uint32_t base = r < 4 ? 6 : 0;
    const glm::uvec4 ids(p, base + r % 6, base + (r + 1) % 6, base + (r + 3) % 6);
    glm::vec3 w(u(rng) + 0.1f, u(rng) + 0.1f, u(rng) + 0.1f);
    w /= w.x + w.y + w.z;
    addRow(s, r, ids, glm::normalize(glm::vec3(u(rng) - 0.5f, 1.0f, u(rng) - 0.5f)) * (r < 4 ? 1.0f : -1.0f), w,
           0.5f);  // thickness 0.5 m: every row deeply violated
  }
  // D_s = relax_s / W_s, from the pass's own formula.
  ProjectionContext ctx;
  ctx.state = &s;
  const State before = s;
  projectBodyContacts(ctx);
  double normBefore = 0.0, normAfter = 0.0;
  for (uint32_t r = 0; r < 8; ++r) {
    const glm::uvec4 id = before.bodyContacts.ids[r];
    const glm::vec4 row = ctx.bodyContactRow[r];
    ASSERT_GT(row.w, 0.0f) << "row " << r << " acts";
    const std::vector<float>& t = ctx.bodyContactShare;
    const float relax = clm::pb_body_contact_relaxation(row.w, t[id.x], t[id.y], t[id.z], t[id.w],
                                                        glm::vec3(before.bodyContacts.weights[r]));
    EXPECT_GT(relax, 0.0f);
    EXPECT_LE(relax, 1.0f + 1e-6f);
    const double D = relax / row.w;
    normBefore += D * double(gap(before, r)) * gap(before, r);
    normAfter += D * double(gap(s, r)) * gap(s, r);
  }
  std::printf("D-weighted |C|^2: %.4g -> %.4g\n", normBefore, normAfter);
  EXPECT_LT(normAfter, normBefore);
  EXPECT_NEAR(glm::length(momentumChange(before, s)), 0.0, 1e-6);
}

TEST(PositionBasedBodyContact, MomentumIsKeptExactlyWithUnequalMasses) {
  // Two free bodies, masses 1 : 10, two overlapping rows with general weights.
  State s = makeRowsState({{0.2f, -0.003f, 0.2f, 1.0f}, {0.6f, -0.002f, 0.1f, 1.0f}, {0, 0, 0, 0.1f},
                           {1, 0, 0, 0.1f}, {0, 0, 1, 0.1f}, {1, 0.001f, 1, 0.1f}});
  addRow(s, 0, {0, 2, 3, 4}, {0, 1, 0}, {0.6f, 0.2f, 0.2f});
  addRow(s, 1, {1, 3, 5, 4}, {0, 1, 0}, {0.3f, 0.4f, 0.3f});
  const State before = s;
  runPass(s);
  const glm::dvec3 dp = momentumChange(before, s);
  EXPECT_NEAR(glm::length(dp), 0.0, 1e-8) << "net impulse of the pass";
  EXPECT_GT(gap(s, 0), gap(before, 0));
  EXPECT_GT(gap(s, 1), gap(before, 1));
}

TEST(PositionBasedBodyContact, FrictionIsStaticBelowMuDepthAndKineticAbove) {
  // p on a pinned triangle, 1 mm deep, mu = 0.5: friction may move it 0.5 mm.
  const float depth = 1e-3f, mu = 0.5f;
  for (float slide : {0.3e-3f, 5e-3f}) {
    State s = makeRowsState({{0.2f, -depth, 0.2f, 1.0f}, {0, 0, 0, 0.0f}, {1, 0, 0, 0.0f}, {0, 0, 1, 0.0f}});
    s.xPrev[0] = glm::vec4(0.2f - slide, -depth, 0.2f, 1.0f);  // moved +x by `slide` this substep
    addRow(s, 0, {0, 1, 2, 3}, {0, 1, 0}, {0.6f, 0.2f, 0.2f}, 0.0f, mu);
    runPass(s);
    const float moved = s.x[0].x - s.xPrev[0].x;
    const float expected = slide <= mu * depth ? 0.0f : slide - mu * depth;  // Macklin 2014 Eq. 24
    EXPECT_NEAR(moved, expected, 1e-7f) << "slide " << slide;
    EXPECT_NEAR(s.x[0].y, 0.0f, 1e-7f);
  }
}

// Cost of body contacts in the two-box scene of body_contact_physics_test.cpp
// (printed, never asserted): mean step time with the toggle on and off, and
// the detection stage.
TEST(PositionBasedBodyContact, PrintsTheCostInTheTwoBoxScene) {
  using namespace phystest;
  const SimModel twoBoxes =
      buildTwoBoxes({-0.15f, 0.0f, -0.15f}, {0.3f, 0.1f, 0.3f}, {3, 1, 3}, {-0.05f, 0.12f, -0.05f}, glm::vec3(0.1f),
                    {2, 2, 2});
  const SimModel* model = &twoBoxes;
  for (SolverKind kind : {SolverKind::Pbd, SolverKind::Xpbd}) {
    for (bool on : {true, false}) {
      SolverSettings s;
      s.solver = kind;
      s.step.constraints.bodyContacts = on;
      State state = makeState(*model);
      auto solver = makeCpuSolver(kind);
      solver->reset(*model, state);
      StepDiagnostics diag;
      double stepMs = 0.0, detectMs = 0.0, solveMs = 0.0;
      const int frames = 60;
      for (int f = 0; f < frames; ++f) {
        stepSimulation(*model, s, *solver, state, diag);
        ASSERT_TRUE(diag.finite) << diag.problem;
        stepMs += diag.stepMs;
        detectMs += diag.stages[Stage::BodyContacts];
        solveMs += diag.stages[Stage::Solve];
      }
      std::printf("%s body contacts %s: %.3f ms/step (detection %.3f, solve %.3f), %u vertices, %u contacts\n",
                  solverName(kind), on ? "on " : "off", stepMs / frames, detectMs / frames, solveMs / frames,
                  model->vertexCount(), diag.bodyContacts);
    }
  }
}

}  // namespace
}  // namespace tetlab
