#pragma once
// Which launch schedule the OpenCL VBD and AVBD solves use, as a pure function
// so the choice is tested without the hardware it is about. (AVBD's group runs
// a substep's iterations rather than the whole step, and its vertex solves are
// the same block solves over the same colours, so it takes the same rule.)
//
//   per colour  one launch per colour per iteration (vbd_solve_vertices_color):
//               every compute unit works on a colour, but each launch has a
//               fixed cost (microseconds on GPU drivers, tens of them on PoCL);
//   one group   the whole step in one work-group (vbd_step_group, vbd_group.clh):
//               one launch per frame, but one compute unit does all the work.
//
// One group wins while a colour is small enough that a launch costs more than
// spreading that colour over the other compute units saves. The rule takes
// the largest colour: the model's vertices per colour decide how much a
// launch could spread.
#include <cstddef>
#include <cstdint>

#include "core/sim/step_settings.h"

namespace tetlab {

// A CPU device (PoCL) runs one work-group on one core, and a per-colour
// launch spreads a colour over all P cores for a fixed cost L:
//   one group  m c          per colour  L + m c / P     (m vertices in the colour)
// so one group wins below m* = L / (c (1 - 1/P)), i.e. m*(P) = m*(2) * P / (2 (P - 1)),
// and always on one core. Measured on 2 cores with PoCL (tetlab-bench
// --schedule, docs/benchmarks.md "VBD schedule"): one group is 25 % faster at
// 680 vertices per colour and 20 % slower at 897, so m*(2) = 768.
inline constexpr uint32_t kCpuOneGroupMaxColorOnTwoCores = 768;
// A GPU runs a group's items on one compute unit: one group walks a colour
// in ceil(colour / group) rounds, each about one vertex solve, against a
// launch that would have spread the colour over every compute unit. Measured
// on an NVIDIA H100 (NVIDIA OpenCL 3.0, driver 580; tetlab-bench --schedule
// per_color|one_group, hang preset, median ms per frame at 10 x 4, group of
// at most 256):
//   largest colour 109  (1 round)   VBD one group 5.86 vs per colour 6.32, AVBD 6.58 vs 7.51
//   largest colour 278  (2 rounds)  VBD 10.08 vs 6.90, AVBD 10.87 vs 8.20
//   largest colour 605  (3 rounds)  VBD 20.21 vs 7.74, AVBD 21.30 vs 9.06
//   bunny_10k, 323      (2 rounds)  VBD 1 x 10: 4.82 vs 2.71
// so one round per colour is the limit: a round of vertex solves costs about
// what a launch costs there (~15 us), and two rounds already lose. A
// 1024-item group was slower than 256 at every size (6.60 vs 5.88 at 109).
inline constexpr uint32_t kGpuOneGroupMaxRounds = 1;

struct VbdScheduleInputs {
  GpuSchedule requested = GpuSchedule::Auto;
  bool isGpu = false;
  uint32_t computeUnits = 0;  // CL_DEVICE_MAX_COMPUTE_UNITS (cores on a CPU device; 0: unknown, taken as 2)
  uint32_t largestColor = 0;  // vertices in the model's largest vertex colour
  size_t groupSize = 0;       // work-group size the one-group kernel runs with (0: cannot run)
};

// True: the one-group schedule.
bool vbdUsesOneGroup(const VbdScheduleInputs& in);

// m*(P) above: the largest colour a CPU device of `cores` cores still runs
// faster in one group (UINT32_MAX on one core).
uint32_t cpuOneGroupMaxColor(uint32_t cores);

// The rule itself, shared by every solver family with its own measured
// limits (VBD/AVBD above, PBD/XPBD in pb_schedule.h): forced choices are
// kept where the kernel can run; auto compares the largest colour with
// m*(P) on a CPU device and with rounds x group size on a GPU.
bool oneGroupRule(const VbdScheduleInputs& in, uint32_t cpuMaxColorOnTwoCores, uint32_t gpuMaxRounds);
// m*(P) = m*(2) P / (2 (P - 1)); UINT32_MAX on one core.
uint32_t scaledCpuLimit(uint32_t maxColorOnTwoCores, uint32_t cores);

// The one-group kernel's work-group size: the largest power of two within the
// kernel's local arrays (kernelArrayLimit), the device's and the kernel's
// limits, and no larger than the largest colour needs (at least 1).
size_t vbdOneGroupSize(size_t kernelArrayLimit, size_t deviceMax, size_t kernelMax, uint32_t largestColor);

}  // namespace tetlab
