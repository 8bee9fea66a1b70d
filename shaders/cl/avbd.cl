// Augmented Vertex Block Descent (Giles et al. 2025, Algorithm 1) on the
// device; the CPU twin is core/cpu/avbd_solver.cpp + avbd_constraints.cpp.
// One substep (host script gpu/solvers/avbd_solver_gpu.cpp):
//
//   avbd_begin_edges, avbd_begin_mouse, avbd_begin_vertices,  stabilisation offsets C*(x^t),
//   avbd_begin_body_contacts          pin targets, contacts at x^t, warm start (Eq. 18, 19)
//   avbd_init_guess                   per vertex (VBD Sec. 3.7)
//   for iteration:
//     for vertex colour c:  [vbd_snapshot_color] [avbd_mouse_offset]  avbd_solve_vertices_color (c)   primal
//     avbd_dual_edges, avbd_dual_mouse, avbd_dual_vertices, [avbd_dual_body_contacts]     dual, Eq. 11, 12, 16
//
// On small models the whole iteration loop is one launch instead
// (avbd_solve_group, avbd_group.clh), calling the same per-vertex and per-row functions.
//
// Every row is owned by one work-item in each kernel (edges by their edge,
// pins and contacts by their vertex, body contacts by their slot, the mouse by
// one item), so no atomics. Body contacts (State::bodyContacts, one row per
// slot from bodyRow on, lambda only) read partners of this colour and of
// earlier ones from the snapshot, as VBD does (vbd_vertex.clh).
// Constants travel in one struct, AvbdStepParams (common/vbd_layout.clh), and
// the mouse in VbdMouse; the CPU builds the same structs (avbdStepParams).
//
// Packed buffers (sections at the bases in p; owners' headers describe them):
//   topology   uint   vertexColorOrder at 0 | colorOf | tetBody | vertexTets CSR
//                     offsets, items | vertexEdges CSR offsets, items   (VbdFamilyInputs)
//   restData   float  mass at 0 | restVolume | restLength                 (VbdFamilyInputs)
//   contacts   uint   ids | normal | weights | vertexCount | vertexItems  (DeviceBodyContacts,
//                     TL_BC_* in common/layout.clh, for p.contactSlots, p.vertexCount)
//   c0         float  per row, the layout of lambda: the stabilisation offset
//                     of the edge rows [0, edgeCount) and of the body-contact
//                     rows from p.bodyRow on (other rows unused)
//   mouseOffset float4 [0] r snapshot of the colour (avbd_mouse_offset), [1] r(x^t) (mouseC0)
//   vertexRows float4 per vertex i: pins [2 i] target (w = known), [2 i + 1] C*(x^t);
//                     then from 2 N (N vertices) the AVBD_CONTACT_ROWS AvbdContactFrame
//                     of each vertex (48 bytes = 3 float4 each), via avbd_frames()
#pragma OPENCL FP_CONTRACT OFF

#include "avbd_rows.clh"

// The contact frames of the vertexRows buffer (after the 2 N pin entries).
#define avbd_frames(vertexRows, N) ((__global AvbdContactFrame*)((vertexRows) + 2u * (N)))

__kernel void avbd_reset_vertices(const uint count, __global const float4* x, __global float4* vertexRows) {
  __global float4* pins = vertexRows;
  __global AvbdContactFrame* frames = avbd_frames(vertexRows, count);
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 p = x[i];
  pins[2 * i] = (float4)(p.xyz, p.w > 0.0f ? 0.0f : 1.0f);
  for (uint k = 0; k < AVBD_CONTACT_ROWS; ++k) frames[AVBD_CONTACT_ROWS * i + k].collider = -1;
}

