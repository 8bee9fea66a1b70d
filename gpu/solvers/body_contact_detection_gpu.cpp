#include "gpu/solvers/body_contact_detection_gpu.h"

#include <algorithm>
#include <array>
#include <string>

#include <glm/vec4.hpp>

#include "core/sim/body_contacts.h"
#include "gpu/cl/cl_error.h"
#include "gpu/cl/launch.h"

namespace tetlab {
namespace {

enum Kernel : size_t {
  kReset,
  kExtentPartials,
  kCellSize,
  kCount,
  kScanBlocks,
  kScanBlockSums,
  kScanAdd,
  kScatter,
  kSortBuckets,
  kQuery,
};

constexpr uint32_t kScanBlock = kBodyContactGroupSize * kBodyContactScanItems;
// Entry capacity never exceeds this (a uint index, and 1 GiB of entries).
constexpr uint64_t kCapacityLimit = uint64_t(1) << 28;

uint32_t nextPow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return uint32_t(std::min<uint64_t>(p, uint64_t(1) << 31));
}

uint32_t roundUp(uint32_t v, uint32_t multiple) { return (v + multiple - 1) / multiple * multiple; }

// One work-group launch shape for the kernels with reqd_work_group_size.
cl_int launchGroups(const cl::CommandQueue& queue, const cl::Kernel& kernel, size_t groups, cl::Event* event) {
  if (groups == 0) return CL_SUCCESS;
  return queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * kBodyContactGroupSize),
                                    cl::NDRange(kBodyContactGroupSize), nullptr, event);
}

}  // namespace

bool bodyContactDetectionApplies(const BodyContactParams& params, uint32_t bodyCount, uint32_t slotCount) {
  return slotCount > 0 && params.searchRadius > 0.0f && (bodyCount > 1 || params.selfCollision);
}

Result<BodyContactDetectorGpu> BodyContactDetectorGpu::create(const ClContext& ctx, const KernelSourceOptions& source,
                                                              BodyContactGridSize size) {
  const std::string options =
      "-DBC_GROUP=" + std::to_string(kBodyContactGroupSize) + " -DBC_ITEMS=" + std::to_string(kBodyContactScanItems);
  auto program = KernelProgram::create(ctx, source, "cl/body_contacts.cl",
                                       {"bc_reset", "bc_extent_partials", "bc_cell_size", "bc_count", "bc_scan_blocks",
                                        "bc_scan_block_sums", "bc_scan_add", "bc_scatter", "bc_sort_buckets",
                                        "bc_query"},
                                       options);
  if (!program) return program.error();
  if (ctx.info.maxWorkGroupSize != 0 && ctx.info.maxWorkGroupSize < kBodyContactGroupSize)
    return Error{"body-contact detection needs work-groups of " + std::to_string(kBodyContactGroupSize) +
                 " items but " + ctx.info.name + " allows " + std::to_string(ctx.info.maxWorkGroupSize) +
                 "; choose another OpenCL device or turn body contacts off"};
  BodyContactDetectorGpu d(std::move(*program));
  d.fixed_ = size;
  // Entries and buckets are 4 bytes each and the table is about as large as
  // the entries: keep both within an eighth of the device memory.
  const uint64_t memoryLimit = ctx.info.globalMemBytes > 0 ? ctx.info.globalMemBytes / 64 : kCapacityLimit;
  d.maxCapacity_ = std::max<uint64_t>(kScanBlock, std::min(kCapacityLimit, memoryLimit));
  return d;
}

