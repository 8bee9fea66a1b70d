// Vertex Block Descent (Chen et al. 2024) on the device; the CPU twin is
// core/cpu/vbd_solver.cpp. One substep (host script gpu/solvers/vbd_solver_gpu.cpp):
//
//   vbd_init_guess                          per vertex (VBD Sec. 3.7)
//   for iteration:
//     for vertex colour c:
//       [vbd_mouse_offset]                  only when c holds 2+ attached vertices
//       vbd_solve_vertices_color (c)        per vertex of c: gather f_i, H_i, 3x3 Newton step;
//                                           body contacts on: also copies x of colour c+1's
//                                           vertices into the partner snapshot (below);
//                                           colour 0's is vbd_snapshot_color before it
//     [vbd_chebyshev]                       per vertex (VBD Sec. 3.8), when accelerate is on
//
// That is the per-colour schedule. Small models instead run the whole step in
// one work-group, one launch per frame (vbd_step_group, vbd_group.clh; the
// choice is gpu/solvers/vbd_schedule.h); both call the per-vertex functions below.
//
// Contacts are penalty terms evaluated at the current iterate inside the solve,
// so there is no separate collision pass. Nothing is read back.
//
// Body contacts read a partner of the colour being solved, or of an earlier
// colour, from `snapshot`, which must hold x of those colours' vertices as at
// the start of the iteration (common/vbd_assembly.clh: every vertex of a
// contact sees it at one iterate). Those vertices change only in their own
// colour's solve, the initial guess and the Chebyshev step, so the snapshot
// of colour c + 1 is written by the solve of colour c (which that launch does
// not write, and no vertex of it reads from the snapshot), and colour 0's by
// vbd_snapshot_color before its solve (the last colour reads it, so cannot).
#pragma OPENCL FP_CONTRACT OFF

#include "vbd_vertex.clh"

// x = initial guess for free vertices (VBD Sec. 3.7); vertexHistory holds
// three sections of `count` float4 (VbdSolverGpu): vLast = v^t for the next
// substep's adaptive guess (w: the history word of vbd_initial_guess.clh, set
// by the host on reset), then chebyshevPrev1 = x^(0) when acceleration is on, then
// chebyshevPrev2.
static inline void vbd_init_guess_vertex(uint i, uint count, __global float4* x, __global const float4* v,
                                         __global float4* vertexHistory, float3 gravity, float gravityLength, float h,
                                         uint mode, uint accelerate) {
  float4 p = x[i];
  const float3 vi = v[i].xyz;
  if (p.w > 0.0f) {
    const float4 last = vertexHistory[i];
    const int pins = vbd_history_pins(last.w);
    const float3 pivot = pins == VBD_PINS_SWING ? x[vbd_history_pivot(last.w)].xyz : (float3)(0.0f);  // a pin: not written
    p = (float4)(vbd_initial_guess(mode, h, gravity, gravityLength, p.xyz, vi, last.xyz, vbd_history_valid(last.w),
                                   accelerate && pins == VBD_PINS_HELD ? VBD_PINS_FREE : pins, pivot),
                 p.w);
    x[i] = p;
  }
  vertexHistory[i] = (float4)(vi, vbd_history_next(vertexHistory[i].w));
  if (accelerate) vertexHistory[count + i] = (float4)(p.xyz, 0.0f);
}

// Chebyshev semi-iterative over-relaxation after a full sweep (VBD Sec. 3.8):
//   x^(n) = omega_n (x_bar^(n) - x^(n-2)) + x^(n-2)   for n >= 2, free vertices not in contact,
// applied when `apply` (chebyshevOverRelaxes); the two previous iterates
// always move on. Returns the vertex's new position.
static inline float4 vbd_chebyshev_vertex(uint i, uint count, __global float4* x, __global float4* vertexHistory,
                                          __global const uint* inContact, float omega, uint apply) {
  __global float4* prev1 = vertexHistory + count;
  __global float4* prev2 = vertexHistory + 2u * count;
  float4 p = x[i];
  const float3 before2 = prev2[i].xyz;
  if (apply && p.w > 0.0f && !inContact[i]) {
    p.xyz = omega * (p.xyz - before2) + before2;
    x[i] = p;
  }
  prev2[i] = prev1[i];
  prev1[i] = (float4)(p.xyz, 0.0f);
  return p;
}

