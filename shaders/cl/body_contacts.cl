// Body-contact detection on the device: the rule of
// core/sim/body_contact_detection.h, run after step_predict in every substep.
// Host script: gpu/solvers/body_contact_detection_gpu.cpp.
//
// The broad phase is a uniform grid stored as a hash table built by counting
// sort, so no dynamic allocation and no device-side sort of all entries:
//
//   bc_reset            buckets = 0, vertexCount = 0, counters = 0
//   bc_extent_partials  per group: sum of triangle extents at y         \ cell = max(2 r, mean extent),
//   bc_cell_size        one group: mean -> grid = (cell, 1 / cell)       / as on the CPU
//   bc_count            per triangle: atomic_inc(bucket) per overlapped cell, total entries
//   bc_scan_*           exclusive scan of the bucket counts (block scan + block sums + add)
//   bc_scatter          per triangle: entries[atomic_inc(bucket start)] = t  (start becomes end)
//   bc_sort_buckets     per bucket: entries ascending by triangle (the CPU visits a cell in this order)
//   bc_query            per surface vertex: its cell's bucket, the narrow phase and the choice rule,
//                       then its four per-vertex items
//
// Why the bucket order matters: body_contact_better has a tolerance, so it is
// not transitive and the chosen triangle can depend on the visiting order. The
// CPU visits its cell's triangles by ascending index; sorting each bucket
// restores that order after the atomics scrambled it. Extra triangles in a
// bucket (other cells hashing to it) are farther than r from y_p and never win.
//
// Overflow: entries beyond `capacity` (or a triangle spanning more cells than
// fit) raise a flag in gridCounters[1]; bc_query then falls back to testing
// every triangle, so the contacts stay exact, and the host reads the flag in
// its diagnostics and grows the table.
//
// The contacts are written into DeviceBodyContacts::arrays, one uint buffer
// (ids | normal | weights | vertexCount | vertexItems; TL_BC_* in
// common/layout.clh for slotCount slots and vertexN vertices).
//
// Build options from the host: -DBC_GROUP=<work-group size of the group
// kernels> -DBC_ITEMS=<elements per work-item in the block kernels>.
#pragma OPENCL FP_CONTRACT OFF

#include "common/compat_cl.clh"
#include "common/body_contact.clh"
#include "common/layout.clh"
#include "group_sum.clh"

#ifndef BC_GROUP
#error "BC_GROUP (work-group size) must be set by the host (gpu/solvers/body_contact_detection_gpu.cpp)"
#endif
#ifndef BC_ITEMS
#error "BC_ITEMS (elements per work-item) must be set by the host (gpu/solvers/body_contact_detection_gpu.cpp)"
#endif

#define BC_NO_CONTACT 0xffffffffu
#define BC_K TL_MAX_CONTACTS_PER_VERTEX
// gridCounters: [0] entries this substep, [1] flags this substep,
// [2] peak entries since the host's last read, [3] substeps that fell back since then.
#define BC_FLAG_FULL 1u   // more entries than capacity
#define BC_FLAG_RANGE 2u  // a triangle's cell coordinates do not fit an int
#define BC_MAX_CELL_COORD 1.0e9f

// Teschner et al. 2003, "Optimized Spatial Hashing for Collision Detection of
// Deformable Objects", Sec. 4: the hash of core/sim/body_contact_detection.cpp.
static inline uint bc_hash(int x, int y, int z) {
  return ((uint)x * 73856093u) ^ ((uint)y * 19349663u) ^ ((uint)z * 83492791u);
}

static inline float bc_len(float3 v) { return sqrt(dot(v, v)); }  // as glm::length (no rescaling)