// Edge rows: C*(x^t) and the warm start (beginSubstep, edges part).
__kernel void avbd_begin_edges(const uint count, const AvbdStepParams p, __global const float4* x,
                               __global const float4* xPrev, __global const uint2* edges,
                               __global const float* restLength, __global const float* mass,
                               __global const float* edgeStiffness, __global float* c0, __global float* lambda,
                               __global float* penalty) {
  const uint e = get_global_id(0);
  if (e >= count) return;
  avbd_begin_edge(e, x, xPrev, edges, restLength, mass, edgeStiffness, &p, c0, lambda, penalty);  // edge rows first
}

// Mouse rows: a new drag (mouse.same == 0) starts from fresh multipliers; mouseOffset[1] = r(x^t).
// One work-item's part of avbd_begin_mouse (also run by avbd_solve_group's whole step).
static inline void avbd_begin_mouse_item(const AvbdStepParams* p, const VbdMouse* mouse, __global const float4* x,
                                         __global const float4* xPrev, __global const float* mass,
                                         __global float* lambda, __global float* penalty,
                                         __global float4* mouseOffset) {
  float heaviest = 0.0f;
  for (uint k = 0; k < mouse->vertices; ++k)
    heaviest = fmax(heaviest, avbd_mass_of(x[mouse->ids[k]], mass[mouse->ids[k]]));
  avbd_begin_mouse_rows(p, mouse, heaviest, lambda, penalty);
  if (mouse->active)
    mouseOffset[1] =
        (float4)(vbd_attachment_offset(xPrev, mouse->ids, mouse->weights, mouse->slots, vbd_mouse_target(mouse)), 0.0f);
}

__kernel void avbd_begin_mouse(const AvbdStepParams p, const VbdMouse mouse, __global const float4* x,
                               __global const float4* xPrev, __global const float* mass, __global float* lambda,
                               __global float* penalty, __global float4* mouseOffset) {
  if (get_global_id(0) != 0) return;
  avbd_begin_mouse_item(&p, &mouse, x, xPrev, mass, lambda, penalty, mouseOffset);
}

// Pins and contacts of each vertex (beginSubstep, per-vertex part).
// Vertex i's pin and contact rows at the start of a substep (also run by avbd_solve_group's whole step).
static inline void avbd_begin_vertex(uint i, uint count, const AvbdStepParams* p, __global const float4* x,
                                     __global const float4* xPrev, __global const float4* v,
                                     __global const float* mass, __global float4* vertexRows, __global float* lambda,
                                     __global float* penalty, __global const float4* colliders) {
  __global float4* pins = vertexRows;
  __global AvbdContactFrame* frames = avbd_frames(vertexRows, count);
  avbd_begin_pin(i, x, xPrev, mass, p, pins, lambda, penalty);
  const float4 xi = x[i];
  const int movable = xi.w > 0.0f || avbd_hard_pinned(p, xi, pins[2 * i]);
  const float start = fmin(avbd_row_start(p, avbd_mass_of(xi, mass[i])), p->contactCap);
  avbd_begin_contacts(i, (p->terms & VBD_TERM_COLLISIONS) && movable, xPrev[i].xyz, v[i].xyz, start, p, colliders,
                      frames, lambda, penalty);
}

__kernel void avbd_begin_vertices(const uint count, const AvbdStepParams p, __global const float4* x,
                                  __global const float4* xPrev, __global const float4* v, __global const float* mass,
                                  __global float4* vertexRows, __global float* lambda,
                                  __global float* penalty, __global const float4* colliders) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  avbd_begin_vertex(i, count, &p, x, xPrev, v, mass, vertexRows, lambda, penalty, colliders);
}

// Body-contact rows at the start of a substep (beginSubstep, body part); with
// the toggle off (on == 0) every slot is cleared, as the CPU does.
__kernel void avbd_begin_body_contacts(const uint count, const uint on, const AvbdStepParams p,
                                       __global const uint* contacts, __global const float4* xPrev,
                                       __global uint4* prevIds, __global float* c0, __global float* lambda) {
  const uint s = get_global_id(0);
  if (s >= count) return;
  avbd_begin_body_slot(s, on, (__global const uint4*)contacts,
                       (__global const float4*)(contacts + TL_BC_NORMAL_BASE(p.contactSlots)),
                       (__global const float4*)(contacts + TL_BC_WEIGHTS_BASE(p.contactSlots)), xPrev, prevIds,
                       c0 + p.bodyRow, lambda, &p);
}

