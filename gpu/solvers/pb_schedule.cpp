#include "gpu/solvers/pb_schedule.h"

namespace tetlab {

bool pbUsesOneGroup(const PbScheduleInputs& in) {
  if (in.groupSize == 0) return false;  // the kernel cannot run here: per colour always can
  switch (in.requested) {
    case GpuSchedule::PerColor:
      return false;
    case GpuSchedule::OneGroup:
      return true;
    case GpuSchedule::Auto:
      break;
  }
  if (!in.isGpu && in.pbdSubstepOnly) return false;
  if (!in.isGpu) return in.largestColor <= pbCpuOneGroupMaxColor(in.computeUnits > 0 ? in.computeUnits : 2u);
  return uint64_t(in.largestColor) <= uint64_t(in.groupSize) * kPbGpuOneGroupMaxRounds;
}

uint32_t pbCpuOneGroupMaxColor(uint32_t cores) {
  if (cores <= 1) return UINT32_MAX;
  return uint32_t(uint64_t(kPbCpuOneGroupMaxColorOnTwoCores) * cores / (2u * (cores - 1u)));
}

}  // namespace tetlab
