// Compare mode without a window (issue 14): lanes share the model and step in
// lock-step; identical lanes stay identical bit for bit on both backends; a
// drag, a pin or a material edit reaches every lane; the reference lane's
// error is zero against itself and falls as a VBD lane's iterations rise.
#include <gtest/gtest.h>

#include <cmath>

#include "core/scene/enum_names.h"
#include "core/session/compare_session.h"
#include "gpu/cl/cl_context.h"
#include "tests/app/app_test_util.h"

namespace tetlab {
namespace {

CompareSpec specOf(const char* lanes, const char* reference = nullptr) {
  CompareSpec spec;
  spec.lanes = parseLaneList(lanes).value();
  if (reference) spec.reference = parseLaneSpec(reference).value();
  return spec;
}

struct Comparison {
  std::unique_ptr<SimSession> primary;
  std::unique_ptr<CompareSession> compare;
};

Comparison compareOn(const std::string& preset, const CompareSpec& spec, const ClContext* context = nullptr,
                     Backend backend = Backend::Cpu) {
  Comparison c;
  c.primary = test::loadPresetSession(preset);
  EXPECT_TRUE(c.primary);
  if (!c.primary) return c;
  Result<std::unique_ptr<CompareSession>> made = CompareSession::create(*c.primary, spec, context, backend);
  EXPECT_TRUE(made) << made.error().message;
  if (made) c.compare = std::move(*made);
  return c;
}

// The beam's free end: the vertex farthest along +x.
uint32_t tipVertex(const SimModel& m) {
  uint32_t tip = 0;
  for (uint32_t v = 0; v < m.vertexCount(); ++v)
    if (m.restPositions[v].x > m.restPositions[tip].x) tip = v;
  return tip;
}

// Two lanes of one solver and budget, pulled by the mouse halfway: bit for bit
// the same state every frame.
void expectIdenticalLanes(const ClContext* context, Backend backend) {
  for (const char* solver : {"xpbd", "vbd", "avbd", "pbd"}) {
    const std::string lanes = std::string(solver) + ":5x3," + solver + ":5x3";
    Comparison c = compareOn("beam.json", specOf(lanes.c_str()), context, backend);
    ASSERT_TRUE(c.compare);
    ASSERT_EQ(c.compare->laneCount(), 2u);
    EXPECT_EQ(&c.compare->lane(0).model(), &c.compare->lane(1).model()) << "the lanes share one model";
    const uint32_t tip = tipVertex(c.compare->lane(0).model());
    for (int f = 0; f < 40; ++f) {
      if (f == 10) c.compare->beginDrag({tip}, {1.0f}, glm::vec3(c.compare->lane(0).state().x[tip]) + glm::vec3(0, 0.2f, 0));
      if (f == 25) c.compare->endDrag();
      c.compare->advance();
      ASSERT_EQ(c.compare->lane(0).state().x, c.compare->lane(1).state().x) << solver << " frame " << f;
    }
    EXPECT_EQ(c.compare->lane(0).state().v, c.compare->lane(1).state().v) << solver;
    EXPECT_EQ(c.compare->lane(1).backend(), backend);
  }
}

TEST(CompareSession, LanesOfTheSameSolverAndBudgetStayIdenticalOnTheCpu) {
  expectIdenticalLanes(nullptr, Backend::Cpu);
}

TEST(CompareSession, LanesOfTheSameSolverAndBudgetStayIdenticalOnOpenCl) {
  Result<ClContext> context = createClContext();
  if (!context) GTEST_SKIP() << context.error().message;
  expectIdenticalLanes(&*context, Backend::OpenCl);
}

// A drag started through the comparison pulls the same vertex in every lane,
// whatever the solver: each moves toward the target. The VBD lane runs 10 x 4
// with the preset's Chebyshev rho of 0.95 (tuned for its 20 iterations): below
// kChebyshevMinIterations acceleration is off, so the lane is plain VBD. When
// it over-relaxed at 4 iterations it lifted the tip only 5.3 cm in 1 s.
TEST(CompareSession, ADragMovesThePickedVertexInEveryLane) {
  Comparison c = compareOn("beam.json", specOf("xpbd:10x2,vbd:10x4,avbd:10x4,pbd:10x4"));
  ASSERT_TRUE(c.compare);
  c.compare->setPaused(false);
  const uint32_t tip = tipVertex(c.compare->lane(0).model());
  const glm::vec3 start(c.compare->lane(0).state().x[tip]);
  const glm::vec3 target = start + glm::vec3(0.0f, 0.3f, 0.0f);
  c.compare->beginDrag({tip}, {1.0f}, target);
  for (int f = 0; f < 60; ++f) c.compare->advance();
  for (size_t i = 0; i < c.compare->laneCount(); ++i) {
    const SimSession& s = c.compare->lane(i);
    ASSERT_FALSE(s.blownUp()) << c.compare->laneLabel(i) << ": " << s.blowUpMessage();
    EXPECT_TRUE(s.dragging()) << c.compare->laneLabel(i);
    // Lifted by more than half the pull (the beam resists; gravity sags it the other way).
    EXPECT_GT(s.state().x[tip].y - start.y, 0.15f) << c.compare->laneLabel(i);
  }
  c.compare->endDrag();
  for (size_t i = 0; i < c.compare->laneCount(); ++i) EXPECT_FALSE(c.compare->lane(i).dragging());
}

TEST(CompareSession, APinReachesEveryLane) {
  Comparison c = compareOn("beam.json", specOf("xpbd:10x2,vbd:10x4"));
  ASSERT_TRUE(c.compare);
  const uint32_t tip = tipVertex(c.compare->lane(0).model());
  c.compare->togglePin(tip);
  const glm::vec3 pinned(c.compare->lane(0).state().x[tip]);
  for (int f = 0; f < 20; ++f) c.compare->advance();
  for (size_t i = 0; i < c.compare->laneCount(); ++i) {
    EXPECT_TRUE(c.compare->lane(i).isPinned(tip));
    EXPECT_EQ(glm::vec3(c.compare->lane(i).state().x[tip]), pinned);
  }
}

// One model: a density edit made through the primary (the material panel's
// call) gives every lane the new masses at its next step.
TEST(CompareSession, AMaterialEditReachesEveryLane) {
  Comparison c = compareOn("beam.json", specOf("xpbd:10x2,vbd:10x4,avbd:10x4"));
  ASSERT_TRUE(c.compare);
  const uint32_t tip = tipVertex(c.compare->lane(0).model());
  const float w0 = c.compare->lane(2).state().x[tip].w;
  Material m = c.compare->lane(0).material(0);
  m.density *= 2.0f;
  c.compare->lane(0).setMaterial(0, m);
  c.compare->advance();
  for (size_t i = 0; i < c.compare->laneCount(); ++i) {
    EXPECT_FLOAT_EQ(c.compare->lane(i).material(0).density, m.density);
    EXPECT_NEAR(c.compare->lane(i).state().x[tip].w, 0.5f * w0, 1e-6f * w0) << c.compare->laneLabel(i);
  }
}

TEST(CompareSession, TheReferenceIsZeroAgainstItself) {
  Comparison c = compareOn("beam.json", specOf("vbd:10x4", "vbd:10x4"));
  ASSERT_TRUE(c.compare);
  ASSERT_TRUE(c.compare->referenceLane());
  for (int f = 0; f < 30; ++f) {
    c.compare->advance();
    EXPECT_EQ(c.compare->error(0).rms, 0.0) << f;
    EXPECT_EQ(c.compare->error(0).max, 0.0) << f;
    EXPECT_EQ(c.compare->error(0).energy, 0.0) << f;
  }
  EXPECT_EQ(c.compare->series(0).errorRms.size(), 30u);
}

// The automatic reference: VBD at the conformance budget for the beam's
// material, on the device when there is one, the lanes on their own backend.
TEST(CompareSession, TheAutomaticReferenceIsAConvergedVbdOnTheDevice) {
  Result<ClContext> context = createClContext();
  if (!context) GTEST_SKIP() << context.error().message;
  CompareSpec spec = specOf("xpbd:10x2,vbd:10x4");
  spec.autoReference = true;
  Comparison c = compareOn("beam.json", spec, &*context, Backend::Cpu);
  ASSERT_TRUE(c.compare);
  ASSERT_EQ(c.compare->laneCount(), 3u);
  ASSERT_TRUE(c.compare->isReference(2));
  const LaneSpec ref = c.compare->laneSpec(2);
  EXPECT_EQ(ref.solver, SolverKind::Vbd);
  EXPECT_EQ(ref.backend, Backend::OpenCl);
  EXPECT_EQ(c.compare->laneSpec(1).backend, Backend::Cpu);
  const LaneSpec rule = autoReferenceLane(spec.lanes, c.compare->lane(0).material(0).youngsModulus);
  EXPECT_EQ(ref.substeps, rule.substeps);
  EXPECT_EQ(ref.iterations, rule.iterations);
  for (int f = 0; f < 10; ++f) c.compare->advance();
  // A device lane is measured every kDeviceVerdictEvery frames: frame 10 is.
  const ConvergenceTally& ref10 = c.compare->lane(2).verdict();
  EXPECT_EQ(ref10.measured, 1u) << (ref10.unmeasuredWhy ? ref10.unmeasuredWhy : "");
  EXPECT_EQ(ref10.underConverged, 0u) << "the reference converges on the beam: step error "
                                      << ref10.last.error << " m, motion " << ref10.last.scale << " m";
  EXPECT_TRUE(c.compare->error(1).valid());
}

// More iterations at the same substeps converge toward the converged solve:
// the mean RMS distance to it falls strictly from 10 to 20 to 40 iterations.
TEST(CompareSession, AVbdLanesErrorFallsAsItsIterationsRise) {
  Comparison c = compareOn("beam.json", specOf("vbd:10x10,vbd:10x20,vbd:10x40", "vbd:10x160"));
  ASSERT_TRUE(c.compare);
  std::vector<double> sum(3, 0.0);
  for (int f = 0; f < 20; ++f) {
    c.compare->advance();
    for (size_t i = 0; i < 3; ++i) {
      ASSERT_TRUE(c.compare->error(i).valid()) << i;
      sum[i] += c.compare->error(i).rms;
    }
  }
  EXPECT_GT(sum[0], sum[1]);
  EXPECT_GT(sum[1], sum[2]);
  EXPECT_GT(sum[2], 0.0);
  EXPECT_EQ(c.compare->error(3).rms, 0.0);
}

// Equal cost: a lane far under its time budget gains iterations, one far over
// it falls to a single iteration (directions only: tests never fail on time).
TEST(CompareSession, EqualCostRaisesOrLowersTheIterations) {
  CompareSpec spec = specOf("vbd:5x2,xpbd:5x8");
  spec.equalCostMs = 1e4f;
  Comparison c = compareOn("beam.json", spec);
  ASSERT_TRUE(c.compare);
  for (int f = 0; f < 2 * CompareSession::kEqualCostEvery; ++f) c.compare->advance();
  EXPECT_GT(c.compare->laneSpec(0).iterations, 2);
  EXPECT_GT(c.compare->laneSpec(1).iterations, 8);
  c.compare->setEqualCostMs(1e-6f);
  for (int f = 0; f < 6 * CompareSession::kEqualCostEvery; ++f) c.compare->advance();
  EXPECT_EQ(c.compare->laneSpec(0).iterations, 1);
  EXPECT_EQ(c.compare->laneSpec(1).iterations, 1);
}

// What is not a lane's own follows the primary: a gravity edit in the panel
// (the primary's settings) reaches every lane at the next frame.
TEST(CompareSession, SceneSettingsFollowThePrimary) {
  Comparison c = compareOn("beam.json", specOf("xpbd:10x2,vbd:10x4"));
  ASSERT_TRUE(c.compare);
  c.compare->lane(0).settings().step.gravity = glm::vec3(0.0f, -1.0f, 0.0f);
  c.compare->advance();
  EXPECT_EQ(c.compare->lane(1).settings().step.gravity, glm::vec3(0.0f, -1.0f, 0.0f));
  EXPECT_EQ(c.compare->lane(1).solver(), SolverKind::Vbd);
  EXPECT_EQ(c.compare->lane(1).settings().step.iterations, 4);
  c.compare->reset();
  EXPECT_EQ(c.compare->frame(), 0u);
  EXPECT_EQ(c.compare->lane(1).frame(), 0u);
}

}  // namespace
}  // namespace tetlab
