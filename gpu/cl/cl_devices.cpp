// Platform/device listing and the device choice. The listing talks to the
// driver; the choice and the environment parsing are pure so they are tested
// with hand-built platform lists (a GPU machine is not needed to test "prefer
// the GPU").
#include "gpu/cl/cl_devices.h"

#include <charconv>
#include <cstdlib>

#include "gpu/cl/cl_query.h"

namespace tetlab {

namespace {

template <cl_uint kParam, class T>
T infoOr(const cl::Device& device, T fallback) {
  T value{};
  return device.getInfo(kParam, &value) == CL_SUCCESS ? value : fallback;
}

std::string deviceString(const cl::Device& device, cl_device_info param) {
  std::string value;
  if (device.getInfo(param, &value) != CL_SUCCESS) return {};
  // Some drivers include the terminating NUL in the reported size.
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

std::string platformString(const cl::Platform& platform, cl_platform_info param) {
  std::string value;
  if (platform.getInfo(param, &value) != CL_SUCCESS) return {};
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

std::string typeNameOf(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "custom";
}

std::string rangeText(size_t count) {
  if (count == 0) return "none";
  return "0.." + std::to_string(count - 1);
}

Result<int> parseIndex(const char* value, const char* variable) {
  if (value == nullptr || *value == '\0') return -1;
  std::string_view text(value);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  int index = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || index < 0)
    return Error{std::string(variable) + "=\"" + value +
                 "\" is not a valid index: use a non-negative integer (see `tetlab --list-devices`) or unset it"};
  return index;
}

}  // namespace

Result<std::vector<cl::Platform>> queryClPlatforms() {
  std::vector<cl::Platform> platforms;
  cl_int err = cl::Platform::get(&platforms);
  // The ICD loader answers CL_PLATFORM_NOT_FOUND_KHR when no driver is
  // registered; some loaders answer CL_SUCCESS with an empty list instead.
  if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && platforms.empty()))
    return Error{kNoPlatformMessage};
  if (err != CL_SUCCESS)
    return Error{std::string(kNoPlatformMessage) + " (clGetPlatformIDs failed with code " + std::to_string(err) + ")"};
  return platforms;
}

std::vector<cl::Device> queryClDevices(const cl::Platform& platform) {
  std::vector<cl::Device> devices;
  // CL_DEVICE_NOT_FOUND is a normal answer for a platform with no devices.
  if (platform.getDevices(CL_DEVICE_TYPE_ALL, &devices) != CL_SUCCESS) devices.clear();
  return devices;
}

ClDeviceInfo queryDeviceInfo(const cl::Device& device) {
  ClDeviceInfo info;
  info.name = deviceString(device, CL_DEVICE_NAME);
  info.vendor = deviceString(device, CL_DEVICE_VENDOR);
  info.version = deviceString(device, CL_DEVICE_VERSION);
  info.openclCVersion = deviceString(device, CL_DEVICE_OPENCL_C_VERSION);
  info.driverVersion = deviceString(device, CL_DRIVER_VERSION);
  const auto type = infoOr<CL_DEVICE_TYPE>(device, cl_device_type(0));
  info.isGpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  info.typeName = typeNameOf(type);
  const std::string extensions = deviceString(device, CL_DEVICE_EXTENSIONS);
  // macOS names the same capability cl_APPLE_gl_sharing.
  info.glSharing = hasExtension(extensions, "cl_khr_gl_sharing") || hasExtension(extensions, "cl_APPLE_gl_sharing");
  info.glEvent = hasExtension(extensions, "cl_khr_gl_event");
  info.globalMemBytes = infoOr<CL_DEVICE_GLOBAL_MEM_SIZE>(device, cl_ulong(0));
  info.computeUnits = infoOr<CL_DEVICE_MAX_COMPUTE_UNITS>(device, cl_uint(0));
  info.maxWorkGroupSize = infoOr<CL_DEVICE_MAX_WORK_GROUP_SIZE>(device, size_t(0));
  return info;
}

ClPlatformInfo queryPlatformInfo(const cl::Platform& platform) {
  ClPlatformInfo info;
  info.name = platformString(platform, CL_PLATFORM_NAME);
  info.vendor = platformString(platform, CL_PLATFORM_VENDOR);
  info.version = platformString(platform, CL_PLATFORM_VERSION);
  for (const cl::Device& device : queryClDevices(platform)) info.devices.push_back(queryDeviceInfo(device));
  return info;
}

