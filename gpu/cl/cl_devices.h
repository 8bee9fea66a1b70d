#pragma once
// Which OpenCL platforms/devices exist and which one to use. Pure queries and a
// pure choice function, so the choice can be unit-tested without a GPU.
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace tetlab {

struct ClDeviceInfo {
  std::string name;
  std::string vendor;
  std::string version;            // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 PoCL ..."
  std::string openclCVersion;     // CL_DEVICE_OPENCL_C_VERSION
  bool isGpu = false;
  std::string typeName;           // "GPU", "CPU", "accelerator", "custom" (for the UI)
  std::string driverVersion;      // CL_DRIVER_VERSION
  bool glSharing = false;         // advertises cl_khr_gl_sharing
  bool glEvent = false;           // advertises cl_khr_gl_event
  unsigned long long globalMemBytes = 0;
  unsigned computeUnits = 0;
  size_t maxWorkGroupSize = 0;
};

struct ClPlatformInfo {
  std::string name;
  std::string vendor;
  std::string version;
  std::vector<ClDeviceInfo> devices;
};

// Error when none: "no OpenCL platform found: install pocl-opencl-icd or your
// GPU vendor's OpenCL driver".
Result<std::vector<ClPlatformInfo>> listOpenClPlatforms();

// -1 means "choose for me". Auto prefers a GPU, then any device.
struct DeviceChoice {
  int platform = -1;
  int device = -1;
};

// Resolves a request (CLI flag, TETLAB_CL_PLATFORM / TETLAB_CL_DEVICE env, UI)
// against what exists; errors name the valid range.
//   platform -1, device -1: the first GPU in platform order, else the first device.
//   platform  p, device -1: the first GPU of platform p, else its device 0.
//   platform -1, device  d: device d of platform 0 (the usual single-platform case).
// The result always holds two valid indices.
Result<DeviceChoice> chooseDevice(const std::vector<ClPlatformInfo>& platforms, DeviceChoice requested);

// Pure parser for the TETLAB_CL_PLATFORM / TETLAB_CL_DEVICE values (nullptr or
// empty = -1, "choose for me"); a non-integer or negative value is an Error
// naming the variable. Kept apart from getenv so it can be tested.
Result<DeviceChoice> deviceChoiceFromEnv(const char* platformValue, const char* deviceValue);

// deviceChoiceFromEnv(getenv("TETLAB_CL_PLATFORM"), getenv("TETLAB_CL_DEVICE")).
Result<DeviceChoice> readDeviceChoiceEnv();

// Request precedence: an explicit CLI/UI value (>= 0) wins over the environment.
DeviceChoice mergeDeviceChoice(DeviceChoice cli, DeviceChoice env);

// True when the space-separated extension string lists exactly `name`
// (a token match, so "cl_khr_gl_sharing" does not match "cl_khr_gl_sharing_ext").
bool hasExtension(std::string_view extensions, std::string_view name);

// One line for logs and the UI: "NVIDIA GeForce RTX 3080 (GPU, OpenCL 3.0 CUDA, GL sharing: yes)".
std::string describeDevice(const ClDeviceInfo& device);

inline constexpr const char* kNoPlatformMessage =
    "no OpenCL platform found: install pocl-opencl-icd or your GPU vendor's OpenCL driver";

}  // namespace tetlab
