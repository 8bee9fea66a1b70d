#pragma once
// Which launch schedule the OpenCL PBD / XPBD step uses, as a pure function
// so the choice is tested without the hardware it is about (the VBD twin is
// gpu/solvers/vbd_schedule.h, whose GpuSchedule setting and group-size rule
// this reuses).
//
//   per colour  one launch per tet colour and edge colour per iteration, plus
//               tethers, mouse, body contacts and colliders
//               (position_based_gpu.cpp);
//   one group   the whole step in one work-group (pb_step_group, pb_group.clh).
//
// The work of a launch is its elements; the rule takes the largest colour
// that will be projected (tets, and edges when edge constraints run), like
// VBD's vertices per colour.
#include <cstddef>
#include <cstdint>

#include "core/sim/step_settings.h"

namespace tetlab {

// A CPU device (PoCL) runs one work-group on one core, and a per-colour
// launch spreads a colour over all P cores for a fixed cost L (the model of
// vbd_schedule.h): one group wins below m*(P) = m*(2) P / (2 (P - 1)) elements
// per colour. Measured on 2 cores with PoCL 3.1 (tetlab-bench --backends opencl
// --schedule per_color|one_group, median frame ms, per colour -> one group):
//   largest colour  161-213  (beam/drop --cells-thick 4)  XPBD beam 119 -> 51, drop 22 -> 12; PBD beam 114 -> 82
//   largest colour  1254     (hang --cells-thick 4)       XPBD 100 -> 90, PBD 645 -> 535
//   largest colour  1167     (bunny_10k, 20k target)      XPBD 20226 -> 17548
//   largest colour  4059     (hang --cells-thick 6)       XPBD 502 -> 444, PBD 1752 -> 1687
// so on two cores one group won at every size measured (why the per-colour
// launches gain so little from the second core is not measured here); the
// limit is the largest measured colour, rounded up, not a measured crossover.
inline constexpr uint32_t kPbCpuOneGroupMaxColorOnTwoCores = 4096;
// A GPU: up to this many rounds of the group (at most 256 items) over the
// largest colour. Measured on an NVIDIA H100 (hang preset, tetlab-bench
// --schedule per_color|one_group, median ms per frame, one group vs per colour):
//   XPBD  largest colour 64 (1 round) 2.73 vs 15.59; 325 (2) 6.21 vs 13.13;
//         512 (2) 14.54 vs 19.21; 1728 (7) 69.73 vs 29.04; bunny_10k 329 (2) 2.14 vs 3.37
//   PBD   largest colour 325 (2 rounds) 22.89 vs 12.75
// XPBD's tet projection is cheap enough that two rounds still win; PBD's
// group loses at two rounds (the one-round case was not measured for PBD; it
// takes VBD's measured limit of one).
inline constexpr uint32_t kXpbdGpuOneGroupMaxRounds = 2;
inline constexpr uint32_t kPbdGpuOneGroupMaxRounds = 1;

// The one-group kernel's work-group size on a CPU device. PoCL runs a group's
// items one after another on one core, so more items buy nothing there, and
// its compiler took over 8 minutes (stopped there) to build this many-barrier
// kernel for a 256-item group on 2 cores, against 27 s for both programs with
// every kernel at one item (fresh cache); PoCL compiles a kernel once per
// work-group size and caches it on disk.
inline constexpr size_t kPbCpuGroupSize = 1;

struct PbScheduleInputs {
  GpuSchedule requested = GpuSchedule::Auto;
  bool isGpu = false;
  uint32_t computeUnits = 0;  // CL_DEVICE_MAX_COMPUTE_UNITS (0: unknown, taken as 2)
  uint32_t largestColor = 0;  // elements in the largest projected tet (or edge) colour
  size_t groupSize = 0;       // work-group size of the one-group kernel (0: cannot run)
  // PBD asked for one substep's projection (the stepper detects body contacts
  // between substeps). Auto keeps per colour then on a CPU device: measured on
  // the bench's contacts scene (8 bodies, 3072 tets, --quick, 2 cores), PBD
  // went 66 -> 78 ms per frame with one group while XPBD went 30 -> 22 ms.
  bool pbdSubstepOnly = false;
  bool pbd = false;  // PBD (else XPBD): the GPU limits differ
};

// True: the one-group schedule.
bool pbUsesOneGroup(const PbScheduleInputs& in);

// m*(P) for the position-based kernels (UINT32_MAX on one core).
uint32_t pbCpuOneGroupMaxColor(uint32_t cores);

}  // namespace tetlab
