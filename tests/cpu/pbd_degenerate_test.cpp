// PBD and XPBD from inverted and degenerate tets (issue 10 item 8). A tet
// constraint is projected with a Newton step on its linearisation,
// s = -C / |gradC|^2 (PBD Eq. 9, XPBD Eq. 18), and two of them have a
// vanishing gradient far from C = 0: the normalised strain shear cos(f_i, f_j)
// at parallel columns of F (its extremum), and the volume det F - 1 when the
// tet collapses onto a line (cof F -> 0). Undoing either needs corners to
// move about one rest edge L0, yet the step is C / |gradC| and was unbounded;
// pb_bound_step (xpbd_update.clh) keeps each projection within L0.
//
// Invariants used (gravity and colliders off for the single tet):
//   - all four corners carry the same mass and every tet constraint is
//     translation invariant, so the centroid stays where it started;
//   - an elastic tet released at rest from a collapsed shape springs back
//     toward its rest shape and oscillates about it: its corners stay within
//     an element size of the centroid. Rest circumradius is sqrt(6)/4 L0 =
//     0.61 L0; 2 L0 is an edge stretched over 200% and bounds any recovery,
//     while the failure threw corners hundreds of L0 away (then NaN).
//   - recovery: the volume constraint (PBD, which maps Neo-Hookean to strain
//     + volume) and the Neo-Hookean hydrostatic term (XPBD) pull det F back
//     toward 1; the signed volume is positive again within a few substeps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "core/cpu/xpbd_solver.h"
#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

using namespace phystest;

constexpr float kEdge = 0.1f;  // rest edge L0 of the single tet [m]

double signedVolume(const SimModel& m, const State& s, uint32_t t) {
  const glm::uvec4 ids = m.tets[t];
  const glm::dvec3 p0 = glm::vec3(s.x[ids.x]);
  const glm::dvec3 a = glm::dvec3(glm::vec3(s.x[ids.y])) - p0, b = glm::dvec3(glm::vec3(s.x[ids.z])) - p0,
                   c = glm::dvec3(glm::vec3(s.x[ids.w])) - p0;
  return glm::dot(a, glm::cross(b, c)) / 6.0;
}

SimModel regularTet() {
  const float L = kEdge;
  TetMesh mesh;
  mesh.positions = {{0.0f, 1.0f, 0.0f},
                    {L, 1.0f, 0.0f},
                    {0.5f * L, 1.0f, 0.5f * std::sqrt(3.0f) * L},
                    {0.5f * L, 1.0f + std::sqrt(2.0f / 3.0f) * L, std::sqrt(3.0f) / 6.0f * L}};
  mesh.tets = {{0, 1, 2, 3}};
  BodyDesc body{std::move(mesh), Material{1e5f, 0.3f, 1000.0f, 0.0f}, "tet"};
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
  return std::move(built).value();
}

// One substep per frame for PBD (the repro's regime); XPBD gets the substeps
// its shear limit asks for (2 here), below which it is unstable anyway.
SolverSettings isolatedSettings(const SimModel& model, SolverKind kind) {
  SolverSettings s;
  s.solver = kind;
  s.step.gravity = glm::vec3(0.0f);
  s.step.constraints.collisions = false;
  s.step.substeps = 1;
  s.step.iterations = 10;
  if (kind == SolverKind::Xpbd) s.step.substeps = planXpbdSubsteps(model, s).used;
  return s;
}

glm::vec3 centroid(const State& s) {
  glm::vec3 c(0.0f);
  for (const auto& x : s.x) c += glm::vec3(x);
  return c / float(s.x.size());
}

