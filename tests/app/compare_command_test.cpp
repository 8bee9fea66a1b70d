// `tetlab compare` headless: the CSV has one row per frame per lane with the
// run columns and the error against the reference; bad lanes are named; a
// scene file's "compare" section runs without --lanes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/commands/compare_csv.h"
#include "app/commands/stats_row.h"
#include "tests/app/run_process.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> readLines(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(CompareCommand, BeamWithThreeLanesWritesARowPerFramePerLane) {
  const fs::path csv = fs::path(::testing::TempDir()) / "compare_beam.csv";
  auto r = test::runTetlab("compare --scene beam --lanes xpbd:10x2,vbd:10x4 --reference vbd:10x20 --frames 12 --csv '" +
                           csv.string() + "'");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::vector<std::string> lines = readLines(csv);
  ASSERT_EQ(lines.size(), 1u + 12u * 3u);
  EXPECT_EQ(lines[0], std::string(kCompareLaneColumns) + "," + kRunStatsHeader + "," + kCompareErrorColumns);
  // Lanes 1..3 in order each frame; the reference's own error is 0.
  EXPECT_EQ(lines[1].rfind("1,\"XPBD 10x2", 0), 0u) << lines[1];
  EXPECT_EQ(lines[3].rfind("3,\"VBD 10x20 CPU [reference]\",vbd,10,20,cpu,1,", 0), 0u) << lines[3];
  EXPECT_NE(lines[3].find(",0,0,0"), std::string::npos) << lines[3];
  EXPECT_NE(r.output.find("lane 2 VBD 10x4 CPU"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("distance to the reference"), std::string::npos) << r.output;
}

TEST(CompareCommand, BadLanesAreNamedAndExitNonZero) {
  auto r = test::runTetlab("compare --scene beam --lanes vbd:10x4,fem:3x3 --frames 2");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find("--lanes: lane 'fem:3x3': unknown solver 'fem'"), std::string::npos) << r.output;
  auto none = test::runTetlab("compare --scene beam --frames 2");
  EXPECT_EQ(none.exitCode, 1);
  EXPECT_NE(none.output.find("no lanes"), std::string::npos) << none.output;
  auto five = test::runTetlab("compare --scene beam --lanes vbd:1x1,vbd:1x1,vbd:1x1,vbd:1x1,vbd:1x1 --frames 2");
  EXPECT_EQ(five.exitCode, 1);
  EXPECT_NE(five.output.find("at most 4 lanes"), std::string::npos) << five.output;
  // The scene overrides are checked as `tetlab run` checks them.
  auto substeps = test::runTetlab("compare --scene beam --lanes vbd:1x1,xpbd:1x1 --substeps 0 --frames 2");
  EXPECT_EQ(substeps.exitCode, 1);
  EXPECT_NE(substeps.output.find("--substeps must be 1..10000"), std::string::npos) << substeps.output;
  auto dt = test::runTetlab("compare --scene beam --lanes vbd:1x1,xpbd:1x1 --dt 1e9 --frames 2 --screenshot x.png");
  EXPECT_EQ(dt.exitCode, 1);
  EXPECT_NE(dt.output.find("--dt must be in (0, 1]"), std::string::npos) << dt.output;
  auto cost = test::runTetlab("compare --scene beam --lanes vbd:1x1,xpbd:1x1 --equal-cost fast --frames 2");
  EXPECT_EQ(cost.exitCode, 1);
  EXPECT_NE(cost.output.find("--equal-cost: 'fast' is not a time per frame"), std::string::npos) << cost.output;
}

TEST(CompareCommand, ASceneFilesLanesRunWithoutFlags) {
  const fs::path dir = fs::path(::testing::TempDir()) / "compare_scene";
  fs::create_directories(dir);
  std::ifstream in(fs::path(TETLAB_SOURCE_DIR) / "assets/scenes/beam.json");
  std::stringstream text;
  text << in.rdbuf();
  std::string scene = text.str();
  scene.insert(scene.rfind('}'), ",\n\"compare\": {\"lanes\": [\"xpbd:5x1\", \"avbd:5x2\"], \"reference\": \"auto\"}\n");
  std::ofstream(dir / "beam_compare.json") << scene;
  auto r = test::runTetlab("compare --scene '" + (dir / "beam_compare.json").string() + "' --frames 3");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("lane 1 XPBD 5x1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("lane 2 AVBD 5x2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[reference]"), std::string::npos) << r.output;
}

// Item 7: the lanes share the model. Four lanes of the pile preset, measured
// as the process's resident memory after the first frame: under 2.5x one lane.
TEST(CompareCommand, FourLanesOfThePileShareTheModel) {
  auto r = test::runTetlab("compare --scene pile --lanes xpbd:10x2,vbd:10x4,avbd:10x4,pbd:10x2 --frames 2");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  double before = 0, one = 0, four = 0;
  const size_t at = r.output.find("resident memory ");
  ASSERT_NE(at, std::string::npos) << r.output;
  ASSERT_EQ(std::sscanf(r.output.c_str() + at, "resident memory %lf MB before the scene, %lf MB with one lane, %lf MB",
                        &before, &one, &four),
            3)
      << r.output;
  EXPECT_LT(four, 2.5 * one) << r.output;
}

}  // namespace
}  // namespace tetlab
