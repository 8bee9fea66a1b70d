#pragma once
// Local work-group size per device, as a pure function so it is tested
// without the hardware it is about.
//
// Our kernels are one work-item per element with no local memory, so the
// group size only has to fill the SIMD lanes: a multiple of the hardware's
// SIMD width (NVIDIA warp 32, AMD wavefront 64 (32 on RDNA, still fine with
// 64), Intel 8/16/32 lanes). We use 64 on GPUs, which is a multiple of all of
// them, clamped to what the device and the kernel allow. CPU devices (PoCL)
// vectorise across the group themselves: let the runtime choose (NullRange).
// Global sizes are rounded up to a multiple of the local size, so kernels
// guard with `if (i >= count) return;`.
#include <cstddef>
#include <string_view>

#include "gpu/cl/cl_devices.h"

namespace tetlab {

inline constexpr size_t kPreferredGpuGroupSize = 64;

struct WorkGroupHints {
  bool isGpu = false;
  std::string_view vendor;          // CL_DEVICE_VENDOR
  size_t deviceMaxGroupSize = 0;    // CL_DEVICE_MAX_WORK_GROUP_SIZE (0 = unknown)
  size_t kernelMaxGroupSize = 0;    // CL_KERNEL_WORK_GROUP_SIZE (0 = unknown)
  size_t kernelPreferredMultiple = 0;  // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (0 = unknown)
};

WorkGroupHints workGroupHints(const ClDeviceInfo& device);

// SIMD width guessed from the vendor string when the kernel did not tell us.
size_t simdWidthForVendor(std::string_view vendor);

// 0 means "let the runtime choose" (cl::NullRange).
size_t chooseLocalSize(const WorkGroupHints& hints);

struct LaunchSize {
  size_t global = 0;  // >= items, a multiple of local when local > 0
  size_t local = 0;   // 0 = NullRange
};

LaunchSize planLaunch(size_t items, size_t local);

}  // namespace tetlab
