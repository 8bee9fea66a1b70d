// The OpenCL PBD/XPBD schedule choice (gpu/solvers/pb_schedule.h) beyond the
// rule every family shares (one_group_rule_test.cpp): PBD's substep case on
// CPU devices, the CPU limit's formula and the measured GPU cases.
#include <gtest/gtest.h>

#include "gpu/solvers/pb_schedule.h"
#include "gpu/solvers/vbd_schedule.h"

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

TEST(PbSchedule, TheCpuLimitIsTheSharedFormulaOfItsTwoCoreMeasurement) {
  for (uint32_t cores : {1u, 2u, 4u, 64u})
    EXPECT_EQ(pbCpuOneGroupMaxColor(cores), scaledCpuLimit(kPbCpuOneGroupMaxColorOnTwoCores, cores)) << cores;
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
