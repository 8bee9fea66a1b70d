// `tetlab run --soak` (issue 16's soak, scripts/soak.sh): a run reports its
// resident memory at frame 1000 (or half the run) and at the end, and with
// --soak fails with exit 3 when it grew more than 5 %. The growth rule itself
// is checked on numbers; the run on a short beam (where nothing may grow).
#include <gtest/gtest.h>

#include <string>

#include "app/commands/resident_memory.h"
#include "app/commands/run_command.h"
#include "run_process.h"

namespace tetlab {
namespace {

TEST(RunSoak, ResidentMemoryIsReadAndGrowthIsRelative) {
  const std::optional<uint64_t> now = residentBytes();
  ASSERT_TRUE(now.has_value()) << "/proc/self/statm is readable on Linux";
  EXPECT_GT(*now, 1u << 20) << "a test process holds more than 1 MB";
  EXPECT_DOUBLE_EQ(memoryGrowth(100, 105), 0.05);
  EXPECT_DOUBLE_EQ(memoryGrowth(100, 90), -0.10);
  EXPECT_GT(memoryGrowth(1000, 1051), kSoakMemoryGrowth) << "just over 5 % fails a soak";
  EXPECT_LE(memoryGrowth(1000, 1050), kSoakMemoryGrowth);
}

TEST(RunSoak, ShortBeamReportsItsMemoryAndPasses) {
  auto run = test::runTetlab("run --preset beam --solver xpbd --frames 40 --soak");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("tetlab run: resident memory "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(" at frame 20, "), std::string::npos) << "half of a run shorter than 2000 frames";
}

}  // namespace
}  // namespace tetlab
