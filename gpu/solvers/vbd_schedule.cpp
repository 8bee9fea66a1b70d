#include "gpu/solvers/vbd_schedule.h"

#include <algorithm>

namespace tetlab {

bool oneGroupRule(const VbdScheduleInputs& in, uint32_t cpuMaxColorOnTwoCores, uint32_t gpuMaxRounds) {
  if (in.groupSize == 0) return false;  // the kernel cannot run here: per colour always can
  switch (in.requested) {
    case GpuSchedule::PerColor: return false;
    case GpuSchedule::OneGroup: return true;
    case GpuSchedule::Auto: break;
  }
  if (!in.isGpu)
    return in.largestColor <= scaledCpuLimit(cpuMaxColorOnTwoCores, in.computeUnits > 0 ? in.computeUnits : 2u);
  return uint64_t(in.largestColor) <= uint64_t(in.groupSize) * gpuMaxRounds;
}

uint32_t scaledCpuLimit(uint32_t maxColorOnTwoCores, uint32_t cores) {
  if (cores <= 1) return UINT32_MAX;
  return uint32_t(uint64_t(maxColorOnTwoCores) * cores / (2u * (cores - 1u)));
}

bool vbdUsesOneGroup(const VbdScheduleInputs& in) {
  return oneGroupRule(in, kCpuOneGroupMaxColorOnTwoCores, kGpuOneGroupMaxRounds);
}

uint32_t cpuOneGroupMaxColor(uint32_t cores) { return scaledCpuLimit(kCpuOneGroupMaxColorOnTwoCores, cores); }

size_t vbdOneGroupSize(size_t kernelArrayLimit, size_t deviceMax, size_t kernelMax, uint32_t largestColor) {
  size_t limit = kernelArrayLimit;
  if (deviceMax > 0) limit = std::min(limit, deviceMax);
  if (kernelMax > 0) limit = std::min(limit, kernelMax);
  const size_t wanted = std::max<size_t>(largestColor, 1);
  size_t size = 1;
  while (size * 2 <= limit && size < wanted) size *= 2;
  return size;
}

}  // namespace tetlab
