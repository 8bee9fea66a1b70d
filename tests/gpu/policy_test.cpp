// The two pure device policies: GL interop path and work-group size.
#include <gtest/gtest.h>

#include "gpu/render/gl_interop_policy.h"
#include "gpu/cl/work_group_policy.h"

namespace tetlab {
namespace {

InteropCaps caps(bool sharing, bool shared, bool event, bool force, bool storage = true) {
  InteropCaps c;
  c.deviceGlSharing = sharing;
  c.contextShared = shared;
  c.deviceGlEvent = event;
  c.forceCopy = force;
  c.glBufferStorage = storage;
  return c;
}

TEST(InteropPolicy, SharedBufferWithGlEventsWhenEverythingIsThere) {
  InteropDecision d = chooseInteropPath(caps(true, true, true, false));
  EXPECT_EQ(d.path, InteropPath::SharedBuffer);
  EXPECT_EQ(d.sync, InteropSync::GlEvent);
  EXPECT_EQ(d.copyTarget, CopyTarget::NotApplicable);
  EXPECT_EQ(describeInterop(d), "shared CL/GL buffer (GL events)");
}

TEST(InteropPolicy, SharedBufferWithFinishFencesWithoutGlEvent) {
  InteropDecision d = chooseInteropPath(caps(true, true, false, false));
  EXPECT_EQ(d.path, InteropPath::SharedBuffer);
  EXPECT_EQ(d.sync, InteropSync::FinishFences);
  EXPECT_NE(d.reason.find("cl_khr_gl_event"), std::string::npos);
}

TEST(InteropPolicy, CopyWhenTheContextCouldNotShare) {
  InteropDecision d = chooseInteropPath(caps(true, false, true, false));
  EXPECT_EQ(d.path, InteropPath::CopyToMappedBuffer);
  EXPECT_EQ(d.sync, InteropSync::None);
  EXPECT_EQ(d.copyTarget, CopyTarget::PersistentMap);
  EXPECT_NE(d.reason.find("could not share"), std::string::npos);
}

TEST(InteropPolicy, CopyWhenTheDeviceLacksSharingEvenIfContextClaimsIt) {
  // Inconsistent caps (a context cannot share without the extension): the
  // device capability wins, so a driver bug cannot select the shared path.
  InteropDecision d = chooseInteropPath(caps(false, true, true, false));
  EXPECT_EQ(d.path, InteropPath::CopyToMappedBuffer);
  EXPECT_NE(d.reason.find("cl_khr_gl_sharing"), std::string::npos);
}

TEST(InteropPolicy, ForcedCopyWinsOverFullSupport) {
  InteropDecision d = chooseInteropPath(caps(true, true, true, true));
  EXPECT_EQ(d.path, InteropPath::CopyToMappedBuffer);
  EXPECT_NE(d.reason.find("forced"), std::string::npos);
}

TEST(InteropPolicy, CopyUsesBufferSubDataWithoutBufferStorage) {
  InteropDecision d = chooseInteropPath(caps(false, false, false, false, false));
  EXPECT_EQ(d.path, InteropPath::CopyToMappedBuffer);
  EXPECT_EQ(d.copyTarget, CopyTarget::BufferSubData);
  EXPECT_EQ(describeInterop(d), "copy into a GL buffer (glBufferSubData)");
  EXPECT_EQ(describeInterop(chooseInteropPath(caps(false, false, false, false, true))),
            "copy into a persistently mapped GL buffer");
}

TEST(InteropPolicy, ThisMachinesPoclIsTheCopyPath) {
  // PoCL advertises no cl_khr_gl_sharing: the CI path is the copy path.
  InteropDecision d = chooseInteropPath(caps(false, false, false, false));
  EXPECT_EQ(d.path, InteropPath::CopyToMappedBuffer);
}

WorkGroupHints gpu(std::string_view vendor, size_t deviceMax = 1024, size_t kernelMax = 0, size_t multiple = 0) {
  WorkGroupHints h;
  h.isGpu = true;
  h.vendor = vendor;
  h.deviceMaxGroupSize = deviceMax;
  h.kernelMaxGroupSize = kernelMax;
  h.kernelPreferredMultiple = multiple;
  return h;
}

TEST(WorkGroupPolicy, CpuDevicesLetTheRuntimeChoose) {
  WorkGroupHints h;
  h.isGpu = false;
  h.vendor = "Intel(R) Corporation";
  h.deviceMaxGroupSize = 8192;
  EXPECT_EQ(chooseLocalSize(h), 0u);
}

TEST(WorkGroupPolicy, VendorSimdWidths) {
  EXPECT_EQ(simdWidthForVendor("NVIDIA Corporation"), 32u);
  EXPECT_EQ(simdWidthForVendor("Advanced Micro Devices, Inc."), 64u);
  EXPECT_EQ(simdWidthForVendor("AMD"), 64u);
  EXPECT_EQ(simdWidthForVendor("Intel(R) Corporation"), 16u);
  EXPECT_EQ(simdWidthForVendor("Some Mobile GPU Vendor"), 32u);
}

TEST(WorkGroupPolicy, GpusGet64AMultipleOfTheirSimdWidth) {
  for (const char* vendor : {"NVIDIA Corporation", "Advanced Micro Devices, Inc.", "Intel(R) Corporation", "ARM"}) {
    const size_t local = chooseLocalSize(gpu(vendor));
    EXPECT_EQ(local, 64u) << vendor;
    EXPECT_EQ(local % simdWidthForVendor(vendor), 0u) << vendor;
  }
}

TEST(WorkGroupPolicy, ClampedByDeviceAndKernelLimitsToWholeSimdGroups) {
  EXPECT_EQ(chooseLocalSize(gpu("NVIDIA", 1024, 48)), 32u);  // kernel allows 48: one warp
  EXPECT_EQ(chooseLocalSize(gpu("Intel", 40)), 32u);         // two 16-lane groups
  EXPECT_EQ(chooseLocalSize(gpu("AMD", 256, 32)), 32u);      // below one wavefront: the limit itself
  EXPECT_EQ(chooseLocalSize(gpu("X", 0, 0)), 64u);           // unknown limits
}

TEST(WorkGroupPolicy, KernelPreferredMultipleOverridesTheVendorGuess) {
  EXPECT_EQ(chooseLocalSize(gpu("Intel", 256, 256, 8)), 64u);
  EXPECT_EQ(chooseLocalSize(gpu("Intel", 256, 60, 8)), 56u);
}

TEST(WorkGroupPolicy, PlanLaunchRoundsGlobalUp) {
  EXPECT_EQ(planLaunch(1000, 64).global, 1024u);
  EXPECT_EQ(planLaunch(1024, 64).global, 1024u);
  EXPECT_EQ(planLaunch(1, 64).global, 64u);
  EXPECT_EQ(planLaunch(1000, 0).global, 1000u);
  EXPECT_EQ(planLaunch(1000, 0).local, 0u);
  EXPECT_EQ(planLaunch(0, 64).global, 0u);
}

}  // namespace
}  // namespace tetlab