// Dual update of the body-contact rows after a primal iteration (Eq. 11).
__kernel void avbd_dual_body_contacts(const uint count, const AvbdStepParams p, __global const uint* contacts,
                                      __global const float4* x, __global const float* c0, __global float* lambda) {
  const uint s = get_global_id(0);
  if (s >= count) return;
  avbd_dual_body_slot(s, (__global const uint4*)contacts,
                      (__global const float4*)(contacts + TL_BC_NORMAL_BASE(p.contactSlots)),
                      (__global const float4*)(contacts + TL_BC_WEIGHTS_BASE(p.contactSlots)), x, c0 + p.bodyRow,
                      &p, lambda);
}

// Vertex i's initial guess (VBD Sec. 3.7; also run by avbd_solve_group's whole step).
static inline void avbd_init_guess_vertex(uint i, const AvbdStepParams* p, uint mode, __global float4* x,
                                          __global const float4* v, __global float4* vLast) {
  const float4 xi = x[i];
  const float3 vi = v[i].xyz;
  const float4 last = vLast[i];  // w: the history word (vbd_initial_guess.clh), set by the host on reset
  const float3 g = (float3)(p->gravity[0], p->gravity[1], p->gravity[2]);
  if (xi.w > 0.0f) {
    const int pins = vbd_history_pins(last.w);
    const float3 pivot = pins == VBD_PINS_SWING ? x[vbd_history_pivot(last.w)].xyz : (float3)(0.0f);  // a pin: not written
    x[i] = (float4)(vbd_initial_guess(mode, p->h, g, p->gravityLength, xi.xyz, vi, last.xyz,
                                      vbd_history_valid(last.w), pins, pivot),
                    xi.w);
  }
  vLast[i] = (float4)(vi, vbd_history_next(last.w));
}

__kernel void avbd_init_guess(const uint count, const AvbdStepParams p, const uint mode, __global float4* x,
                              __global const float4* v, __global float4* vLast) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  avbd_init_guess_vertex(i, &p, mode, x, v, vLast);
}

__kernel void avbd_mouse_offset(__global const float4* x, const VbdMouse mouse, __global float4* mouseOffset) {
  if (get_global_id(0) != 0) return;
  mouseOffset[0] = (float4)(vbd_attachment_offset(x, mouse.ids, mouse.weights, mouse.slots, vbd_mouse_target(&mouse)),
                            0.0f);
}

