#pragma once
// Body-contact detection on the device (shaders/cl/body_contacts.cl), the twin
// of core/sim/body_contact_detection.h: the same rule, so for the same
// prediction y both backends find the same contact per slot (ids, normal,
// weights) and the same item SET per vertex (the order within a vertex list
// follows the atomics). GpuStepper runs it after step_predict in every substep
// into DeviceState::bodyContacts; nothing is read back inside a step.
//
// Broad phase: a uniform grid of cell max(2 r, mean triangle extent at y)
// (computed on the device by a reduction, as the CPU computes it), stored as a
// fixed-size hash table filled by counting sort (count, exclusive scan,
// scatter). The table's entry capacity is sized from the triangle count; when
// a substep needs more entries, the query tests every triangle instead (exact,
// slower) and readStats(), the diagnostics read outside the step, reports it
// and grows the table for the next steps.
#include <cstdint>
#include <string>

#include "core/result.h"
#include "core/sim/body_contact_params.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_state.h"
#include "gpu/cl/kernel_program.h"
#include "gpu/cl/profiler.h"

namespace tetlab {

// Work-group size of the scan/reduction kernels and elements per work-item
// there (build options of body_contacts.cl); one scan block is their product.
inline constexpr uint32_t kBodyContactGroupSize = 64;
inline constexpr uint32_t kBodyContactScanItems = 8;
// (cell, triangle) entries per triangle: its bound grown by r spans
// 1 + (extent + 2 r) / cell cells per axis on average, and cell >= both the
// mean extent and 2 r, so a typical triangle spans 2 to 3 cells per axis,
// 8 to 27 entries. The default capacity takes the upper end (the table then
// overflows only for triangles well above the mean extent).
inline constexpr uint32_t kBodyContactEntriesPerTriangle = 32;

struct BodyContactGridSize {
  uint32_t entryCapacity = 0;  // (cell, triangle) entries the table holds; 0: kBodyContactEntriesPerTriangle x triangles
  uint32_t tableSize = 0;      // hash buckets, rounded up to a power of two; 0: >= entryCapacity (2x the expected entries)
};

struct BodyContactDetectionStats {
  uint32_t active = 0;            // contacts of the last detection (DeviceBodyContacts::counters[0])
  uint32_t overflow = 0;          // per-vertex items it dropped (counters[1])
  uint32_t peakEntries = 0;       // most grid entries one substep needed since the previous read
  uint32_t fallbackSubsteps = 0;  // substeps since then whose table overflowed: every triangle was tested instead
  uint32_t entryCapacity = 0;     // after this read's growth, if any
  uint32_t tableSize = 0;
  bool grew = false;              // the table was enlarged by this read
  std::string message;            // what happened when fallbackSubsteps > 0 ("" otherwise)
};

// The CPU's early return in detectBodyContacts: detection runs only with
// surface vertices, a positive search radius, and several bodies or self collision.
bool bodyContactDetectionApplies(const BodyContactParams& params, uint32_t bodyCount, uint32_t slotCount);

class BodyContactDetectorGpu {
 public:
  // Builds the kernels. `size` fixes the table (tests); zeros size it from the
  // triangle count on the first enqueue.
  static Result<BodyContactDetectorGpu> create(const ClContext& ctx, const KernelSourceOptions& source = {},
                                               BodyContactGridSize size = {});

  // Enqueues detection on state.xInertial into state.bodyContacts (every slot
  // and vertex list rewritten, counters included). Allocates only on the first
  // call for a triangle count. Call only when bodyContactDetectionApplies.
  Status enqueue(const ClContext& ctx, const BodyContactParams& params, DeviceState& state, Profiler& profiler,
                 StageId stage);

  // Blocking diagnostics read (outside the step): the last detection's counts
  // and the table's use since the previous read; grows the table when a
  // substep overflowed it (up to what the device memory allows).
  Result<BodyContactDetectionStats> readStats(const ClContext& ctx, const DeviceBodyContacts& contacts);

  HotProgram::PollResult poll() { return program_.poll(); }
  const std::string& lastError() const { return program_.lastError(); }
  uint32_t entryCapacity() const { return capacity_; }
  uint32_t tableSize() const { return tableSize_; }

 private:
  explicit BodyContactDetectorGpu(KernelProgram program) : program_(std::move(program)) {}
  Status ensureScratch(const ClContext& ctx, uint32_t triangleCount);
  Status allocate(const ClContext& ctx, uint32_t capacity, uint32_t tableSize, uint32_t triangleCount);

  KernelProgram program_;
  BodyContactGridSize fixed_;
  DeviceBuffer<uint32_t> buckets_;       // padded to whole scan blocks; counts, then starts, then ends
  DeviceBuffer<uint32_t> blockSums_;     // scan level 2
  DeviceBuffer<uint32_t> entries_;       // triangle per entry, grouped by bucket
  DeviceBuffer<uint32_t> gridCounters_;  // see body_contacts.cl
  DeviceBuffer<float> grid_;             // (cell, 1 / cell)
  DeviceBuffer<float> partials_;         // extent sums per group
  uint32_t capacity_ = 0, tableSize_ = 0, paddedTable_ = 0, triangles_ = 0;
  uint64_t maxCapacity_ = 0;
  bool allocated_ = false;
};

}  // namespace tetlab
