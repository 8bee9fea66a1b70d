// The one-group rule every OpenCL solver family takes (oneGroupRule,
// gpu/solvers/vbd_schedule.h), through each family's own entry point, without
// the devices it is about: a forced choice is kept where the kernel can run,
// auto follows the largest colour against the family's measured limit on a
// CPU device (scaled with the core count) and its rounds of the group on a
// GPU. The families' own cases are in vbd_schedule_policy_test.cpp and
// pb_schedule_policy_test.cpp.
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "gpu/solvers/pb_schedule.h"
#include "gpu/solvers/vbd_schedule.h"

namespace tetlab {
namespace {

struct Family {
  std::string name;
  // The family's decision for these inputs (requested, isGpu, largestColor, groupSize, computeUnits).
  std::function<bool(GpuSchedule, bool, uint32_t, size_t, uint32_t)> decide;
  uint32_t cpuLimitOnTwoCores;  // its m*(2)
  uint32_t gpuRounds;           // its rounds of the group on a GPU
};

Family vbdFamily() {
  return {"VBD_AVBD",
          [](GpuSchedule r, bool gpu, uint32_t largest, size_t group, uint32_t cores) {
            return vbdUsesOneGroup({r, gpu, cores, largest, group});
          },
          kCpuOneGroupMaxColorOnTwoCores, kGpuOneGroupMaxRounds};
}

Family pbFamily(bool pbd) {
  return {pbd ? "PBD" : "XPBD",
          [pbd](GpuSchedule r, bool gpu, uint32_t largest, size_t group, uint32_t cores) {
            PbScheduleInputs in;
            in.requested = r;
            in.isGpu = gpu;
            in.computeUnits = cores;
            in.largestColor = largest;
            in.groupSize = group;
            in.pbd = pbd;
            return pbUsesOneGroup(in);
          },
          kPbCpuOneGroupMaxColorOnTwoCores, pbd ? kPbdGpuOneGroupMaxRounds : kXpbdGpuOneGroupMaxRounds};
}

class OneGroupRule : public ::testing::TestWithParam<Family> {};

TEST_P(OneGroupRule, ForcedChoicesAreKept) {
  const Family& f = GetParam();
  for (bool gpu : {false, true}) {
    EXPECT_FALSE(f.decide(GpuSchedule::PerColor, gpu, 10, 256, 2));
    EXPECT_TRUE(f.decide(GpuSchedule::OneGroup, gpu, 1000000, 256, 2));
  }
}

TEST_P(OneGroupRule, NoGroupSizeMeansPerColourEvenWhenAskedForOneGroup) {
  const Family& f = GetParam();
  EXPECT_FALSE(f.decide(GpuSchedule::OneGroup, true, 10, 0, 2));
  EXPECT_FALSE(f.decide(GpuSchedule::Auto, false, 10, 0, 2));
}

TEST_P(OneGroupRule, AutoOnACpuDeviceFollowsTheLargestColour) {
  const Family& f = GetParam();
  const uint32_t m2 = f.cpuLimitOnTwoCores;
  EXPECT_TRUE(f.decide(GpuSchedule::Auto, false, 1, 256, 2));
  EXPECT_TRUE(f.decide(GpuSchedule::Auto, false, m2, 256, 2));
  EXPECT_FALSE(f.decide(GpuSchedule::Auto, false, m2 + 1, 256, 2));
  EXPECT_FALSE(f.decide(GpuSchedule::Auto, false, m2 + 1, 256, 0));  // unknown compute units count as two
}

// m*(P) = L / (c (1 - 1/P)): more cores make per-colour launches pay sooner,
// down to half the two-core limit; one core never gains from them.
TEST_P(OneGroupRule, TheCpuLimitFollowsTheCoreCount) {
  const Family& f = GetParam();
  const uint32_t m2 = f.cpuLimitOnTwoCores;
  EXPECT_EQ(scaledCpuLimit(m2, 2), m2);
  EXPECT_EQ(scaledCpuLimit(m2, 4), m2 * 4 / 6);
  EXPECT_GT(scaledCpuLimit(m2, 64), m2 / 2);
  EXPECT_LT(scaledCpuLimit(m2, 64), m2 / 2 + m2 / 50);
  EXPECT_EQ(scaledCpuLimit(m2, 1), UINT32_MAX);
  EXPECT_TRUE(f.decide(GpuSchedule::Auto, false, 1000000, 256, 1));
  EXPECT_FALSE(f.decide(GpuSchedule::Auto, false, m2, 256, 16));
}

TEST_P(OneGroupRule, AutoOnAGpuAllowsItsRoundsPerGroup) {
  const Family& f = GetParam();
  const uint32_t limit = 256 * f.gpuRounds;
  EXPECT_TRUE(f.decide(GpuSchedule::Auto, true, limit, 256, 132));
  EXPECT_FALSE(f.decide(GpuSchedule::Auto, true, limit + 1, 256, 132));
  // A smaller group (a register-heavy kernel) lowers the limit with it.
  EXPECT_FALSE(f.decide(GpuSchedule::Auto, true, limit, 64, 132));
}

INSTANTIATE_TEST_SUITE_P(Families, OneGroupRule, ::testing::Values(vbdFamily(), pbFamily(false), pbFamily(true)),
                         [](const ::testing::TestParamInfo<Family>& info) { return info.param.name; });

}  // namespace
}  // namespace tetlab
