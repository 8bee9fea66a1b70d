// The OpenCL PBD/XPBD schedule choice (gpu/solvers/pb_schedule.h), without
// the devices it is about: a forced choice is kept where the kernel can run,
// the automatic one follows the largest tet or edge colour against each
// device kind's limit.
#include <gtest/gtest.h>

#include "gpu/solvers/pb_schedule.h"

namespace tetlab {
namespace {

PbScheduleInputs inputs(GpuSchedule requested, bool isGpu, uint32_t largestColor, size_t groupSize,
                        uint32_t computeUnits = 2) {
  PbScheduleInputs in;
  in.requested = requested;
  in.isGpu = isGpu;
  in.computeUnits = computeUnits;
  in.largestColor = largestColor;
  in.groupSize = groupSize;
  return in;
}

TEST(PbSchedule, ForcedChoicesAreKept) {
  for (bool gpu : {false, true}) {
    EXPECT_FALSE(pbUsesOneGroup(inputs(GpuSchedule::PerColor, gpu, 10, 256)));
    EXPECT_TRUE(pbUsesOneGroup(inputs(GpuSchedule::OneGroup, gpu, 1000000, 256)));
  }
}

TEST(PbSchedule, NoGroupSizeMeansPerColourEvenWhenAskedForOneGroup) {
  EXPECT_FALSE(pbUsesOneGroup(inputs(GpuSchedule::OneGroup, true, 10, 0)));
  EXPECT_FALSE(pbUsesOneGroup(inputs(GpuSchedule::Auto, false, 10, 0)));
}

TEST(PbSchedule, AutoOnACpuDeviceFollowsTheLargestColour) {
  const uint32_t m2 = kPbCpuOneGroupMaxColorOnTwoCores;
  EXPECT_TRUE(pbUsesOneGroup(inputs(GpuSchedule::Auto, false, 1, 256)));
  EXPECT_TRUE(pbUsesOneGroup(inputs(GpuSchedule::Auto, false, m2, 256)));
  EXPECT_FALSE(pbUsesOneGroup(inputs(GpuSchedule::Auto, false, m2 + 1, 256)));
  EXPECT_FALSE(pbUsesOneGroup(inputs(GpuSchedule::Auto, false, m2 + 1, 256, 0)));  // unknown cores: two
}

TEST(PbSchedule, AutoKeepsPerColourForAPbdSubstepOnACpuDevice) {
  PbScheduleInputs in = inputs(GpuSchedule::Auto, false, 10, 256);
  in.pbdSubstepOnly = true;
  EXPECT_FALSE(pbUsesOneGroup(in));
  in.requested = GpuSchedule::OneGroup;  // forced: kept
  EXPECT_TRUE(pbUsesOneGroup(in));
  in.requested = GpuSchedule::Auto;
  in.isGpu = true;  // not measured on GPUs: the colour rule
  EXPECT_TRUE(pbUsesOneGroup(in));
}

TEST(PbSchedule, TheCpuLimitFollowsTheCoreCount) {
  const uint32_t m2 = kPbCpuOneGroupMaxColorOnTwoCores;
  EXPECT_EQ(pbCpuOneGroupMaxColor(2), m2);
  EXPECT_EQ(pbCpuOneGroupMaxColor(4), m2 * 4 / 6);
  EXPECT_EQ(pbCpuOneGroupMaxColor(1), UINT32_MAX);
  EXPECT_TRUE(pbUsesOneGroup(inputs(GpuSchedule::Auto, false, 1000000, 256, 1)));
  EXPECT_FALSE(pbUsesOneGroup(inputs(GpuSchedule::Auto, false, m2, 256, 16)));
}

TEST(PbSchedule, AutoOnAGpuAllowsAFewRoundsPerGroup) {
  const uint32_t limit = 256 * kXpbdGpuOneGroupMaxRounds;
  EXPECT_TRUE(pbUsesOneGroup(inputs(GpuSchedule::Auto, true, limit, 256)));
  EXPECT_FALSE(pbUsesOneGroup(inputs(GpuSchedule::Auto, true, limit + 1, 256)));
  EXPECT_FALSE(pbUsesOneGroup(inputs(GpuSchedule::Auto, true, limit, 64)));
  PbScheduleInputs pbd = inputs(GpuSchedule::Auto, true, 256 * kPbdGpuOneGroupMaxRounds, 256);
  pbd.pbd = true;
  EXPECT_TRUE(pbUsesOneGroup(pbd));
  pbd.largestColor += 1;
  EXPECT_FALSE(pbUsesOneGroup(pbd));
}

// The H100 measurements behind the GPU limits (pb_schedule.h): auto picks
// the faster schedule in every measured case.
TEST(PbSchedule, AutoOnAGpuPicksTheFasterScheduleOfEachMeasuredCase) {
  struct Measured {
    uint32_t largestColor;
    bool pbd;
    bool oneGroupWon;
  };
  for (const Measured m : {Measured{64, false, true}, Measured{325, false, true}, Measured{512, false, true},
                           Measured{329, false, true}, Measured{1728, false, false}, Measured{325, true, false}}) {
    PbScheduleInputs in = inputs(GpuSchedule::Auto, true, m.largestColor, 256);
    in.pbd = m.pbd;
    EXPECT_EQ(pbUsesOneGroup(in), m.oneGroupWon) << m.largestColor << (m.pbd ? " PBD" : " XPBD");
  }
}

}  // namespace
}  // namespace tetlab