__kernel void vbd_init_guess(const uint count, __global float4* x, __global const float4* v,
                             __global float4* vertexHistory, const float4 gravity, const float h, const uint mode,
                             const uint accelerate, __global float4* snapshot, const uint takeSnapshot) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  vbd_init_guess_vertex(i, count, x, v, vertexHistory, gravity.xyz, gravity.w, h, mode, accelerate);
  if (takeSnapshot) snapshot[i] = x[i];
}

// mouseOffset[0] = sum_j w_j x_j - target before a colour that holds several
// attached vertices: its work-items then share one snapshot instead of racing
// on each other's positions.
__kernel void vbd_mouse_offset(__global const float4* x, const VbdMouse mouse, __global float4* mouseOffset) {
  if (get_global_id(0) != 0) return;
  mouseOffset[0] = (float4)(vbd_attachment_offset(x, mouse.ids, mouse.weights, mouse.slots, vbd_mouse_target(&mouse)),
                            0.0f);
}

// One Newton step per vertex of colour [p.begin, p.begin + p.count) of
// vertexColorOrder (VbdStepParams in common/vbd_layout.clh). With body contacts
// on, the launch also refreshes the partner snapshot of colour
// [p.nextBegin, + p.nextCount) and covers max(count, nextCount) work-items.
// inContact[i] = 1 when vertex i touched a collider or another body (Chebyshev skips it).
//
// Packed buffers (sections at the bases in p; owners' headers describe them):
//   topology   uint   vertexColorOrder at 0 | colorOf | tetBody | vertexTets CSR
//                     offsets, items | vertexEdges CSR offsets, items   (VbdFamilyInputs)
//   restData   float  mass at 0 | restVolume | restLength                 (VbdFamilyInputs)
//   contacts   uint   ids | normal | weights | vertexCount | vertexItems  (DeviceBodyContacts,
//                     TL_BC_* in common/layout.clh, for p.contactSlots, p.vertexCount)
__kernel void vbd_solve_vertices_color(
    const VbdStepParams p, const VbdMouse mouse, __global const uint* topology, __global const float* restData,
    __global float4* x, __global const float4* xPrev, __global const float4* xInertial,
    __global const uint4* tets, __global const float4* DmInv, __global const uint2* edges,
    __global const float4* bodies, __global const float* edgeStiffness, __global const float4* colliders,
    __global const float4* mouseOffset, __global uint* inContact, __global float4* snapshot,
    __global const uint* contacts, __global float* residual, __global const uint* springTopology,
    __global const float4* springAnchor, __global const float* springStiffness) {
  __global const uint* vertexColorOrder = topology;
  const uint k = get_global_id(0);
  if (k < p.nextCount) {
    const uint j = vertexColorOrder[p.nextBegin + k];
    snapshot[j] = x[j];
  }
  if (k >= p.count) return;
  const uint i = vertexColorOrder[p.begin + k];
  const float3 mouseR = p.mouseFromOffset ? mouseOffset[0].xyz : (float3)(0.0f);
  float r = 0.0f;
  const int touching = vbd_solve_vertex(i, &p, &mouse, mouseR, p.mouseFromOffset, p.color, topology, restData, x,
                                        xPrev, xInertial, tets, DmInv, edges, bodies, edgeStiffness, colliders,
                                        snapshot, contacts, springTopology, springAnchor, springStiffness, &r);
  if (touching < 0) return;
  if (p.terms & VBD_TERM_ACCELERATE) inContact[i] = (uint)touching;
  if (p.terms & VBD_TERM_RESIDUAL) residual[i] = r;
}

__kernel void vbd_chebyshev(const uint count, __global float4* x, __global float4* vertexHistory,
                            __global const uint* inContact, const float omega, const uint apply,
                            __global float4* snapshot, const uint takeSnapshot) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 p = vbd_chebyshev_vertex(i, count, x, vertexHistory, inContact, omega, apply);
  if (takeSnapshot) snapshot[i] = p;
}

#include "vbd_group.clh"