// Primal step of vertex i while colour p->color is solved (Eq. 4-6): VBD's
// inertia and Neo-Hookean terms plus the rows touching the vertex. A
// hard-pinned vertex keeps its model mass and is held by its pin rows; its y
// is x^t + h v + h^2 g (step_predict leaves it at x). The mouse offset r is
// read from mouseOffset[0] when p->mouseFromOffset (snapshot before the
// colour). Shared by the per-colour kernel and the one-group solve
// (avbd_group.clh). Returns -1 for a kinematic pin (nothing done), else 0;
// *outResidual = r_i (vbd_vertex_residual).
static inline int avbd_solve_vertex(
    uint i, const AvbdStepParams* p, const VbdMouse* mouse, __global const uint* topology,
    __global const float* restData, __global float4* x, __global const float4* xPrev,
    __global const float4* xInertial, __global const float4* v, __global const uint4* tets,
    __global const float4* DmInv, __global const uint2* edges, __global const float4* bodies,
    __global const float* lambda, __global const float* penalty, __global const float* c0,
    __global const float4* vertexRows, __global const float4* mouseOffset, __global const float4* snapshot,
    __global const uint* contacts, __global const uint* springTopology, __global const float4* springAnchor,
    __global const float* springStiffness, float* outResidual) {
  __global const float* mass = restData;
  __global const float4* pins = vertexRows;
  __global const AvbdContactFrame* frames = (__global const AvbdContactFrame*)(vertexRows + 2u * p->vertexCount);
  const float4 xw = x[i];
  const float w = xw.w;
  const float4 pin = pins[2 * i];
  const int pinnedHard = avbd_hard_pinned(p, xw, pin);
  if (!(w > 0.0f) && !pinnedHard) return -1;  // kinematic pin
  const float h = p->h;
  const uint terms = p->terms;
  const float m = w > 0.0f ? 1.0f / w : mass[i];
  const float3 xi = xw.xyz;
  const float3 xt = xPrev[i].xyz;
  const float3 g = (float3)(p->gravity[0], p->gravity[1], p->gravity[2]);
  const float3 y = w > 0.0f ? xInertial[i].xyz : avbd_pinned_inertial_target(xt, v[i].xyz, h, g);

  VbdSystem s = vbd_system_zero();
  vbd_add_inertia(m, h, xi, y, &s);
  if (terms & VBD_TERM_NEO_HOOKEAN)
    vbd_add_tets(i, x, tets, DmInv, restData + p->restVolumeBase, topology + p->tetBodyBase,
                 topology + p->vertexTetsOffsetsBase, topology + p->vertexTetsItemsBase, bodies, &s);
  if (terms & VBD_TERM_BENDING)  // an energy, as in VBD (no rows); the CPU's order
    vbd_add_hinges(i, x, (__global const uint4*)(topology + p->hingesBase),
                   (__global const float4*)(restData + p->hingeWeightsBase),
                   (__global const float4*)(restData + p->hingeRestBase), topology + p->hingeBodyBase,
                   topology + p->vertexHingesOffsetsBase, topology + p->vertexHingesItemsBase, bodies, &s);
  if (terms & VBD_TERM_MEMBRANE)
    vbd_add_membranes(i, p->safeguard, x, (__global const uint4*)(topology + p->membranesBase),
                      (__global const float4*)(restData + p->membraneDmInvBase), restData + p->membraneAreaBase,
                      topology + p->vertexMembranesOffsetsBase, topology + p->vertexMembranesItemsBase, bodies, &s);
  if (terms & VBD_TERM_ANCHOR_SPRINGS)  // an energy, as in VBD; springTopology: CSR offsets, then items
    vbd_add_anchor_springs(i, p->safeguard, x, springTopology, springTopology + p->vertexCount + 1u, springAnchor,
                           springStiffness, &s);
  if (terms & VBD_TERM_EDGES)
    avbd_add_edge_rows(i, p, x, edges, restData + p->restLengthBase, c0, lambda, penalty,
                       topology + p->vertexEdgesOffsetsBase, topology + p->vertexEdgesItemsBase, &s);
  if (terms & VBD_TERM_MOUSE) {
    const int slot = vbd_mouse_slot(i, mouse->ids, mouse->slots);
    if (slot >= 0) {
      const float3 r = p->mouseFromOffset ? mouseOffset[0].xyz
                                          : vbd_attachment_offset(x, mouse->ids, mouse->weights, mouse->slots,
                                                                  vbd_mouse_target(mouse));
      avbd_add_mouse_rows(r, mouse->weights[slot], mouse, p, mouseOffset[1].xyz, lambda, penalty, &s);
    }
  }
  if (pinnedHard) avbd_add_pin_rows(xi, pin.xyz, pins[2 * i + 1].xyz, p, i, lambda, penalty, &s);
  if (terms & VBD_TERM_COLLISIONS) avbd_add_vertex_contacts(i, xi - xt, p, frames, lambda, penalty, &s);
  // A hard-pinned vertex (w = 0) is held by its pin rows; body contacts see it as immovable.
  if ((terms & VBD_TERM_BODY_CONTACTS) && w > 0.0f)
    vbd_add_body_contacts(
        i, p->color, p->bodyStiffnessOverH2, p->bodyYEps, x, xPrev, snapshot, topology + p->colorOfBase,
        (__global const uint4*)contacts, (__global const float4*)(contacts + TL_BC_NORMAL_BASE(p->contactSlots)),
        (__global const float4*)(contacts + TL_BC_WEIGHTS_BASE(p->contactSlots)),
        contacts + TL_BC_VERTEX_COUNT_BASE(p->contactSlots),
        contacts + TL_BC_VERTEX_ITEMS_BASE(p->contactSlots, p->vertexCount), lambda + p->bodyRow, c0 + p->bodyRow,
        &s);
  *outResidual = vbd_vertex_residual(s.f, h, m);
  vbd_apply_step(x, i, xi, w, s, p->safeguard, p->determinantThreshold);
  return 0;
}

