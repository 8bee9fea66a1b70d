#include "gpu/cl/work_group_policy.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace tetlab {

namespace {

bool containsNoCase(std::string_view text, std::string_view word) {
  auto it = std::search(text.begin(), text.end(), word.begin(), word.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != text.end();
}

}  // namespace

WorkGroupHints workGroupHints(const ClDeviceInfo& device) {
  WorkGroupHints h;
  h.isGpu = device.isGpu;
  h.vendor = device.vendor;
  h.deviceMaxGroupSize = device.maxWorkGroupSize;
  return h;
}

size_t simdWidthForVendor(std::string_view vendor) {
  if (containsNoCase(vendor, "nvidia")) return 32;
  if (containsNoCase(vendor, "advanced micro devices") || containsNoCase(vendor, "amd")) return 64;
  if (containsNoCase(vendor, "intel")) return 16;
  return 32;
}

size_t chooseLocalSize(const WorkGroupHints& hints) {
  if (!hints.isGpu) return 0;
  size_t limit = kPreferredGpuGroupSize;
  if (hints.deviceMaxGroupSize > 0) limit = std::min(limit, hints.deviceMaxGroupSize);
  if (hints.kernelMaxGroupSize > 0) limit = std::min(limit, hints.kernelMaxGroupSize);
  const size_t simd = hints.kernelPreferredMultiple > 0 ? hints.kernelPreferredMultiple : simdWidthForVendor(hints.vendor);
  // Largest multiple of the SIMD width within the limit; if even one SIMD
  // group does not fit (tiny embedded GPUs, register-heavy kernels), use the
  // limit itself: correct, just not full lanes.
  if (limit >= simd) return limit / simd * simd;
  return std::max<size_t>(limit, 1);
}

LaunchSize planLaunch(size_t items, size_t local) {
  if (local == 0) return {items, 0};
  return {(items + local - 1) / local * local, local};
}

}  // namespace tetlab
