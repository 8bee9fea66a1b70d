// Device listing and choice: the pure choice is tested on hand-built platform
// lists (GPU preference, ranges, messages); the listing on the real driver.
#include <gtest/gtest.h>

#include "gpu/cl/cl_devices.h"

namespace tetlab {
namespace {

ClDeviceInfo device(const char* name, bool gpu) {
  ClDeviceInfo d;
  d.name = name;
  d.isGpu = gpu;
  d.typeName = gpu ? "GPU" : "CPU";
  return d;
}

ClPlatformInfo platform(const char* name, std::vector<ClDeviceInfo> devices) {
  ClPlatformInfo p;
  p.name = name;
  p.devices = std::move(devices);
  return p;
}

TEST(ChooseDevice, NoPlatformsGivesTheInstallMessage) {
  auto r = chooseDevice({}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "no OpenCL platform found: install pocl-opencl-icd or your GPU vendor's OpenCL driver");
}

TEST(ChooseDevice, AutoPrefersAGpuOnALaterPlatform) {
  std::vector<ClPlatformInfo> ps = {platform("PoCL", {device("cpu", false)}),
                                    platform("NVIDIA", {device("gpu0", true), device("gpu1", true)})};
  auto r = chooseDevice(ps, {});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->platform, 1);
  EXPECT_EQ(r->device, 0);
}

TEST(ChooseDevice, AutoPrefersTheGpuWithinAPlatform) {
  std::vector<ClPlatformInfo> ps = {platform("Intel", {device("cpu", false), device("igpu", true)})};
  auto r = chooseDevice(ps, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->platform, 0);
  EXPECT_EQ(r->device, 1);
}

TEST(ChooseDevice, AutoFallsBackToTheFirstDeviceSkippingEmptyPlatforms) {
  std::vector<ClPlatformInfo> ps = {platform("empty", {}), platform("PoCL", {device("cpu", false)})};
  auto r = chooseDevice(ps, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->platform, 1);
  EXPECT_EQ(r->device, 0);
}

TEST(ChooseDevice, PlatformsWithoutDevicesAreAnError) {
  auto r = chooseDevice({platform("empty", {})}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("none has a device"), std::string::npos);
}

TEST(ChooseDevice, ExplicitIndicesAreHonouredEvenForACpu) {
  std::vector<ClPlatformInfo> ps = {platform("a", {device("gpu", true), device("cpu", false)})};
  auto r = chooseDevice(ps, {0, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->device, 1);
}

TEST(ChooseDevice, ExplicitPlatformAutoDevicePrefersItsGpu) {
  std::vector<ClPlatformInfo> ps = {platform("a", {device("gpu", true)}),
                                    platform("b", {device("cpu", false), device("gpu", true)})};
  auto r = chooseDevice(ps, {1, -1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->platform, 1);
  EXPECT_EQ(r->device, 1);
}

TEST(ChooseDevice, DeviceWithoutPlatformMeansPlatformZero) {
  std::vector<ClPlatformInfo> ps = {platform("a", {device("x", false), device("y", false)}),
                                    platform("b", {device("gpu", true)})};
  auto r = chooseDevice(ps, {-1, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->platform, 0);
  EXPECT_EQ(r->device, 1);
}

TEST(ChooseDevice, OutOfRangeMessagesNameTheValidRange) {
  std::vector<ClPlatformInfo> ps = {platform("a", {device("x", false), device("y", false)}),
                                    platform("b", {device("gpu", true)})};
  auto badPlatform = chooseDevice(ps, {2, 0});
  ASSERT_FALSE(badPlatform.ok());
  EXPECT_NE(badPlatform.error().message.find("platform 2"), std::string::npos);
  EXPECT_NE(badPlatform.error().message.find("0..1"), std::string::npos);

  auto badDevice = chooseDevice(ps, {0, 5});
  ASSERT_FALSE(badDevice.ok());
  EXPECT_NE(badDevice.error().message.find("device 5"), std::string::npos);
  EXPECT_NE(badDevice.error().message.find("0..1"), std::string::npos);

  EXPECT_FALSE(chooseDevice(ps, {-2, 0}).ok());
  EXPECT_FALSE(chooseDevice(ps, {0, -7}).ok());
}

TEST(DeviceChoiceFromEnv, UnsetAndEmptyMeanAutomatic) {
  auto r = deviceChoiceFromEnv(nullptr, "");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->platform, -1);
  EXPECT_EQ(r->device, -1);
}

TEST(DeviceChoiceFromEnv, ParsesIndicesWithSurroundingSpaces) {
  auto r = deviceChoiceFromEnv("1", " 2 ");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->platform, 1);
  EXPECT_EQ(r->device, 2);
}

TEST(DeviceChoiceFromEnv, RejectsGarbageNamingTheVariable) {
  for (const char* bad : {"abc", "1x", "-1", "1.5", " "}) {
    auto r = deviceChoiceFromEnv(bad, nullptr);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("TETLAB_CL_PLATFORM"), std::string::npos);
  }
  auto r = deviceChoiceFromEnv("0", "gpu");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("TETLAB_CL_DEVICE"), std::string::npos);
}

TEST(MergeDeviceChoice, CliWinsOverEnvironmentWhenGiven) {
  EXPECT_EQ(mergeDeviceChoice({-1, -1}, {1, 2}).platform, 1);
  EXPECT_EQ(mergeDeviceChoice({-1, -1}, {1, 2}).device, 2);
  DeviceChoice m = mergeDeviceChoice({0, -1}, {1, 2});
  EXPECT_EQ(m.platform, 0);
  EXPECT_EQ(m.device, -1);
}

TEST(HasExtension, MatchesWholeTokensOnly) {
  const char* ext = "cl_khr_fp64 cl_khr_gl_sharing_ext  cl_khr_gl_event cl_khr_icd";
  EXPECT_TRUE(hasExtension(ext, "cl_khr_gl_event"));
  EXPECT_TRUE(hasExtension(ext, "cl_khr_icd"));
  EXPECT_TRUE(hasExtension(ext, "cl_khr_fp64"));
  EXPECT_FALSE(hasExtension(ext, "cl_khr_gl_sharing"));
  EXPECT_FALSE(hasExtension("", "cl_khr_gl_sharing"));
}

TEST(ListOpenClPlatforms, ReportsDevicesWithTheirProperties) {
  auto r = listOpenClPlatforms();
  if (!r.ok()) GTEST_SKIP() << r.error().message;
  ASSERT_FALSE(r->empty());
  size_t devices = 0;
  for (const ClPlatformInfo& p : *r) {
    EXPECT_FALSE(p.name.empty());
    EXPECT_EQ(p.version.rfind("OpenCL ", 0), 0u) << p.version;
    for (const ClDeviceInfo& d : p.devices) {
      ++devices;
      EXPECT_FALSE(d.name.empty());
      EXPECT_EQ(d.version.rfind("OpenCL ", 0), 0u) << d.version;
      EXPECT_EQ(d.openclCVersion.rfind("OpenCL C ", 0), 0u) << d.openclCVersion;
      EXPECT_FALSE(d.typeName.empty());
      EXPECT_GT(d.computeUnits, 0u);
      EXPECT_GT(d.maxWorkGroupSize, 0u);
      EXPECT_GT(d.globalMemBytes, 0u);
      EXPECT_NE(describeDevice(d).find(d.name), std::string::npos);
    }
  }
  EXPECT_GT(devices, 0u);
  auto choice = chooseDevice(*r, {});
  EXPECT_TRUE(choice.ok());
}

}  // namespace
}  // namespace tetlab
