// `tetlab run --scene`: every scene of assets/scenes (and the user's own
// files) runs headless as the window would run it, with the same overrides and
// the same CSV columns as the presets (issue 11 item 4).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/commands/run_command.h"
#include "csv_column.h"
#include "run_process.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

fs::path tempDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::create_directories(dir);
  return dir;
}

// The pile (five bodies dropped onto each other and the ground) on AVBD: the
// run completes, the CSV has the presets' columns and one row per frame, the
// bodies fell and stay above the ground (AVBD's hard contacts: within a
// millimetre), and by 2 s most of the energy the fall released is gone
// (kinetic energy under a tenth of the potential energy lost).
TEST(RunScene, PileRunsHeadlessOnAvbdWithTheStatsColumns) {
  const fs::path dir = tempDir("tetlab_run_scene_test");
  const fs::path csv = dir / "pile.csv";
  auto r = test::runTetlab("run --scene pile --solver avbd --frames 120 --stats '" + csv.string() + "'");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("solver avbd"), std::string::npos) << r.output;
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, kRunStatsHeader);
  const auto frames = test::csvColumn(csv, "frame");
  ASSERT_EQ(frames.size(), 120u);
  const auto comY = test::csvColumn(csv, "com_y");
  const auto minY = test::csvColumn(csv, "min_y");
  const auto potential = test::csvColumn(csv, "potential");
  const auto kinetic = test::csvColumn(csv, "kinetic");
  EXPECT_LT(comY.back(), comY.front()) << "the pile did not fall";
  EXPECT_GT(*std::min_element(minY.begin(), minY.end()), -1e-3) << "a body went through the ground";
  const double released = potential.front() - potential.back();
  EXPECT_GT(released, 0.0);
  EXPECT_LT(kinetic.back(), 0.1 * released);
  fs::remove_all(dir);
}

TEST(RunScene, KeepsTheScenesSolverUnlessOverridden) {
  auto kept = test::runTetlab("run --scene beam --frames 2");
  ASSERT_EQ(kept.exitCode, 0) << kept.output;
  EXPECT_NE(kept.output.find("solver vbd"), std::string::npos) << kept.output;  // beam.json says vbd
  auto overridden = test::runTetlab("run --scene beam --solver pbd --substeps 3 --iterations 2 --frames 2");
  ASSERT_EQ(overridden.exitCode, 0) << overridden.output;
  EXPECT_NE(overridden.output.find("solver pbd"), std::string::npos) << overridden.output;
  EXPECT_NE(overridden.output.find("(3 substeps x 2 iterations)"), std::string::npos) << overridden.output;
}

TEST(RunScene, AUsersSceneFileRunsAndABadOneIsNamed) {
  const fs::path dir = tempDir("tetlab_run_scene_files");
  const fs::path good = dir / "mine.json";
  fs::copy_file(fs::path(TETLAB_SOURCE_DIR) / "assets" / "scenes" / "hang.json", good,
                fs::copy_options::overwrite_existing);
  auto ok = test::runTetlab("run --scene '" + good.string() + "' --frames 2");
  EXPECT_EQ(ok.exitCode, 0) << ok.output;

  auto missing = test::runTetlab("run --scene no_such_scene --frames 2");
  EXPECT_EQ(missing.exitCode, 1) << missing.output;
  EXPECT_NE(missing.output.find("no_such_scene"), std::string::npos) << missing.output;

  const fs::path broken = dir / "broken.json";
  std::ofstream(broken) << "{ \"bodies\": [ ";
  auto bad = test::runTetlab("run --scene '" + broken.string() + "' --frames 2");
  EXPECT_EQ(bad.exitCode, 1) << bad.output;
  EXPECT_NE(bad.output.find("broken.json"), std::string::npos) << bad.output;

  // A number beyond double's range used to abort the process (exit 134): now exit 1, named.
  const fs::path huge = dir / "huge.json";
  std::ofstream(huge) << R"({ "bodies": [ { "sphere": {} } ], "step": { "dt": 1e400 } })";
  auto overflow = test::runTetlab("run --scene '" + huge.string() + "' --frames 2");
  EXPECT_EQ(overflow.exitCode, 1) << overflow.output;
  EXPECT_NE(overflow.output.find("huge.json:1:"), std::string::npos) << overflow.output;
  EXPECT_NE(overflow.output.find("1e400"), std::string::npos) << overflow.output;

  auto both = test::runTetlab("run --scene pile --preset beam --frames 2");
  EXPECT_NE(both.exitCode, 0) << both.output;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tetlab
