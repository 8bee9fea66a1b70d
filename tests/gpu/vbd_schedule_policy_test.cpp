// The OpenCL VBD schedule choice (gpu/solvers/vbd_schedule.h), without the
// devices it is about: a forced choice is kept where the kernel can run, the
// automatic one follows the largest colour against each device kind's limit,
// and the one-group size is a power of two within every limit.
#include <utility>

#include <gtest/gtest.h>

#include "gpu/solvers/vbd_schedule.h"

namespace tetlab {
namespace {

VbdScheduleInputs inputs(GpuSchedule requested, bool isGpu, uint32_t largestColor, size_t groupSize,
                         uint32_t computeUnits = 2) {
  VbdScheduleInputs in;
  in.requested = requested;
  in.isGpu = isGpu;
  in.computeUnits = computeUnits;
  in.largestColor = largestColor;
  in.groupSize = groupSize;
  return in;
}

TEST(VbdSchedule, ForcedChoicesAreKept) {
  for (bool gpu : {false, true}) {
    EXPECT_FALSE(vbdUsesOneGroup(inputs(GpuSchedule::PerColor, gpu, 10, 256)));
    EXPECT_TRUE(vbdUsesOneGroup(inputs(GpuSchedule::OneGroup, gpu, 1000000, 256)));
  }
}

TEST(VbdSchedule, NoGroupSizeMeansPerColourEvenWhenAskedForOneGroup) {
  EXPECT_FALSE(vbdUsesOneGroup(inputs(GpuSchedule::OneGroup, true, 10, 0)));
  EXPECT_FALSE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, false, 10, 0)));
}

TEST(VbdSchedule, AutoOnACpuDeviceFollowsTheLargestColour) {
  const uint32_t m2 = kCpuOneGroupMaxColorOnTwoCores;
  EXPECT_TRUE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, false, 1, 256)));
  EXPECT_TRUE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, false, m2, 256)));
  EXPECT_FALSE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, false, m2 + 1, 256)));
  // Unknown compute units count as two.
  EXPECT_FALSE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, false, m2 + 1, 256, 0)));
}

// m*(P) = L / (c (1 - 1/P)): more cores make per-colour launches pay sooner,
// down to half the two-core limit; one core never gains from them.
TEST(VbdSchedule, TheCpuLimitFollowsTheCoreCount) {
  const uint32_t m2 = kCpuOneGroupMaxColorOnTwoCores;
  EXPECT_EQ(cpuOneGroupMaxColor(2), m2);
  EXPECT_EQ(cpuOneGroupMaxColor(4), m2 * 4 / 6);
  EXPECT_GT(cpuOneGroupMaxColor(64), m2 / 2);
  EXPECT_LT(cpuOneGroupMaxColor(64), m2 / 2 + m2 / 50);
  EXPECT_EQ(cpuOneGroupMaxColor(1), UINT32_MAX);
  EXPECT_TRUE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, false, 1000000, 256, 1)));
  EXPECT_FALSE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, false, m2, 256, 16)));
}

TEST(VbdSchedule, AutoOnAGpuAllowsAFewRoundsPerGroup) {
  const uint32_t limit = 256 * kGpuOneGroupMaxRounds;
  EXPECT_TRUE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, true, limit, 256)));
  EXPECT_FALSE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, true, limit + 1, 256)));
  // A smaller group (a register-heavy kernel) lowers the limit with it.
  EXPECT_FALSE(vbdUsesOneGroup(inputs(GpuSchedule::Auto, true, limit, 64)));
}

// The H100 measurements behind kGpuOneGroupMaxRounds (vbd_schedule.h), with
// the group size the solver would pick: auto picks the faster schedule.
TEST(VbdSchedule, AutoOnAGpuPicksTheFasterScheduleOfEachMeasuredCase) {
  for (const auto& [largestColor, oneGroupWon] :
       {std::pair<uint32_t, bool>{109, true}, {278, false}, {605, false}, {323, false}}) {
    const size_t group = vbdOneGroupSize(256, 1024, 1024, largestColor);
    EXPECT_EQ(vbdUsesOneGroup(inputs(GpuSchedule::Auto, true, largestColor, group)), oneGroupWon) << largestColor;
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