// Deforms the rest tet by `deform` (applied to the four corners, tet order),
// releases it at rest and checks the invariants above every frame.
void expectRecovers(SolverKind kind, const char* what, const std::function<void(glm::vec3*)>& deform,
                    bool mustRecover = true) {
  const SimModel model = regularTet();
  const glm::uvec4 ids = model.tets[0];
  ASSERT_GT(signedVolume(model, makeState(model), 0), 0.0);
  State state = makeState(model);
  glm::vec3 p[4] = {glm::vec3(state.x[ids.x]), glm::vec3(state.x[ids.y]), glm::vec3(state.x[ids.z]),
                    glm::vec3(state.x[ids.w])};
  deform(p);
  for (int k = 0; k < 4; ++k) state.x[ids[k]] = glm::vec4(p[k], state.x[ids[k]].w);
  const glm::vec3 c0 = centroid(state);
  const double V0 = model.restVolume[0];
  const SolverSettings settings = isolatedSettings(model, kind);
  auto solver = makeCpuSolver(kind);
  solver->reset(model, state);
  const int kRecoverFrames = 5;  // PBD: 5 substeps x 10 iterations
  double maxSpread = 0.0;
  for (int f = 0; f < 60; ++f) {
    StepDiagnostics diag;
    stepSimulation(model, settings, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << solverName(kind) << " " << what << " frame " << f << ": " << diag.problem;
    for (const auto& x : state.x) maxSpread = std::max(maxSpread, double(glm::length(glm::vec3(x) - c0)));
    if (mustRecover && f + 1 == kRecoverFrames)
      EXPECT_GT(signedVolume(model, state, 0), 0.0) << solverName(kind) << " " << what << ": V/V0 = "
                                                    << signedVolume(model, state, 0) / V0 << " after "
                                                    << kRecoverFrames << " frames";
  }
  std::printf("%s %s: V/V0 = %.3f after 60 frames, max corner distance from the centroid %.3g L0\n",
              solverName(kind), what, signedVolume(model, state, 0) / V0, maxSpread / kEdge);
  EXPECT_LT(glm::length(centroid(state) - c0), 1e-3f * kEdge) << "equal masses: the centroid must not move";
  EXPECT_LT(maxSpread, 2.0 * kEdge) << solverName(kind) << " " << what;
}

class DegenerateTet : public testing::TestWithParam<SolverKind> {};

TEST_P(DegenerateTet, InvertedTetRecoversPositiveVolume) {
  // The apex mirrored through the base plane: det F = -1.
  expectRecovers(GetParam(), "inverted", [](glm::vec3* p) {
    const glm::vec3 n = glm::normalize(glm::cross(p[1] - p[0], p[2] - p[0]));
    p[3] -= 2.0f * glm::dot(p[3] - p[0], n) * n;
  });
}

TEST_P(DegenerateTet, FlatTetRecoversPositiveVolume) {
  // The apex pushed into the base plane at the base's centroid: det F = 0.
  expectRecovers(GetParam(), "flat", [](glm::vec3* p) { p[3] = (p[0] + p[1] + p[2]) / 3.0f; });
}

TEST_P(DegenerateTet, NeedleTetStaysBoundedAndPbdRecovers) {
  // All four corners almost on one line (crushed from two sides): columns of
  // F nearly parallel, where the shear constraint sits at its extremum, and
  // cof F ~ 0. A hair of positive volume keeps the orientation defined.
  // XPBD's Neo-Hookean pair (Macklin & Mueller 2021 Eq. 6, 8) has no restoring
  // force here: its energy mu/2 tr(F^T F) + lambda/2 (det F - gamma)^2 drops
  // the log(I_C + 1) term of Smith et al. 2018 Eq. 14 and has a local minimum
  // at F = 0 (Hessian mu I there; det F is cubic), and with cof F ~ 0 the
  // deviatoric term shrinks the needle toward it. So XPBD is only held to
  // staying finite and bounded; PBD's strain + volume set recovers.
  const bool pbd = GetParam() == SolverKind::Pbd;
  expectRecovers(GetParam(), "needle", [](glm::vec3* p) {
    const glm::vec3 c = (p[0] + p[1] + p[2] + p[3]) / 4.0f;
    const glm::vec3 axis(1.0f, 0.0f, 0.0f);
    for (int k = 0; k < 4; ++k) {
      const glm::vec3 d = p[k] - c;
      p[k] = c + glm::dot(d, axis) * axis + 1e-3f * (d - glm::dot(d, axis) * axis);
    }
  }, pbd);
}

// A 0.2 m box of 3x3x3 cells (6 tets each) above the ground, 1 substep.
struct BoxRun {
  bool finite = true;
  std::string problem;
  double maxSpread = 0.0;  // largest vertex distance from the centroid [m]
  double finalVolume = 0.0, restVolume = 0.0;
};

BoxRun runBox(SolverKind kind, const std::function<void(State&)>& start, int frames) {
  const SimModel model = buildBox({-0.1f, 0.3f, -0.1f}, glm::vec3(0.2f), glm::uvec3(3), Material{1e5f, 0.3f, 1000, 0});
  SolverSettings settings;
  settings.solver = kind;
  settings.step.substeps = 1;
  settings.step.iterations = 10;
  State state = makeState(model);
  start(state);
  auto solver = makeCpuSolver(kind);
  solver->reset(model, state);
  BoxRun r;
  r.restVolume = currentVolume(model, makeState(model));
  for (int f = 0; f < frames; ++f) {
    StepDiagnostics diag;
    stepSimulation(model, settings, *solver, state, diag);
    if (!diag.finite) {
      r.finite = false;
      r.problem = "frame " + std::to_string(f) + ": " + diag.problem;
      return r;
    }
    const glm::vec3 c = centroid(state);
    for (const auto& x : state.x) r.maxSpread = std::max(r.maxSpread, double(glm::length(glm::vec3(x) - c)));
  }
  r.finalVolume = currentVolume(model, state);
  return r;
}

// Rest half-diagonal of the box: sqrt(3) 0.1 m. A body that recovers from a
// crush springs back toward its rest shape; a vertex 3 half-diagonals from
// the centroid means an element thrown far beyond any elastic rebound.
constexpr double kBoxHalfDiagonal = 0.1732;

TEST(PbdDegenerateBox, BoxCrushedFlatStaysFiniteAndSpringsBack) {
  const BoxRun r = runBox(SolverKind::Pbd, [](State& s) {
    for (auto& x : s.x) x.y = 0.3f;  // every vertex projected onto the plane y = 0.3 m: all tets flat
  }, 60);
  ASSERT_TRUE(r.finite) << r.problem;
  std::printf("crushed box: V/V0 = %.3f after 60 frames, max spread %.3g half-diagonals\n",
              r.finalVolume / r.restVolume, r.maxSpread / kBoxHalfDiagonal);
  EXPECT_LT(r.maxSpread, 3.0 * kBoxHalfDiagonal);
  EXPECT_GT(r.finalVolume, 0.5 * r.restVolume) << "the flat box must re-inflate";
}

TEST(PbdDegenerateBox, BoxDroppedFastAtOneSubstepStaysFinite) {
  const BoxRun r = runBox(SolverKind::Pbd, [](State& s) {
    for (auto& v : s.v) v.y = -20.0f;  // 20 m/s: the box crosses its own height in 0.6 of the frame
  }, 60);
  ASSERT_TRUE(r.finite) << r.problem;
  std::printf("fast box: V/V0 = %.3f after 60 frames, max spread %.3g half-diagonals\n",
              r.finalVolume / r.restVolume, r.maxSpread / kBoxHalfDiagonal);
  EXPECT_LT(r.maxSpread, 3.0 * kBoxHalfDiagonal);
}

INSTANTIATE_TEST_SUITE_P(PositionBased, DegenerateTet, testing::Values(SolverKind::Pbd, SolverKind::Xpbd),
                         paramName);

}  // namespace
}  // namespace tetlab
