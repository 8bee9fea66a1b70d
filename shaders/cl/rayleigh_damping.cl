// The Rayleigh material damping pass on the device, once per frame after the
// substeps (the algebra: common/rayleigh_damping.clh; the CPU twin:
// core/sim/rayleigh_damping.cpp; host script gpu/solvers/rayleigh_damping_gpu.cpp):
//
//   rd_tets(v) -> rd_begin -> rd_scalars(begin)                 r = -dt D v, p = z = M^-1 r
//   per iteration:
//     rd_tets(p) -> rd_product -> rd_scalars(alpha)             q = (M + dt D) p
//     rd_update -> rd_scalars(beta) -> rd_direction             dv += alpha p, r -= alpha q, p = z + beta p
//   rd_finish                                                   v += dv
//
// The scalars of the CG live in `scalars` (RD_* slots), written by the one
// work-group of rd_scalars, so nothing is read back: the host enqueues
// maxIterations rounds and every kernel returns at once after RD_DONE is set
// (converged, or M + dt D lost definiteness). The per-vertex kernels write
// their dot-product terms to `terms`; rd_scalars sums them in one work-group
// of RD_GROUP items, in the order the CPU follows. Only rd_scalars has a barrier:
// PoCL builds a work-group function per kernel, and the gathers' variable-
// length loops around a barrier made that build run for minutes.
#pragma OPENCL FP_CONTRACT OFF
#include "common/rayleigh_damping.clh"
#include "group_sum.clh"

// corner[4 t + k] = tet t's share of (D d) at its corner k.
__kernel void rd_tets(const uint count, __global const float4* x, __global const float4* d,
                      __global const uint4* tets, __global const float4* DmInv, __global const float* restVolume,
                      __global const uint* tetBody, __global const float4* bodies, __global float4* corner,
                      __global const float* scalars) {
  const uint t = get_global_id(0);
  if (t >= count || scalars[RD_DONE] != 0.0f) return;
  const float4 body = bodies[tetBody[t]];
  float3 f[4] = {(float3)(0.0f), (float3)(0.0f), (float3)(0.0f), (float3)(0.0f)};
  if (body.z > 0.0f) {
    const uint4 v = tets[t];
    const Mat3 Dm = mat3_cols(DmInv[3 * t].xyz, DmInv[3 * t + 1].xyz, DmInv[3 * t + 2].xyz);
    rd_tet_apply(body, restVolume[t], Dm, x[v.x].xyz, x[v.y].xyz, x[v.z].xyz, x[v.w].xyz, d[v.x].xyz, d[v.y].xyz,
                 d[v.z].xyz, d[v.w].xyz, f);
  }
  for (int k = 0; k < 4; ++k) corner[4 * t + k] = (float4)(f[k], 0.0f);
}

// (D d)_i: the tets' corner terms through the CSR adjacency (items are 4 t + corner)
// plus the springs around i when `springs` is set and the cloth membranes
// around i when `membranes` is (the CPU's order).
static inline float3 rd_gather(uint i, __global const float4* x, __global const float4* d,
                               __global const float4* corner, __global const uint* vertexTetsOffsets,
                               __global const uint* vertexTetsItems, const uint springs, __global const uint2* edges,
                               __global const float* restLength, __global const float* edgeStiffness,
                               __global const uint* vertexEdgesOffsets, __global const uint* vertexEdgesItems,
                               __global const uint* vertexBody, __global const float4* bodies, const uint membranes,
                               __global const uint4* membraneIds, __global const float4* membraneDmInv,
                               __global const float* membraneArea, __global const uint* vertexMembranesOffsets,
                               __global const uint* vertexMembranesItems) {
  float3 sum = (float3)(0.0f);
  for (uint k = vertexTetsOffsets[i]; k < vertexTetsOffsets[i + 1]; ++k) sum += corner[vertexTetsItems[k]].xyz;
  if (springs)
    sum += rd_springs_apply(i, bodies[vertexBody[i]].z, x, d, edges, restLength, edgeStiffness, vertexEdgesOffsets,
                            vertexEdgesItems);
  if (membranes)
    sum += rd_membranes_apply(i, x, d, membraneIds, membraneDmInv, membraneArea, vertexMembranesOffsets,
                              vertexMembranesItems, bodies);
  return sum;
}

