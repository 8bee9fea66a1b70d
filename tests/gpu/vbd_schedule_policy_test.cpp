// The OpenCL VBD/AVBD schedule choice (gpu/solvers/vbd_schedule.h) beyond
// the rule every family shares (one_group_rule_test.cpp): the measured GPU
// cases, the CPU limit's formula, and the one-group size, a power of two
// within every limit.
#include <utility>

#include <gtest/gtest.h>

#include "gpu/solvers/vbd_schedule.h"

namespace tetlab {
namespace {

// The VBD/AVBD limit as a function of the core count is the shared formula.
TEST(VbdSchedule, TheCpuLimitIsTheSharedFormulaOfItsTwoCoreMeasurement) {
  for (uint32_t cores : {1u, 2u, 4u, 64u})
    EXPECT_EQ(cpuOneGroupMaxColor(cores), scaledCpuLimit(kCpuOneGroupMaxColorOnTwoCores, cores)) << cores;
}

// The H100 measurements behind kGpuOneGroupMaxRounds (vbd_schedule.h), with
// the group size the solver would pick: auto picks the faster schedule.
TEST(VbdSchedule, AutoOnAGpuPicksTheFasterScheduleOfEachMeasuredCase) {
  for (const auto& [largestColor, oneGroupWon] :
       {std::pair<uint32_t, bool>{109, true}, {278, false}, {605, false}, {323, false}}) {
    const size_t group = vbdOneGroupSize(256, 1024, 1024, largestColor);
    EXPECT_EQ(vbdUsesOneGroup({GpuSchedule::Auto, true, 132, largestColor, group}), oneGroupWon) << largestColor;
  }
}

TEST(VbdSchedule, GroupSizeIsAPowerOfTwoWithinEveryLimit) {
  EXPECT_EQ(vbdOneGroupSize(256, 4096, 4096, 10000), 256u);   // the kernel's arrays bind
  EXPECT_EQ(vbdOneGroupSize(256, 1024, 192, 10000), 128u);    // the kernel's limit, rounded down
  EXPECT_EQ(vbdOneGroupSize(256, 64, 0, 10000), 64u);         // the device's limit; kernel unknown
  EXPECT_EQ(vbdOneGroupSize(256, 4096, 4096, 37), 64u);       // no more than the largest colour needs
  EXPECT_EQ(vbdOneGroupSize(256, 4096, 4096, 0), 1u);         // an empty model still launches one item
  EXPECT_EQ(vbdOneGroupSize(256, 1, 1, 100), 1u);
}

}  // namespace
}  // namespace tetlab
