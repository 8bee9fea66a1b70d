#include "gpu/solvers/pb_schedule.h"

#include "gpu/solvers/vbd_schedule.h"

namespace tetlab {

bool pbUsesOneGroup(const PbScheduleInputs& in) {
  if (in.requested == GpuSchedule::Auto && !in.isGpu && in.pbdSubstepOnly) return false;
  return oneGroupRule({in.requested, in.isGpu, in.computeUnits, in.largestColor, in.groupSize},
                      kPbCpuOneGroupMaxColorOnTwoCores, in.pbd ? kPbdGpuOneGroupMaxRounds : kXpbdGpuOneGroupMaxRounds);
}

uint32_t pbCpuOneGroupMaxColor(uint32_t cores) { return scaledCpuLimit(kPbCpuOneGroupMaxColorOnTwoCores, cores); }

}  // namespace tetlab
