#pragma once
// Which OpenCL platforms/devices exist and which one to use. Pure queries and a
// pure choice function, so the choice can be unit-tested without a GPU.
#include <string>
#include <vector>

#include "core/result.h"

namespace tetlab {

struct ClDeviceInfo {
  std::string name;
  std::string vendor;
  std::string version;            // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 PoCL ..."
  std::string openclCVersion;     // CL_DEVICE_OPENCL_C_VERSION
  bool isGpu = false;
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
Result<DeviceChoice> chooseDevice(const std::vector<ClPlatformInfo>& platforms, DeviceChoice requested);

}  // namespace tetlab
