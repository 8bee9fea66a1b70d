#pragma once
// Host-side OpenCL object queries shared by cl_devices.cpp (the pure listing)
// and cl_context.cpp (which needs the real cl::Platform / cl::Device handles).
// Listing and context creation walk the platforms in the same order, so an
// index pair from chooseDevice() names the same device in both.
#include <vector>

#include <CL/opencl.hpp>

#include "core/result.h"
#include "gpu/cl/cl_devices.h"

namespace tetlab {

// All platforms; Error(kNoPlatformMessage) when there are none
// (CL_PLATFORM_NOT_FOUND_KHR from the ICD loader, or an empty list).
Result<std::vector<cl::Platform>> queryClPlatforms();

// All devices of a platform, in the driver's order; empty when it has none.
std::vector<cl::Device> queryClDevices(const cl::Platform& platform);

ClDeviceInfo queryDeviceInfo(const cl::Device& device);
ClPlatformInfo queryPlatformInfo(const cl::Platform& platform);

}  // namespace tetlab
