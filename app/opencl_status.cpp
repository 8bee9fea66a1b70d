#include "app/opencl_status.h"

#include <sstream>

namespace tetlab {

OpenClStatus queryOpenClStatus(DeviceChoice cliRequest) {
  OpenClStatus status;
  Result<std::vector<ClPlatformInfo>> platforms = listOpenClPlatforms();
  if (!platforms) {
    status.error = platforms.error().message;
    return status;
  }
  status.platforms = std::move(*platforms);
  Result<DeviceChoice> env = readDeviceChoiceEnv();
  if (!env) {
    status.error = env.error().message;
    return status;
  }
  Result<DeviceChoice> chosen = chooseDevice(status.platforms, mergeDeviceChoice(cliRequest, *env));
  if (!chosen) {
    status.error = chosen.error().message;
    return status;
  }
  status.chosen = *chosen;
  return status;
}

std::string formatDeviceList(const OpenClStatus& status) {
  std::ostringstream out;
  for (size_t p = 0; p < status.platforms.size(); ++p) {
    const ClPlatformInfo& platform = status.platforms[p];
    out << "platform " << p << ": " << platform.name << " (" << platform.vendor << ", " << platform.version << ")\n";
    if (platform.devices.empty()) out << "    (no devices)\n";
    for (size_t d = 0; d < platform.devices.size(); ++d) {
      const bool chosen = status.chosen && status.chosen->platform == static_cast<int>(p) &&
                          status.chosen->device == static_cast<int>(d);
      out << (chosen ? "  * " : "    ") << "device " << d << ": " << describeDevice(platform.devices[d]) << "\n";
    }
  }
  if (status.chosen)
    out << "* = in use (choose with --cl-platform I --cl-device J, or TETLAB_CL_PLATFORM / TETLAB_CL_DEVICE)\n";
  return out.str();
}

}  // namespace tetlab
