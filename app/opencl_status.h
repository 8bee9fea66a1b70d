#pragma once
// What the app knows about OpenCL at start-up: every platform/device found and
// the one chosen (CLI flag > TETLAB_CL_PLATFORM/TETLAB_CL_DEVICE > automatic).
// A machine without OpenCL still renders: the error is kept for the UI and the
// CLI decides whether it is fatal (--list-devices, an explicit bad index).
#include <optional>
#include <string>
#include <vector>

#include "gpu/cl/cl_devices.h"

namespace tetlab {

struct OpenClStatus {
  std::vector<ClPlatformInfo> platforms;
  std::optional<DeviceChoice> chosen;  // set when a device could be chosen
  std::string error;                   // why not: no platform, bad index, bad environment value
};

OpenClStatus queryOpenClStatus(DeviceChoice cliRequest);

// Human-readable listing for --list-devices, the chosen device marked with '*'.
std::string formatDeviceList(const OpenClStatus& status);

}  // namespace tetlab