Status BodyContactDetectorGpu::allocate(const ClContext& ctx, uint32_t capacity, uint32_t tableSize,
                                        uint32_t triangleCount) {
  const uint32_t padded = roundUp(tableSize, kScanBlock);
  const uint32_t partialCount = std::max<uint32_t>(1, (triangleCount + kScanBlock - 1) / kScanBlock);
  auto buckets = DeviceBuffer<uint32_t>::create(ctx.context, padded, CL_MEM_READ_WRITE, "bodyContacts.grid.buckets");
  if (!buckets) return buckets.error();
  auto blockSums =
      DeviceBuffer<uint32_t>::create(ctx.context, padded / kScanBlock, CL_MEM_READ_WRITE, "bodyContacts.grid.blockSums");
  if (!blockSums) return blockSums.error();
  auto entries = DeviceBuffer<uint32_t>::create(ctx.context, capacity, CL_MEM_READ_WRITE, "bodyContacts.grid.entries");
  if (!entries) return entries.error();
  if (!allocated_) {
    auto counters = DeviceBuffer<uint32_t>::create(ctx.context, 4, CL_MEM_READ_WRITE, "bodyContacts.grid.counters");
    if (!counters) return counters.error();
    if (cl_int e = counters->fill(ctx.queue, 0u); e != CL_SUCCESS) return clError("clearing the grid counters", e);
    auto grid = DeviceBuffer<float>::create(ctx.context, 2, CL_MEM_READ_WRITE, "bodyContacts.grid.cell");
    if (!grid) return grid.error();
    gridCounters_ = std::move(*counters);
    grid_ = std::move(*grid);
  }
  if (!allocated_ || triangleCount != triangles_) {
    auto partials =
        DeviceBuffer<float>::create(ctx.context, partialCount, CL_MEM_READ_WRITE, "bodyContacts.grid.partials");
    if (!partials) return partials.error();
    partials_ = std::move(*partials);
  }
  buckets_ = std::move(*buckets);
  blockSums_ = std::move(*blockSums);
  entries_ = std::move(*entries);
  capacity_ = capacity;
  tableSize_ = tableSize;
  paddedTable_ = padded;
  triangles_ = triangleCount;
  allocated_ = true;
  return Ok{};
}

Status BodyContactDetectorGpu::ensureScratch(const ClContext& ctx, uint32_t triangleCount) {
  if (allocated_ && triangleCount == triangles_) return Ok{};
  const uint64_t wanted = fixed_.entryCapacity
                              ? uint64_t(fixed_.entryCapacity)
                              : std::max<uint64_t>(kScanBlock, uint64_t(triangleCount) * kBodyContactEntriesPerTriangle);
  const uint32_t capacity = uint32_t(std::min(wanted, maxCapacity_));
  const uint32_t table = nextPow2(fixed_.tableSize ? fixed_.tableSize : capacity);
  return allocate(ctx, capacity, table, triangleCount);
}