static inline int bc_finite3(float3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

// Cells overlapped by triangle t's bound grown by r: returns 0 when the
// triangle is skipped (non-finite, as on the CPU) and sets *outFlag when its
// cells cannot be addressed.
static inline int bc_triangle_cells(__global const float4* y, uint4 tri, float r, float inv, int3* outLo,
                                    int3* outHi, uint* outFlag) {
  const float3 a = y[tri.x].xyz, b = y[tri.y].xyz, c = y[tri.z].xyz;
  const float3 lo = fmin(a, fmin(b, c)) - r;
  const float3 hi = fmax(a, fmax(b, c)) + r;
  *outFlag = 0u;
  if (!(bc_finite3(lo) && bc_finite3(hi))) return 0;
  const float3 flo = floor(lo * inv), fhi = floor(hi * inv);
  if (!(fabs(flo.x) < BC_MAX_CELL_COORD && fabs(flo.y) < BC_MAX_CELL_COORD && fabs(flo.z) < BC_MAX_CELL_COORD &&
        fabs(fhi.x) < BC_MAX_CELL_COORD && fabs(fhi.y) < BC_MAX_CELL_COORD && fabs(fhi.z) < BC_MAX_CELL_COORD)) {
    *outFlag = BC_FLAG_RANGE;
    return 0;
  }
  *outLo = convert_int3(flo);
  *outHi = convert_int3(fhi);
  return 1;
}

// Inclusive scan of one value per work-item over the group (Hillis & Steele).
static inline uint bc_group_scan(__local uint* tmp, uint value) {
  const uint l = get_local_id(0);
  tmp[l] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < BC_GROUP; off <<= 1) {
    const uint add = l >= off ? tmp[l - off] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[l] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return tmp[l];
}

__kernel void bc_reset(__global uint* buckets, const uint tableSize, __global uint* contacts, const uint slotCount,
                       const uint vertexN, __global uint* counters, __global uint* gridCounters) {
  __global uint* vertexCount = contacts + TL_BC_VERTEX_COUNT_BASE(slotCount);
  __global uint* vertexItems = contacts + TL_BC_VERTEX_ITEMS_BASE(slotCount, vertexN);
  const uint i = get_global_id(0);
  if (i < tableSize) buckets[i] = 0u;
  if (i < vertexN) {
    vertexCount[i] = 0u;
    for (uint k = 0; k < BC_K; ++k) vertexItems[i * BC_K + k] = BC_NO_CONTACT;  // bc_add_item's "empty"
  }
  if (i < 2u) {
    counters[i] = 0u;
    gridCounters[i] = 0u;
  }
}

// Sum of max(extent) of BC_GROUP * BC_ITEMS triangles per group.
__kernel __attribute__((reqd_work_group_size(BC_GROUP, 1, 1))) void bc_extent_partials(
    __global const float4* y, __global const uint4* tris, const uint triCount, __global float* partials) {
  __local float tmp[BC_GROUP];
  const uint first = get_group_id(0) * (BC_GROUP * BC_ITEMS) + get_local_id(0);
  float sum = 0.0f;
  for (uint k = 0; k < BC_ITEMS; ++k) {
    const uint t = first + k * BC_GROUP;
    if (t >= triCount) break;
    const uint4 tri = tris[t];
    const float3 a = y[tri.x].xyz, b = y[tri.y].xyz, c = y[tri.z].xyz;
    const float3 e = fmax(a, fmax(b, c)) - fmin(a, fmin(b, c));
    sum += fmax(e.x, fmax(e.y, e.z));
  }
  const float total = group_sum_float(tmp, sum, BC_GROUP);
  if (get_local_id(0) == 0) partials[get_group_id(0)] = total;
}

// One group. Cell size rule of the CPU: at least 2 r, else the mean extent
// (NaN mean -> 2 r, like std::max(2 r, NaN)).
__kernel __attribute__((reqd_work_group_size(BC_GROUP, 1, 1))) void bc_cell_size(
    __global const float* partials, const uint partialCount, const uint triCount, const float r,
    __global float* grid) {
  __local float tmp[BC_GROUP];
  float sum = 0.0f;
  for (uint i = get_local_id(0); i < partialCount; i += BC_GROUP) sum += partials[i];
  const float total = group_sum_float(tmp, sum, BC_GROUP);
  if (get_local_id(0) == 0) {
    const float mean = triCount > 0u ? total / (float)triCount : 0.0f;
    const float cell = mean > 2.0f * r ? mean : 2.0f * r;
    grid[0] = cell;
    grid[1] = 1.0f / cell;
  }
}

__kernel void bc_count(__global const float4* y, __global const uint4* tris, const uint triCount, const float r,
                       __global const float* grid, __global uint* buckets, const uint tableMask,
                       __global uint* gridCounters, const uint capacity) {
  const uint t = get_global_id(0);
  if (t >= triCount) return;
  int3 lo, hi;
  uint flag;
  if (!bc_triangle_cells(y, tris[t], r, grid[1], &lo, &hi, &flag)) {
    if (flag) atomic_or(&gridCounters[1], flag);
    return;
  }
  // In float: a blown-up triangle's cell count may not fit a uint.
  const float cells = ((float)(hi.x - lo.x) + 1.0f) * ((float)(hi.y - lo.y) + 1.0f) * ((float)(hi.z - lo.z) + 1.0f);
  if (cells > (float)capacity) {
    atomic_add(&gridCounters[0], capacity + 1u);
    atomic_or(&gridCounters[1], BC_FLAG_FULL);
    return;
  }
  const uint n = (uint)cells;
  const uint before = atomic_add(&gridCounters[0], n);
  if (before + n > capacity || before + n < before) {
    atomic_or(&gridCounters[1], BC_FLAG_FULL);
    return;  // the query tests every triangle: no need to fill buckets
  }
  for (int z = lo.z; z <= hi.z; ++z)
    for (int yy = lo.y; yy <= hi.y; ++yy)
      for (int x = lo.x; x <= hi.x; ++x) atomic_inc(&buckets[bc_hash(x, yy, z) & tableMask]);
}

// Exclusive scan, level 1: each group scans BC_GROUP * BC_ITEMS consecutive
// counts in place and writes its total to blockSums.
__kernel __attribute__((reqd_work_group_size(BC_GROUP, 1, 1))) void bc_scan_blocks(__global uint* data,
                                                                                    __global uint* blockSums) {
  __local uint tmp[BC_GROUP];
  const uint base = get_group_id(0) * (BC_GROUP * BC_ITEMS) + get_local_id(0) * BC_ITEMS;
  uint sum = 0u;
  for (uint k = 0; k < BC_ITEMS; ++k) sum += data[base + k];
  const uint inclusive = bc_group_scan(tmp, sum);
  uint running = inclusive - sum;
  for (uint k = 0; k < BC_ITEMS; ++k) {
    const uint v = data[base + k];
    data[base + k] = running;
    running += v;
  }
  if (get_local_id(0) == BC_GROUP - 1) blockSums[get_group_id(0)] = inclusive;
}

// Level 2, one group: exclusive scan of the block totals, chunk by chunk with a carry.
__kernel __attribute__((reqd_work_group_size(BC_GROUP, 1, 1))) void bc_scan_block_sums(__global uint* blockSums,
                                                                                        const uint blockCount) {
  __local uint tmp[BC_GROUP];
  __local uint carry;
  if (get_local_id(0) == 0) carry = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint chunk = 0; chunk < blockCount; chunk += BC_GROUP) {
    const uint i = chunk + get_local_id(0);
    const uint v = i < blockCount ? blockSums[i] : 0u;
    const uint inclusive = bc_group_scan(tmp, v);
    const uint before = carry;
    if (i < blockCount) blockSums[i] = before + inclusive - v;
    barrier(CLK_LOCAL_MEM_FENCE);  // everyone has read carry
    if (get_local_id(0) == BC_GROUP - 1) carry = before + inclusive;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Level 3: add each block's offset.
__kernel void bc_scan_add(__global uint* data, __global const uint* blockSums, const uint count) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  data[i] += blockSums[i / (BC_GROUP * BC_ITEMS)];
}

// After this, buckets[b] is the END of bucket b (its start was incremented
// once per entry), so bucket b spans [b ? buckets[b - 1] : 0, buckets[b]).
__kernel void bc_scatter(__global const float4* y, __global const uint4* tris, const uint triCount, const float r,
                         __global const float* grid, __global uint* buckets, const uint tableMask,
                         __global uint* entries, __global const uint* gridCounters) {
  const uint t = get_global_id(0);
  if (t >= triCount || gridCounters[1] != 0u) return;
  int3 lo, hi;
  uint flag;
  if (!bc_triangle_cells(y, tris[t], r, grid[1], &lo, &hi, &flag)) return;
  for (int z = lo.z; z <= hi.z; ++z)
    for (int yy = lo.y; yy <= hi.y; ++yy)
      for (int x = lo.x; x <= hi.x; ++x) entries[atomic_inc(&buckets[bc_hash(x, yy, z) & tableMask])] = t;
}

__kernel void bc_sort_buckets(__global const uint* buckets, const uint tableSize, __global uint* entries,
                              __global const uint* gridCounters) {
  const uint b = get_global_id(0);
  if (b >= tableSize || gridCounters[1] != 0u) return;
  const uint begin = b > 0u ? buckets[b - 1] : 0u, end = buckets[b];
  for (uint i = begin + 1; i < end; ++i) {  // insertion sort: buckets hold a few entries
    const uint v = entries[i];
    uint j = i;
    for (; j > begin && entries[j - 1] > v; --j) entries[j] = entries[j - 1];
    entries[j] = v;
  }
}

struct BcBest {
  float dist, align;
  uint tri;
  float3 w, n;
};

// The narrow phase of one (vertex, triangle) pair, as in detectBodyContacts.
static inline void bc_consider(uint t, uint p, uint body, float3 yp, __global const float4* y,
                               __global const float4* x, uint firstTwoSided, __global const uint4* tris,
                               __global const float4* rest, float minSelfRest, uint selfCollision,
                               float tieTolerance, float rejectDist2, struct BcBest* best) {
  const uint4 tri = tris[t];
  if (tri.w == body) {
    if (!selfCollision || tri.x == p || tri.y == p || tri.z == p) return;
    const float3 rp = rest[p].xyz;
    if (bc_len(rest[tri.x].xyz - rp) <= minSelfRest || bc_len(rest[tri.y].xyz - rp) <= minSelfRest ||
        bc_len(rest[tri.z].xyz - rp) <= minSelfRest)
      return;
  }
  const float3 ya = y[tri.x].xyz, yb = y[tri.y].xyz, yc = y[tri.z].xyz;
  // Broad-phase filter, not part of the rule: a triangle whose bounding box is
  // farther than 1.5 r can never be chosen (candidates lie within r plus the
  // tie tolerance, 1e-4 r, far above the rounding of either distance).
  const float3 outside = fmax(fmax(fmin(ya, fmin(yb, yc)) - yp, yp - fmax(ya, fmax(yb, yc))), (float3)(0.0f));
  if (dot(outside, outside) > rejectDist2) return;
  const float3 w = closest_point_triangle_weights(yp, ya, yb, yc);
  const float3 c = cross(yb - ya, yc - ya);
  const float len = bc_len(c);
  if (!(len > 0.0f)) return;
  float3 n = c / len;
  if (t >= firstTwoSided) n *= body_contact_sheet_side(x[p].xyz, x[tri.x].xyz, x[tri.y].xyz, x[tri.z].xyz, w);
  const float3 offset = yp - (ya * w.x + yb * w.y + yc * w.z);
  const float dist = bc_len(offset);
  const float align = dist > 0.0f ? fabs(dot(n, offset)) / dist : 1.0f;
  if (!body_contact_better(dist, align, t, best->dist, best->align, best->tri, tieTolerance)) return;
  best->dist = dist;
  best->align = align;
  best->tri = t;
  best->w = w;
  best->n = n;
}

// Inserts item into vertex v's list, which keeps the K smallest items in
// ascending order: the CPU's list (slots visited in order, items s*4+k
// appended, later ones dropped when full), whatever order the work-items run
// in. Each position keeps the smaller of its value and the arriving one and
// passes the larger on (atomic_min), so position k ends as the (k+1)-th
// smallest item; one passed beyond the last position is dropped and counted.
// A first-come append, as before, kept whichever items arrived first on a GPU
// (seen as intermittent CPU/GPU mismatches on an H100) and summed a vertex's
// contacts in a run-dependent order.
static inline void bc_add_item(__global uint* vertexCount, __global uint* vertexItems, __global uint* counters, uint v,
                               uint item) {
  __global uint* list = vertexItems + v * BC_K;
  for (uint k = 0; k < BC_K; ++k) {
    const uint prev = atomic_min(&list[k], item);
    if (prev == BC_NO_CONTACT) {  // an empty position took it
      atomic_inc(&vertexCount[v]);
      return;
    }
    item = max(prev, item);  // the larger one moves on
  }
  atomic_inc(&counters[1]);
}

// params: (searchRadius, thickness, friction, tie tolerance).
// x: the substep's start positions (x^t), for the side of a cloth triangle
// (t >= firstTwoSided) a vertex is kept on.
__kernel void bc_query(__global const float4* y, __global const float4* x, const uint firstTwoSided,
                       __global const uint* vertexBody, __global const float4* rest,
                       __global const uint* surfaceVertices, const uint slotCount, __global const uint4* tris,
                       const uint triCount, __global const float* grid, __global const uint* buckets,
                       const uint tableMask, __global const uint* entries, __global uint* gridCounters,
                       const float4 params, const uint selfCollision, __global uint* contacts, const uint vertexN,
                       __global uint* counters) {
  const uint s = get_global_id(0);
  if (s >= slotCount) return;
  __global uint4* ids = (__global uint4*)contacts;
  __global float4* normal = (__global float4*)(contacts + TL_BC_NORMAL_BASE(slotCount));
  __global float4* weights = (__global float4*)(contacts + TL_BC_WEIGHTS_BASE(slotCount));
  __global uint* vertexCount = contacts + TL_BC_VERTEX_COUNT_BASE(slotCount);
  __global uint* vertexItems = contacts + TL_BC_VERTEX_ITEMS_BASE(slotCount, vertexN);
  const uint flags = gridCounters[1];
  if (s == 0u) {
    atomic_max(&gridCounters[2], gridCounters[0]);
    if (flags != 0u) atomic_inc(&gridCounters[3]);
  }
  ids[s] = (uint4)(BC_NO_CONTACT);
  const uint p = surfaceVertices[s];
  const float3 yp = y[p].xyz;
  if (!bc_finite3(yp)) return;
  const float r = params.x;
  const uint body = vertexBody[p];
  struct BcBest best;
  best.dist = r;
  best.align = -1.0f;
  best.tri = BC_NO_CONTACT;
  best.w = (float3)(0.0f);
  best.n = (float3)(0.0f);
  const float minSelfRest = 2.0f * r;
  const float rejectDist2 = (1.5f * r) * (1.5f * r);
  if (flags != 0u) {
    for (uint t = 0; t < triCount; ++t)
      bc_consider(t, p, body, yp, y, x, firstTwoSided, tris, rest, minSelfRest, selfCollision, params.w, rejectDist2, &best);
  } else {
    const int3 cell = convert_int3(floor(yp * grid[1]));
    const uint b = bc_hash(cell.x, cell.y, cell.z) & tableMask;
    const uint begin = b > 0u ? buckets[b - 1] : 0u, end = buckets[b];
    for (uint k = begin; k < end; ++k)
      bc_consider(entries[k], p, body, yp, y, x, firstTwoSided, tris, rest, minSelfRest, selfCollision, params.w, rejectDist2, &best);
  }
  if (best.tri == BC_NO_CONTACT) return;
  const uint4 tri = tris[best.tri];
  ids[s] = (uint4)(p, tri.x, tri.y, tri.z);
  normal[s] = (float4)(best.n, params.y);
  weights[s] = (float4)(best.w, params.z);
  atomic_inc(&counters[0]);
  bc_add_item(vertexCount, vertexItems, counters, p, s * 4u + 0u);
  bc_add_item(vertexCount, vertexItems, counters, tri.x, s * 4u + 1u);
  bc_add_item(vertexCount, vertexItems, counters, tri.y, s * 4u + 2u);
  bc_add_item(vertexCount, vertexItems, counters, tri.z, s * 4u + 3u);
}
