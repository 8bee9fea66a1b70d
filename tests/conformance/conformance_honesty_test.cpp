// The conformance table's second table (docs/solvers.md "Conformance"): the
// under-converged flag on the table's own runs. A cell within 5 % of its
// closed form with a flagged frame is a false flag; the rung below it, more
// than 5 % off, with none is a silent miss. The runner counts the verdicts of
// every frame, or of the last quarter for a case that settles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "app/conformance/conformance_cases.h"
#include "app/conformance/conformance_report.h"

namespace tetlab {
namespace {

CellSearch reachedCell(const char* caseId, SolverKind solver, uint64_t flagged, uint64_t frames) {
  CellSearch c;
  c.caseId = caseId;
  c.youngsModulus = 1.0e5f;
  c.solver = solver;
  c.reached = true;
  c.budget = {10, 4};
  c.result.ok = true;
  c.result.relError = 0.01;
  c.result.substepsRun = 10;
  c.result.verdictFrames = frames;
  c.result.flaggedFrames = flagged;
  return c;
}

TEST(ConformanceHonesty, FalseFlagsAndSilentMissesAreNamedAndCounted) {
  ConformanceTable table;
  table.cells.push_back(reachedCell("free_fall", SolverKind::Pbd, 0, 30));    // quiet: right
  table.cells.push_back(reachedCell("free_fall", SolverKind::Xpbd, 3, 30));   // within 5 % yet flagged
  CellSearch below = reachedCell("free_fall", SolverKind::Vbd, 0, 30);
  below.haveBelow = true;
  below.below = {5, 1};
  below.belowResult.relError = 0.2;
  below.belowResult.substepsRun = 5;
  below.belowResult.verdictFrames = 30;
  below.belowResult.flaggedFrames = 0;  // 20 % off and quiet
  table.cells.push_back(below);
  CellSearch honest = reachedCell("free_fall", SolverKind::Avbd, 0, 30);
  honest.haveBelow = true;
  honest.below = {5, 1};
  honest.belowResult = below.belowResult;
  honest.belowResult.flaggedFrames = 30;  // off and flagged: right
  table.cells.push_back(honest);
  const std::string md = conformanceMarkdown(table);
  EXPECT_NE(md.find("| quiet 0/30 | **false flag 3/30** | quiet 0/30; 5x1 (20 % off) **silent** 0/30 | quiet 0/30; "
                    "5x1 (20 % off) flagged 30/30 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("Of 6 verdicts, 1 false flags and 1 silent misses."), std::string::npos) << md;
}

// Free fall solves every backward-Euler step exactly (x = y), so its 30
// frames are all measured and none may be flagged; the hanging bar settles,
// so only the last quarter of its frames is counted.
TEST(ConformanceHonesty, TheRunnerCountsTheFramesTheAnswerComesFrom) {
  const ConformanceCase* fall = findConformanceCase("free_fall");
  const ConformanceCase* bar = findConformanceCase("hanging_bar");
  ASSERT_NE(fall, nullptr);
  ASSERT_NE(bar, nullptr);
  const CellResult f = runConformanceCell(*fall, 1.0e5f, SolverKind::Vbd, {5, 1}, ConformanceBackend::Cpu, nullptr);
  EXPECT_EQ(f.verdictFrames, 30u);
  EXPECT_EQ(f.flaggedFrames, 0u);
  const CaseSetup setup = bar->build(1.0e5f);
  ASSERT_TRUE(setup.settles);
  const CellResult b = runConformanceCell(*bar, setup, SolverKind::Vbd, {5, 1}, ConformanceBackend::Cpu, nullptr);
  const uint64_t frames = uint64_t(std::lround(setup.seconds * 60.0));
  EXPECT_EQ(b.verdictFrames, frames - (3 * frames) / 4);
}

}  // namespace
}  // namespace tetlab