Status BodyContactDetectorGpu::enqueue(const ClContext& ctx, const BodyContactParams& params, DeviceState& s,
                                       Profiler& profiler, StageId stage) {
  DeviceBodyContacts& c = s.bodyContacts;
  if (Status st = ensureScratch(ctx, c.triangleCount); !st) return st;
  const cl::CommandQueue& q = ctx.queue;
  const size_t local = program_.localSize();
  const float r = params.searchRadius;
  const uint32_t mask = tableSize_ - 1;
  const uint32_t tris = c.triangleCount;
  auto fail = [](const char* kernel, cl_int e) { return clError(std::string("enqueueing ") + kernel, e); };

  cl::Kernel& reset = program_.kernel(kReset);
  cl_int e = setKernelArgs(reset, buckets_, paddedTable_, c.arrays, c.slotCount, c.vertexCount_, c.counters,
                           gridCounters_);
  if (e == CL_SUCCESS)
    e = launch1D(q, reset, std::max(paddedTable_, c.vertexCount_), local, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_reset", e);

  cl::Kernel& partials = program_.kernel(kExtentPartials);
  e = setKernelArgs(partials, s.xInertial, c.surfaceTriangles, tris, partials_);
  if (e == CL_SUCCESS) e = launchGroups(q, partials, partials_.size(), profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_extent_partials", e);

  cl::Kernel& cellSize = program_.kernel(kCellSize);
  e = setKernelArgs(cellSize, partials_, uint32_t(partials_.size()), tris, r, grid_);
  if (e == CL_SUCCESS) e = launchGroups(q, cellSize, 1, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_cell_size", e);

  cl::Kernel& count = program_.kernel(kCount);
  e = setKernelArgs(count, s.xInertial, c.surfaceTriangles, tris, r, grid_, buckets_, mask, gridCounters_, capacity_);
  if (e == CL_SUCCESS) e = launch1D(q, count, tris, local, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_count", e);

  cl::Kernel& scanBlocks = program_.kernel(kScanBlocks);
  e = setKernelArgs(scanBlocks, buckets_, blockSums_);
  if (e == CL_SUCCESS) e = launchGroups(q, scanBlocks, blockSums_.size(), profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_scan_blocks", e);

  cl::Kernel& scanSums = program_.kernel(kScanBlockSums);
  e = setKernelArgs(scanSums, blockSums_, uint32_t(blockSums_.size()));
  if (e == CL_SUCCESS) e = launchGroups(q, scanSums, 1, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_scan_block_sums", e);

  cl::Kernel& scanAdd = program_.kernel(kScanAdd);
  e = setKernelArgs(scanAdd, buckets_, blockSums_, paddedTable_);
  if (e == CL_SUCCESS) e = launch1D(q, scanAdd, paddedTable_, local, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_scan_add", e);

  cl::Kernel& scatter = program_.kernel(kScatter);
  e = setKernelArgs(scatter, s.xInertial, c.surfaceTriangles, tris, r, grid_, buckets_, mask, entries_, gridCounters_);
  if (e == CL_SUCCESS) e = launch1D(q, scatter, tris, local, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_scatter", e);

  cl::Kernel& sort = program_.kernel(kSortBuckets);
  e = setKernelArgs(sort, buckets_, tableSize_, entries_, gridCounters_);
  if (e == CL_SUCCESS) e = launch1D(q, sort, tableSize_, local, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_sort_buckets", e);

  const glm::vec4 qp(r, params.thickness, params.friction, kBodyContactTieTolerance * r);
  cl::Kernel& query = program_.kernel(kQuery);
  e = setKernelArgs(query, s.xInertial, s.x, c.firstTwoSided, s.vertexBody, c.restPositions, c.surfaceVertices, c.slotCount,
                    c.surfaceTriangles, tris, grid_, buckets_, mask, entries_, gridCounters_, qp,
                    uint32_t(params.selfCollision ? 1 : 0), c.arrays, c.vertexCount_, c.counters);
  if (e == CL_SUCCESS) e = launch1D(q, query, c.slotCount, local, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("bc_query", e);
  return Ok{};
}

Result<BodyContactDetectionStats> BodyContactDetectorGpu::readStats(const ClContext& ctx,
                                                                     const DeviceBodyContacts& contacts) {
  BodyContactDetectionStats out;
  std::array<uint32_t, 2> counts{};
  if (cl_int e = contacts.counters.download(ctx.queue, std::span<uint32_t>(counts)); e != CL_SUCCESS)
    return clError("reading the body-contact counters", e);
  out.active = counts[0];
  out.overflow = counts[1];
  out.entryCapacity = capacity_;
  out.tableSize = tableSize_;
  if (!allocated_) return out;
  std::array<uint32_t, 4> grid{};
  if (cl_int e = gridCounters_.download(ctx.queue, std::span<uint32_t>(grid)); e != CL_SUCCESS)
    return clError("reading the body-contact grid counters", e);
  if (cl_int e = gridCounters_.fill(ctx.queue, 0u, 2, 2); e != CL_SUCCESS)
    return clError("clearing the body-contact grid counters", e);
  out.peakEntries = grid[2];
  out.fallbackSubsteps = grid[3];
  if (out.fallbackSubsteps == 0) return out;

  if (out.peakEntries <= capacity_) {
    out.message = std::to_string(out.fallbackSubsteps) +
                  " substep(s) had a triangle whose grid cells are out of range (a blown-up body?); body contacts "
                  "were found by testing every triangle (exact, slower)";
    return out;
  }
  // Doubling at least once per read converges even when one triangle alone
  // spanned more cells than the table held (counted as capacity + 1).
  const uint64_t wanted = std::max<uint64_t>(uint64_t(out.peakEntries) * 2, uint64_t(capacity_) * 2);
  const uint32_t capacity = uint32_t(std::min(wanted, maxCapacity_));
  out.message = std::to_string(out.fallbackSubsteps) + " substep(s) needed " + std::to_string(out.peakEntries) +
                " grid entries, more than the table's " + std::to_string(capacity_) +
                "; body contacts were found by testing every triangle (exact, slower)";
  if (capacity > capacity_) {
    const uint32_t table = fixed_.tableSize ? tableSize_ : nextPow2(capacity);
    if (Status st = allocate(ctx, capacity, table, triangles_); !st) return st.error();
    out.grew = true;
    out.message += "; the table now holds " + std::to_string(capacity_) + " entries";
  } else {
    out.message += "; the table is at its size limit (" + std::to_string(capacity_) +
                   " entries): a blown-up or extremely stretched body? Try a smaller search radius";
  }
  out.entryCapacity = capacity_;
  out.tableSize = tableSize_;
  return out;
}

}  // namespace tetlab
