// The compare lanes' spelling (CLI and scene files), their limits, the
// automatic reference rule and the equal-cost update.
#include <gtest/gtest.h>

#include "core/scene/compare_spec.h"
#include "core/scene/scene_json.h"

namespace tetlab {
namespace {

TEST(CompareSpec, LanesParseWithBudgetAndBackend) {
  Result<std::vector<LaneSpec>> lanes = parseLaneList("xpbd:20x1,vbd:10x4@opencl,avbd:7x3@cpu");
  ASSERT_TRUE(lanes) << lanes.error().message;
  ASSERT_EQ(lanes->size(), 3u);
  EXPECT_EQ((*lanes)[0].solver, SolverKind::Xpbd);
  EXPECT_EQ((*lanes)[0].substeps, 20);
  EXPECT_EQ((*lanes)[0].iterations, 1);
  EXPECT_FALSE((*lanes)[0].backend);
  EXPECT_EQ((*lanes)[1].backend, Backend::OpenCl);
  EXPECT_EQ((*lanes)[2].backend, Backend::Cpu);
  for (const LaneSpec& lane : *lanes) EXPECT_EQ(parseLaneSpec(laneSpecText(lane)).value(), lane);
  EXPECT_EQ(laneLabel((*lanes)[1]), "VBD 10x4 OpenCL");
}

TEST(CompareSpec, BadLanesSayWhatIsWrong) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c : {Case{"vbd", "no budget"}, Case{"fem:10x4", "unknown solver 'fem'"},
                        Case{"vbd:10", "needs an 'x'"}, Case{"vbd:0x4", "substeps must be"},
                        Case{"vbd:10x-1", "iterations must be"}, Case{"vbd:10x4@gpu", "unknown backend 'gpu'"},
                        Case{"vbd:1e9x4", "substeps must be"}, Case{"vbd:10x4,", "no budget"}}) {
    Result<std::vector<LaneSpec>> lanes = parseLaneList(c.text);
    ASSERT_FALSE(lanes) << c.text;
    EXPECT_NE(lanes.error().message.find(c.says), std::string::npos) << c.text << ": " << lanes.error().message;
  }
}

TEST(CompareSpec, LaneCountsAreTwoToFourWithTheReference) {
  CompareSpec spec;
  spec.lanes = {LaneSpec{}};
  EXPECT_FALSE(validateCompareSpec(spec));
  spec.reference = LaneSpec{};
  EXPECT_TRUE(validateCompareSpec(spec));
  spec.lanes = {LaneSpec{}, LaneSpec{}, LaneSpec{}, LaneSpec{}};
  Status s = validateCompareSpec(spec);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("at most 4 lanes"), std::string::npos) << s.error().message;
}

// The automatic reference follows budgets.csv's VBD column: the most substeps
// any conformance case needed at that stiffness, and at least twice the lanes'.
TEST(CompareSpec, AutomaticReferenceFollowsTheConformanceBudgets) {
  const std::vector<LaneSpec> lanes = {parseLaneSpec("xpbd:20x1").value(), parseLaneSpec("vbd:10x4").value()};
  EXPECT_EQ(autoReferenceLane(lanes, 1e5f).substeps, 40);   // 2 x 20 > 10
  EXPECT_EQ(autoReferenceLane(lanes, 1e7f).substeps, 50);
  EXPECT_EQ(autoReferenceLane(lanes, 1e9f).substeps, 500);
  EXPECT_EQ(autoReferenceLane(lanes, 1e9f).solver, SolverKind::Vbd);
  EXPECT_GE(autoReferenceLane(lanes, 1e9f).iterations, 8);
}

TEST(CompareSpec, EqualCostMovesIterationsTowardTheTarget) {
  EXPECT_EQ(equalCostIterations(4, 1.0, 1.0), 4);
  EXPECT_EQ(equalCostIterations(4, 1.0, 100.0), 8);  // at most doubles per update
  EXPECT_EQ(equalCostIterations(4, 100.0, 1.0), 2);  // at most halves
  EXPECT_EQ(equalCostIterations(1, 1.0, 1.5), 2);    // a lane at 1 still grows
  EXPECT_EQ(equalCostIterations(1, 10.0, 1.0), 1);   // and never goes below 1
  EXPECT_EQ(equalCostIterations(4, 0.0, 5.0), 4);    // nothing measured yet: unchanged
}

TEST(CompareSpec, SceneFilesKeepTheLanes) {
  SceneDesc desc;
  desc.bodies.push_back(BodySpec{});
  desc.compare.lanes = parseLaneList("xpbd:20x1,vbd:10x4@opencl").value();
  desc.compare.reference = parseLaneSpec("vbd:40x8").value();
  desc.compare.equalCostMs = 5.0f;
  desc.compare.view = CompareView::Overlay;
  Result<SceneDesc> back = parseSceneJson(sceneToJsonText(desc), "round trip");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->compare.lanes, desc.compare.lanes);
  EXPECT_EQ(back->compare.reference, desc.compare.reference);
  EXPECT_FLOAT_EQ(back->compare.equalCostMs, 5.0f);
  EXPECT_EQ(back->compare.view, CompareView::Overlay);

  desc.compare.reference.reset();
  desc.compare.autoReference = true;
  back = parseSceneJson(sceneToJsonText(desc), "round trip");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(back->compare.autoReference);

  desc.compare = {};
  back = parseSceneJson(sceneToJsonText(desc), "round trip");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_FALSE(back->compare.active());
}

TEST(CompareSpec, ABadLaneInASceneFileIsNamedByItsPath) {
  SceneDesc desc;
  desc.bodies.push_back(BodySpec{});
  std::string text = sceneToJsonText(desc);
  const size_t brace = text.rfind('}');
  text.insert(brace, ", \"compare\": {\"lanes\": [\"vbd:10x4\", \"vbd:ten\"]}");
  Result<SceneDesc> bad = parseSceneJson(text, "my.json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("/compare/lanes/1"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("my.json"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace tetlab