Result<std::vector<ClPlatformInfo>> listOpenClPlatforms() {
  auto platforms = queryClPlatforms();
  if (!platforms) return platforms.error();
  std::vector<ClPlatformInfo> out;
  for (const cl::Platform& platform : *platforms) out.push_back(queryPlatformInfo(platform));
  return out;
}

Result<DeviceChoice> chooseDevice(const std::vector<ClPlatformInfo>& platforms, DeviceChoice requested) {
  if (platforms.empty()) return Error{kNoPlatformMessage};
  if (requested.platform < -1 || requested.platform >= int(platforms.size()))
    return Error{"OpenCL platform " + std::to_string(requested.platform) + " does not exist: valid platforms are " +
                 rangeText(platforms.size()) + " (see `tetlab --list-devices`)"};
  if (requested.device < -1)
    return Error{"OpenCL device " + std::to_string(requested.device) + " does not exist: use -1 (automatic) or an index"};

  auto firstGpu = [](const ClPlatformInfo& p) {
    for (size_t d = 0; d < p.devices.size(); ++d)
      if (p.devices[d].isGpu) return int(d);
    return -1;
  };

  if (requested.platform == -1 && requested.device == -1) {
    for (size_t p = 0; p < platforms.size(); ++p)
      if (int d = firstGpu(platforms[p]); d >= 0) return DeviceChoice{int(p), d};
    for (size_t p = 0; p < platforms.size(); ++p)
      if (!platforms[p].devices.empty()) return DeviceChoice{int(p), 0};
    return Error{"OpenCL platforms were found but none has a device: install a driver with a device "
                 "(pocl-opencl-icd provides a CPU device)"};
  }

  const int p = requested.platform == -1 ? 0 : requested.platform;
  const ClPlatformInfo& platform = platforms[size_t(p)];
  if (platform.devices.empty())
    return Error{"OpenCL platform " + std::to_string(p) + " (" + platform.name +
                 ") has no devices: choose another platform, valid platforms are " + rangeText(platforms.size())};
  if (requested.device == -1) {
    const int d = firstGpu(platform);
    return DeviceChoice{p, d >= 0 ? d : 0};
  }
  if (requested.device >= int(platform.devices.size()))
    return Error{"OpenCL device " + std::to_string(requested.device) + " does not exist on platform " +
                 std::to_string(p) + " (" + platform.name + "): valid devices are " +
                 rangeText(platform.devices.size())};
  return DeviceChoice{p, requested.device};
}

Result<DeviceChoice> deviceChoiceFromEnv(const char* platformValue, const char* deviceValue) {
  auto platform = parseIndex(platformValue, "TETLAB_CL_PLATFORM");
  if (!platform) return platform.error();
  auto device = parseIndex(deviceValue, "TETLAB_CL_DEVICE");
  if (!device) return device.error();
  return DeviceChoice{*platform, *device};
}

Result<DeviceChoice> readDeviceChoiceEnv() {
  return deviceChoiceFromEnv(std::getenv("TETLAB_CL_PLATFORM"), std::getenv("TETLAB_CL_DEVICE"));
}

DeviceChoice mergeDeviceChoice(DeviceChoice cli, DeviceChoice env) {
  // A CLI platform without a device must not pick up the env's device index:
  // that index was meant for the env's platform.
  if (cli.platform >= 0 || cli.device >= 0) return cli;
  return env;
}

bool hasExtension(std::string_view extensions, std::string_view name) {
  size_t pos = 0;
  while (pos < extensions.size()) {
    while (pos < extensions.size() && extensions[pos] == ' ') ++pos;
    size_t end = extensions.find(' ', pos);
    if (end == std::string_view::npos) end = extensions.size();
    if (extensions.substr(pos, end - pos) == name) return true;
    pos = end;
  }
  return false;
}

std::string describeDevice(const ClDeviceInfo& device) {
  return device.name + " (" + (device.typeName.empty() ? std::string(device.isGpu ? "GPU" : "device") : device.typeName) +
         ", " + device.version + ", GL sharing: " + (device.glSharing ? "yes" : "no") + ")";
}

}  // namespace tetlab