// The primal step of every vertex of colour [p.begin, p.begin + p.count).
__kernel void avbd_solve_vertices_color(
    const AvbdStepParams p, const VbdMouse mouse, __global const uint* topology, __global const float* restData,
    __global float4* x, __global const float4* xPrev, __global const float4* xInertial, __global const float4* v,
    __global const uint4* tets, __global const float4* DmInv, __global const uint2* edges,
    __global const float4* bodies, __global const float* lambda, __global const float* penalty,
    __global const float* c0, __global const float4* vertexRows,
    __global const float4* mouseOffset, __global const float4* snapshot, __global const uint* contacts,
    __global float* residual, __global const uint* springTopology, __global const float4* springAnchor,
    __global const float* springStiffness) {
  const uint k = get_global_id(0);
  if (k >= p.count) return;
  const uint i = topology[p.begin + k];  // vertexColorOrder
  float r = 0.0f;
  if (avbd_solve_vertex(i, &p, &mouse, topology, restData, x, xPrev, xInertial, v, tets, DmInv, edges, bodies, lambda,
                        penalty, c0, vertexRows, mouseOffset, snapshot, contacts, springTopology, springAnchor,
                        springStiffness, &r) < 0)
    return;
  if (p.terms & VBD_TERM_RESIDUAL) residual[i] = r;
}

// Dual update of the edge rows after a primal iteration (Eq. 11, 12, 16).
__kernel void avbd_dual_edges(const uint count, const AvbdStepParams p, __global const float4* x,
                              __global const uint2* edges, __global const float* restLength,
                              __global const float* c0, __global const float* edgeStiffness,
                              __global float* lambda, __global float* penalty) {
  const uint e = get_global_id(0);
  if (e >= count) return;
  avbd_dual_edge(e, x, edges, restLength, c0, edgeStiffness, &p, lambda, penalty);  // edge rows first
}

// Mouse rows (updateDuals, mouse part).
__kernel void avbd_dual_mouse(const AvbdStepParams p, const VbdMouse mouse, __global const float4* x,
                              __global float* lambda, __global float* penalty, __global const float4* mouseOffset) {
  if (get_global_id(0) != 0) return;
  const float3 r = vbd_attachment_offset(x, mouse.ids, mouse.weights, mouse.slots, vbd_mouse_target(&mouse));
  avbd_dual_mouse_rows(r, &mouse, &p, mouseOffset[1].xyz, lambda, penalty);
}

// Pin and contact rows of each vertex (updateDuals, per-vertex part).
__kernel void avbd_dual_vertices(const uint count, const AvbdStepParams p, __global const float4* x,
                                 __global const float4* xPrev, __global const float4* vertexRows, __global float* lambda,
                                 __global float* penalty) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  avbd_dual_vertex(i, x, xPrev, vertexRows, (__global const AvbdContactFrame*)(vertexRows + 2u * count), &p, lambda,
                   penalty);
}

#include "avbd_group.clh"
