// Vertex Block Descent (Chen et al. 2024) on the device; the CPU twin is
// core/cpu/vbd_solver.cpp. One substep (host script gpu/solvers/vbd_solver_gpu.cpp):
//
//   vbd_init_guess                          per vertex (VBD Sec. 3.7)
//   for iteration:
//     for vertex colour c:
//       [vbd_mouse_offset]                  only when c holds 2+ attached vertices
//       vbd_solve_vertices_color (c)        per vertex of c: gather f_i, H_i, 3x3 Newton step;
//                                           body contacts on: also copies x of colour c+1's
//                                           vertices into the partner snapshot (below)
//     [vbd_chebyshev]                       per vertex (VBD Sec. 3.8), when accelerate is on
//
// Contacts are penalty terms evaluated at the current iterate inside the solve,
// so there is no separate collision pass. Nothing is read back.
//
// Body contacts read a partner of the colour being solved from `snapshot`,
// which must hold x of that colour's vertices as at the start of the colour
// (vbd_vertex.clh). Those vertices change only in their own colour's solve,
// the initial guess and the Chebyshev step, so the snapshot is refreshed
// without launches of its own: vbd_init_guess and vbd_chebyshev copy every
// vertex, and the solve of colour c copies colour c + 1 (which that launch
// does not write; the last colour copies colour 0 for the next iteration).
// vbd_snapshot_color is the separate copy for a model with a single colour.
#pragma OPENCL FP_CONTRACT OFF

#include "vbd_vertex.clh"

// x = initial guess for free vertices; vLast = v^t for the next substep's
// adaptive guess (w = 1: history valid; the host zeroes it on reset);
// chebyshevPrev1 = x^(0) when acceleration is on.
__kernel void vbd_init_guess(const uint count, __global float4* x, __global const float4* v,
                             __global float4* vLast, __global float4* chebyshevPrev1, const float4 gravity,
                             const float h, const uint mode, const uint accelerate, __global float4* snapshot,
                             const uint takeSnapshot) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  float4 p = x[i];
  const float3 vi = v[i].xyz;
  if (p.w > 0.0f) {
    const float4 last = vLast[i];
    p = (float4)(vbd_initial_guess(mode, h, gravity.xyz, gravity.w, p.xyz, vi, last.xyz, last.w > 0.0f), p.w);
    x[i] = p;
  }
  vLast[i] = (float4)(vi, 1.0f);
  if (accelerate) chebyshevPrev1[i] = (float4)(p.xyz, 0.0f);
  if (takeSnapshot) snapshot[i] = p;
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
    __global const uint* contacts, __global float* residual) {
  __global const uint* vertexColorOrder = topology;
  const uint k = get_global_id(0);
  if (k < p.nextCount) {
    const uint j = vertexColorOrder[p.nextBegin + k];
    snapshot[j] = x[j];
  }
  if (k >= p.count) return;
  const uint i = vertexColorOrder[p.begin + k];
  const float4 xw = x[i];
  const float w = xw.w;
  if (!(w > 0.0f)) return;  // pinned / kinematic
  const float h = p.h;
  const uint terms = p.terms;
  const float mass = 1.0f / w;
  const float3 xi = xw.xyz;

  VbdSystem s = vbd_system_zero();
  vbd_add_inertia(mass, h, xi, xInertial[i].xyz, &s);
  if (terms & VBD_TERM_NEO_HOOKEAN)
    vbd_add_tets(i, x, tets, DmInv, restData + p.restVolumeBase, topology + p.tetBodyBase,
                 topology + p.vertexTetsOffsetsBase, topology + p.vertexTetsItemsBase, bodies, &s);
  if (terms & VBD_TERM_EDGES)
    vbd_add_springs(i, p.safeguard, x, edges, restData + p.restLengthBase, edgeStiffness,
                    topology + p.vertexEdgesOffsetsBase, topology + p.vertexEdgesItemsBase, &s);
  if (terms & VBD_TERM_MOUSE) {
    const int slot = vbd_mouse_slot(i, mouse.ids, mouse.slots);
    if (slot >= 0) {
      const float3 r = p.mouseFromOffset ? mouseOffset[0].xyz
                                         : vbd_attachment_offset(x, mouse.ids, mouse.weights, mouse.slots,
                                                                 vbd_mouse_target(&mouse));
      vbd_add_attachment(r, mouse.weights[slot], mouse.stiffness, mouse.maxForce, &s.f, &s.H);
    }
  }
  int touching = 0;
  if (terms & VBD_TERM_COLLISIONS)
    touching = vbd_add_collider_contacts(colliders, p.colliderCount, xi, xPrev[i].xyz, p.contactThickness,
                                         p.contactStiffness, p.frictionEpsilon, h, &s) > 0.0f;
  if (terms & VBD_TERM_BODY_CONTACTS)
    touching |= vbd_add_body_contacts(
        i, p.color, p.bodyStiffnessOverH2, p.bodyYEps, x, xPrev, snapshot, topology + p.colorOfBase,
        (__global const uint4*)contacts, (__global const float4*)(contacts + TL_BC_NORMAL_BASE(p.contactSlots)),
        (__global const float4*)(contacts + TL_BC_WEIGHTS_BASE(p.contactSlots)),
        contacts + TL_BC_VERTEX_COUNT_BASE(p.contactSlots),
        contacts + TL_BC_VERTEX_ITEMS_BASE(p.contactSlots, p.vertexCount), 0, 0, &s);
  if (terms & VBD_TERM_ACCELERATE) inContact[i] = (uint)touching;
  if (terms & VBD_TERM_RESIDUAL) vbd_record_residual(residual, i, s.f, h, mass);
  vbd_apply_step(x, i, xi, w, s, p.safeguard, p.determinantThreshold);
}

// Chebyshev semi-iterative over-relaxation after a full sweep (VBD Sec. 3.8):
//   x^(n) = omega_n (x_bar^(n) - x^(n-2)) + x^(n-2)   for n >= 2, free vertices not in contact.
__kernel void vbd_chebyshev(const uint count, __global float4* x, __global float4* chebyshevPrev1,
                            __global float4* chebyshevPrev2, __global const uint* inContact, const float omega,
                            const uint apply, __global float4* snapshot, const uint takeSnapshot) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 p = x[i];
  float3 xi = p.xyz;
  const float3 prev2 = chebyshevPrev2[i].xyz;
  if (apply && p.w > 0.0f && !inContact[i]) {
    xi = omega * (xi - prev2) + prev2;
    x[i] = (float4)(xi, p.w);
  }
  chebyshevPrev2[i] = chebyshevPrev1[i];
  chebyshevPrev1[i] = (float4)(xi, 0.0f);
  if (takeSnapshot) snapshot[i] = (float4)(xi, p.w);
}
