// Stages every solver shares, around its own solve (core/sim/stepper.h is the
// CPU twin; the order and the expressions match it so the parity tests can be
// tight):
//
//   step_wind      (cloth in wind) dv = h F_wind / m from the same v for every vertex,
//   step_wind_apply  then v += dv (common/wind.clh, core/sim/wind.h)
//   step_predict   xPrev = x; xInertial = x + h v + h^2 g (pinned: xInertial = x)
//   <solver>       initial guess, iterations over colours, collisions
//   step_spheres   (when set) motion and separation spheres blended at t = (s + 1) / N
//                  (common/sphere_constraints.clh, core/sim/sphere_constraints.h)
//   step_velocity  v = (v + h g + (x - xInertial) / h) * damping (= (x - xPrev) / h without
//                  the float rounding of the predict, common/step_integrate.clh); first
//                  non-finite vertex -> status[0]
//   step_rollback  (once, after the last substep) if status[0] is set: x = xPrev, v = 0
//
// No host read-back: after a non-finite vertex the remaining predicts and
// velocity updates do nothing, so xPrev still holds the start of the failing
// substep and step_rollback restores it; the host reads status[0] whenever it
// asks for diagnostics. status[0] == 0xffffffff means "all finite" (reset by
// the host at the start of each step); status[1] keeps the first bad vertex
// across steps until the host reads and clears it.
#pragma OPENCL FP_CONTRACT OFF
#include "step_vertex.clh"
#include "common/force_fields.clh"
#include "common/wind.clh"
#include "common/sphere_constraints.clh"

// wind: (w, rho) of the substep; coeff: (C_d, C_l, h, 0).
__kernel void step_wind(const uint count, __global const float4* x, __global const float4* v,
                        __global const uint4* tris, __global const uint* offsets, __global const uint* items,
                        const float4 wind, const float4 coeff, __global float4* dv, __global const uint* status) {
  const uint i = get_global_id(0);
  if (i >= count || status[0] != STEP_ALL_FINITE) return;
  dv[i] = (float4)(wind_vertex_dv(i, x, v, tris, offsets, items, wind.xyz, wind.w, coeff.x, coeff.y, coeff.z), 0.0f);
}

__kernel void step_wind_apply(const uint count, __global float4* v, __global const float4* dv,
                              __global const uint* status) {
  const uint i = get_global_id(0);
  if (i >= count || status[0] != STEP_ALL_FINITE) return;
  v[i] += dv[i];
}

// Force fields (common/force_fields.clh): v += dv from x at the substep's start, before the predict.
__kernel void step_fields(const uint count, __global const float4* x, __global float4* v,
                          __global const float4* fields, const uint fieldCount, const float h,
                          __global const uint* status) {
  const uint i = get_global_id(0);
  if (i >= count || status[0] != STEP_ALL_FINITE) return;
  const float4 p = x[i];
  v[i] += (float4)(field_vertex_dv(p.xyz, p.w, fields, fieldCount, h), 0.0f);
}

__kernel void step_spheres(const uint count, __global float4* x, __global const float4* motionStart,
                           __global const float4* motionTarget, __global const float4* separationStart,
                           __global const float4* separationTarget, const float t, const float k,
                           __global const uint* status) {
  const uint i = get_global_id(0);
  if (i >= count || status[0] != STEP_ALL_FINITE) return;
  sphere_constraints_vertex(x, i, motionStart, motionTarget, separationStart, separationTarget, t, k);
}

__kernel void step_predict(__global float4* x, __global float4* xPrev, __global float4* xInertial,
                           __global const float4* v, const float4 gravity, const float h, const uint count,
                           __global const uint* status) {
  const uint i = get_global_id(0);
  if (i >= count || status[0] != STEP_ALL_FINITE) return;
  step_predict_vertex(i, x, xPrev, xInertial, v, gravity.xyz, h);
}

__kernel void step_velocity(__global const float4* x, __global const float4* xPrev,
                            __global const float4* xInertial, __global float4* v, const float4 gravity,
                            const float h, const float damping, const uint count, __global uint* status) {
  const uint i = get_global_id(0);
  if (i >= count || status[0] != STEP_ALL_FINITE) return;
  step_velocity_vertex(i, x, xPrev, xInertial, v, gravity.xyz, h, damping, status);
}

__kernel void step_rollback(__global float4* x, __global const float4* xPrev, __global float4* v, const uint count,
                            __global uint* status) {
  const uint i = get_global_id(0);
  if (i >= count || status[0] == STEP_ALL_FINITE) return;
  if (i == 0) atomic_min(&status[1], status[0]);
  x[i] = xPrev[i];
  v[i] = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
}

// Anchor springs' end-of-frame break check (core/sim/anchor_springs.h): the
// positions of the sub-springs' vertices, gathered so the host reads a few
// float4 per spring instead of every vertex.
__kernel void step_gather_springs(const uint count, __global const uint* vertex, __global const float4* x,
                                  __global float4* out) {
  const uint j = get_global_id(0);
  if (j < count) out[j] = x[vertex[j]];
}