#define RD_GATHER_PARAMS                                                                                          \
  __global const float4 *corner, __global const uint *vertexTetsOffsets, __global const uint *vertexTetsItems,   \
      const uint springs, __global const uint2 *edges, __global const float *restLength,                         \
      __global const float *edgeStiffness, __global const uint *vertexEdgesOffsets,                              \
      __global const uint *vertexEdgesItems, __global const uint *vertexBody, __global const float4 *bodies,     \
      const uint membranes, __global const uint4 *membraneIds, __global const float4 *membraneDmInv,            \
      __global const float *membraneArea, __global const uint *vertexMembranesOffsets,                           \
      __global const uint *vertexMembranesItems
#define RD_GATHER_ARGS                                                                                            \
  corner, vertexTetsOffsets, vertexTetsItems, springs, edges, restLength, edgeStiffness, vertexEdgesOffsets,      \
      vertexEdgesItems, vertexBody, bodies, membranes, membraneIds, membraneDmInv, membraneArea,                 \
      vertexMembranesOffsets, vertexMembranesItems

// r = -dt D v, p = z = M^-1 r, dv = 0; terms r . z.
__kernel void rd_begin(const uint count, __global const float4* x, __global const float4* v, RD_GATHER_PARAMS,
                       const float dt, __global float4* r, __global float4* p, __global float4* dv,
                       __global float* terms) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float w = x[i].w;
  const float3 Dv = rd_gather(i, x, v, RD_GATHER_ARGS);
  const float4 ri = (float4)(rd_initial_residual(w, dt, Dv), 0.0f);
  const float4 zi = (float4)(rd_precondition(w, ri.xyz), 0.0f);
  r[i] = ri;
  p[i] = zi;
  dv[i] = (float4)(0.0f);
  terms[i] = rd_dot(ri.xyz, zi.xyz);
}

// q = (M + dt D) p; terms p . q.
__kernel void rd_product(const uint count, __global const float4* x, __global const float4* p,
                         __global const float* mass, RD_GATHER_PARAMS, const float dt, __global float4* q,
                         __global float* terms, __global const float* scalars) {
  const uint i = get_global_id(0);
  if (i >= count || scalars[RD_DONE] != 0.0f) return;
  const float3 Dp = rd_gather(i, x, p, RD_GATHER_ARGS);
  const float4 qi = (float4)(rd_system_row(mass[i], x[i].w, dt, p[i].xyz, Dp), 0.0f);
  q[i] = qi;
  terms[i] = rd_dot(p[i].xyz, qi.xyz);
}

// dv += alpha p, r -= alpha q; terms r . z (z = M^-1 r).
__kernel void rd_update(const uint count, __global const float4* x, __global const float4* p,
                        __global const float4* q, __global float4* dv, __global float4* r, __global float* terms,
                        __global const float* scalars) {
  const uint i = get_global_id(0);
  if (i >= count || scalars[RD_DONE] != 0.0f) return;
  const float alpha = scalars[RD_ALPHA];
  dv[i] += alpha * p[i];
  const float4 ri = r[i] - alpha * q[i];
  r[i] = ri;
  terms[i] = rd_dot(ri.xyz, rd_precondition(x[i].w, ri.xyz));
}

// The CG scalars, one work-group: sums the terms (lanes, then pairwise) and
// updates the scalars (rd_scalars_update).
__kernel __attribute__((reqd_work_group_size(RD_GROUP, 1, 1))) void rd_scalars(
    __global const float* terms, const uint count, const uint mode, const uint maxIterations,
    const float tolerance, __global float* scalars) {
  __local float tmp[RD_GROUP];
  float sum = 0.0f;
  for (uint k = get_local_id(0); k < count; k += RD_GROUP) sum += terms[k];
  const float total = group_sum_float(tmp, sum, RD_GROUP);
  if (get_local_id(0) == 0) rd_scalars_update(mode, total, maxIterations, tolerance, scalars);
}

// p = z + beta p.
__kernel void rd_direction(const uint count, __global const float4* x, __global const float4* r, __global float4* p,
                           __global const float* scalars) {
  const uint i = get_global_id(0);
  if (i >= count || scalars[RD_DONE] != 0.0f) return;
  p[i] = (float4)(rd_precondition(x[i].w, r[i].xyz), 0.0f) + scalars[RD_BETA] * p[i];
}

// v += dv.
__kernel void rd_finish(const uint count, __global const float4* dv, __global float4* v) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  v[i] = (float4)(v[i].xyz + dv[i].xyz, 0.0f);
}
