// Augmented Vertex Block Descent (Giles et al. 2025, Algorithm 1) on the
// device; the CPU twin is core/cpu/avbd_solver.cpp + avbd_constraints.cpp.
// One substep (host script gpu/avbd_solver_gpu.cpp):
//
//   avbd_begin_edges, avbd_begin_mouse, avbd_begin_vertices,  stabilisation offsets C*(x^t),
//   avbd_begin_body_contacts          pin targets, contacts at x^t, warm start (Eq. 18, 19)
//   avbd_init_guess                   per vertex (VBD Sec. 3.7)
//   for iteration:
//     for vertex colour c:  [vbd_snapshot_color] [avbd_mouse_offset]  avbd_solve_vertices_color (c)   primal
//     avbd_dual_edges, avbd_dual_mouse, avbd_dual_vertices, [avbd_dual_body_contacts]     dual, Eq. 11, 12, 16
//
// Every row is owned by one work-item in each kernel (edges by their edge,
// pins and contacts by their vertex, body contacts by their slot, the mouse by
// one item), so no atomics. Body contacts (State::bodyContacts, one row per
// slot from bodyRow on, lambda only) read same-colour partners from the
// colour's snapshot, as VBD does (vbd_vertex.clh).
#pragma OPENCL FP_CONTRACT OFF

#include "avbd_rows.clh"

__kernel void avbd_reset_vertices(const uint count, __global const float4* x, __global float4* pinTarget,
                                  __global int* contactCollider) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 p = x[i];
  pinTarget[i] = (float4)(p.xyz, p.w > 0.0f ? 0.0f : 1.0f);
  for (uint k = 0; k < AVBD_CONTACT_ROWS; ++k) contactCollider[AVBD_CONTACT_ROWS * i + k] = -1;
}

// Edge rows: C*(x^t) and the warm start (beginSubstep, edges part).
__kernel void avbd_begin_edges(const uint count, __global const float4* x, __global const float4* xPrev,
                               __global const uint2* edges, __global const float* restLength,
                               __global const float* mass, __global const float* edgeStiffness,
                               __global float* edgeC0, __global float* lambda, __global float* penalty,
                               const float8 al, const uint4 hard) {
  const uint e = get_global_id(0);
  if (e >= count) return;
  const uint2 ed = edges[e];
  edgeC0[e] = length(xPrev[ed.x].xyz - xPrev[ed.y].xyz) - restLength[e];
  const float m = fmax(avbd_mass_of(x[ed.x], mass[ed.x]), avbd_mass_of(x[ed.y], mass[ed.y]));
  const float cap = hard.w ? al.s5 : fmin(al.s5, edgeStiffness[e]);
  avbd_warm_row(lambda, penalty, e, al, hard.w, avbd_row_start(al, m), cap);
}

// Mouse rows: a new drag (same == 0) starts from fresh multipliers.
//   mouse = (stiffness, maxForce, active, same); counts = (weighted slots, vertices for the mass, row, 0)
__kernel void avbd_begin_mouse(__global const float4* x, __global const float4* xPrev, __global const float* mass,
                               const uint8 mouseIds, const float8 mouseWeights, const float4 mouseTarget,
                               const float4 mouse, const uint4 counts, __global float* lambda,
                               __global float* penalty, __global float4* mouseC0, const float8 al,
                               const uint4 hard) {
  if (get_global_id(0) != 0) return;
  const uint id[8] = {mouseIds.s0, mouseIds.s1, mouseIds.s2, mouseIds.s3,
                      mouseIds.s4, mouseIds.s5, mouseIds.s6, mouseIds.s7};
  const float cap = hard.z ? al.s5 : fmin(al.s5, mouse.x);
  float heaviest = 0.0f;
  for (uint k = 0; k < counts.y && k < 8u; ++k) heaviest = fmax(heaviest, avbd_mass_of(x[id[k]], mass[id[k]]));
  const float start = fmin(avbd_row_start(al, heaviest), cap);
  for (uint r = 0; r < 3u; ++r) {
    if (mouse.w != 0.0f)
      avbd_warm_row(lambda, penalty, counts.z + r, al, hard.z, start, cap);
    else
      avbd_fresh_row(lambda, penalty, counts.z + r, start);
  }
  if (mouse.z != 0.0f)
    mouseC0[0] = (float4)(vbd_attachment_offset(xPrev, counts.x, mouseIds, mouseWeights, mouseTarget.xyz), 0.0f);
}

// Pins and contacts of each vertex (beginSubstep, per-vertex part).
//   layout = (mouse row, pin rows, contact rows, collisions on)
//   contact = (contact penalty cap, contactThickness, |g| h^2, 0)
__kernel void avbd_begin_vertices(
    const uint count, __global const float4* x, __global const float4* xPrev, __global const float4* v,
    __global const float* mass, __global float4* pinTarget, __global float4* pinC0, __global float4* contactNormal,
    __global float4* contactTangent, __global float4* contactBitangent, __global int* contactCollider,
    __global float* lambda, __global float* penalty, const float4 ground, __global const float4* colliders,
    const uint4 colliderCounts, const float4 contact, const uint4 layout, const float8 al, const uint4 hard) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 p = x[i];
  const float3 xt = xPrev[i].xyz;
  const bool pinned = !(p.w > 0.0f);
  float4 target = pinTarget[i];
  const uint pinRow = layout.y + 3 * i;
  const float pinStart = avbd_row_start(al, mass[i]);
  if (pinned && target.w == 0.0f) {
    target = (float4)(xt, 1.0f);
    for (uint r = 0; r < 3u; ++r) avbd_fresh_row(lambda, penalty, pinRow + r, pinStart);
  } else if (!pinned) {
    target.w = 0.0f;
  } else {
    for (uint r = 0; r < 3u; ++r) avbd_warm_row(lambda, penalty, pinRow + r, al, 1u, pinStart, al.s5);
  }
  pinTarget[i] = target;
  pinC0[i] = (float4)(xt - target.xyz, 0.0f);

  const bool movable = p.w > 0.0f || (hard.y && target.w != 0.0f);
  const float start = fmin(avbd_row_start(al, avbd_mass_of(p, mass[i])), contact.x);
  avbd_begin_contacts(i, layout.w && movable, xt, v[i].xyz, start, contact, layout.z + 3 * AVBD_CONTACT_ROWS * i, al,
                      hard.x, ground, colliders, colliderCounts, contactNormal, contactTangent, contactBitangent,
                      contactCollider, lambda, penalty);
}

// Body-contact rows at the start of a substep (beginSubstep, body part): the
// stabilisation offset c0 at x^t (Eq. 18) and the multiplier warm start
// (Eq. 19) while the slot keeps the same (p, a, b, c); with the toggle off
// (on == 0) every slot is cleared, as the CPU does.
__kernel void avbd_begin_body_contacts(const uint count, const uint on, __global const uint4* ids,
                                       __global const float4* normal, __global const float4* weights,
                                       __global const float4* xPrev, __global uint4* prevIds, __global float* c0,
                                       __global float* lambda, const uint bodyRow, const float8 al) {
  const uint s = get_global_id(0);
  if (s >= count) return;
  const uint4 id = on ? ids[s] : (uint4)(0xffffffffu);
  const uint4 prev = prevIds[s];
  const uint r = bodyRow + s;
  if (id.x == 0xffffffffu) {
    lambda[r] = 0.0f;
    c0[s] = 0.0f;
  } else {
    const int same = id.x == prev.x && id.y == prev.y && id.z == prev.z && id.w == prev.w;
    lambda[r] = same ? al.s0 * al.s1 * lambda[r] : 0.0f;
    const float4 n = normal[s];
    c0[s] = avbd_body_contact_c0(xPrev[id.x].xyz, xPrev[id.y].xyz, xPrev[id.z].xyz, xPrev[id.w].xyz, n.xyz,
                                 weights[s].xyz, n.w, al.s0);
  }
  prevIds[s] = id;
}

// Dual update of the body-contact rows after a primal iteration (Eq. 11).
__kernel void avbd_dual_body_contacts(const uint count, __global const uint4* ids, __global const float4* normal,
                                      __global const float4* weights, __global const float4* x,
                                      __global const float* c0, __global float* lambda, const uint bodyRow,
                                      const float kappaOverH2) {
  const uint s = get_global_id(0);
  if (s >= count) return;
  const uint4 id = ids[s];
  if (id.x == 0xffffffffu) return;
  const float4 xp = x[id.x], xa = x[id.y], xb = x[id.z], xc = x[id.w];
  const float4 n = normal[s];
  lambda[bodyRow + s] = avbd_body_contact_dual(xp.xyz, xa.xyz, xb.xyz, xc.xyz, xp.w, xa.w, xb.w, xc.w, n.xyz,
                                               weights[s].xyz, n.w, c0[s], kappaOverH2, lambda[bodyRow + s]);
}

__kernel void avbd_init_guess(const uint count, __global float4* x, __global const float4* v,
                              __global float4* vLast, const float4 gravity, const float h, const uint mode) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 p = x[i];
  const float3 vi = v[i].xyz;
  const float4 last = vLast[i];  // w = 1: history valid (zeroed by the host on reset)
  if (p.w > 0.0f)
    x[i] = (float4)(vbd_initial_guess(mode, h, gravity.xyz, gravity.w, p.xyz, vi, last.xyz, last.w > 0.0f), p.w);
  vLast[i] = (float4)(vi, 1.0f);
}

__kernel void avbd_mouse_offset(__global const float4* x, const uint8 mouseIds, const float8 mouseWeights,
                                const float4 mouseTarget, const uint mouseCount, __global float4* mouseOffset) {
  if (get_global_id(0) != 0) return;
  mouseOffset[0] = (float4)(vbd_attachment_offset(x, mouseCount, mouseIds, mouseWeights, mouseTarget.xyz), 0.0f);
}


// Primal step of every vertex of one colour (Eq. 4-6): VBD's inertia and
// Neo-Hookean terms plus the rows touching the vertex. A hard-pinned vertex
// keeps its model mass and is held by its pin rows.
//   gravity = (g, |g|)  (y of a hard-pinned vertex, which step_predict leaves at x)
//   options = (terms bits VBD_TERM_*, safeguard, mouse slot count, 1: read mouseOffset[0])
//   mouseParams = (stiffness, maxForce, determinantThreshold, 0)
//   bodyContact = (kappa / h^2, eps_v h, 1: body contacts on, 0); their rows from lambda[bodyRow],
//   partners of colour `color` from snapshot (vbd_add_body_contacts)
__kernel void avbd_solve_vertices_color(
    const uint begin, const uint count, __global const uint* vertexColorOrder, __global float4* x,
    __global const float4* xPrev, __global const float4* xInertial, __global const float4* v,
    __global const float* mass, __global const uint4* tets, __global const float4* DmInv,
    __global const float* restVolume, __global const uint* tetBody, __global const uint* vertexTetsOffsets,
    __global const uint* vertexTetsItems, __global const uint2* edges, __global const float* restLength,
    __global const uint* vertexEdgesOffsets, __global const uint* vertexEdgesItems, __global const uint* vertexBody,
    __global const float4* bodies, __global const float* lambda, __global const float* penalty,
    __global const float* edgeC0, __global const float4* pinTarget, __global const float4* pinC0,
    __global const float4* contactNormal, __global const float4* contactTangent,
    __global const float4* contactBitangent, __global const int* contactCollider, const float4 gravity,
    const uint4 options, const uint4 layout, const float8 al, const uint4 hard, const uint8 mouseIds,
    const float8 mouseWeights, const float4 mouseTarget, const float4 mouseParams,
    __global const float4* mouseOffset, __global const float4* mouseC0, const uint color, const float4 bodyContact,
    __global const float4* snapshot, __global const uint* colorOf, __global const uint4* bcIds,
    __global const float4* bcNormal, __global const float4* bcWeights, __global const uint* bcVertexCount,
    __global const uint* bcVertexItems, const uint bodyRow, __global const float* bodyC0,
    __global float* residual) {
  const uint k = get_global_id(0);
  if (k >= count) return;
  const uint i = vertexColorOrder[begin + k];
  const float4 p = x[i];
  const float w = p.w;
  const float4 pin = pinTarget[i];
  const bool pinnedHard = hard.y && !(w > 0.0f) && pin.w != 0.0f;
  if (!(w > 0.0f) && !pinnedHard) return;  // kinematic pin
  const float h = al.s6;
  const uint terms = options.x;
  const int safeguard = (int)options.y;
  const float m = w > 0.0f ? 1.0f / w : mass[i];
  const float3 xi = p.xyz;
  const float3 xt = xPrev[i].xyz;
  const float3 y = w > 0.0f ? xInertial[i].xyz : xt + h * v[i].xyz + (h * h) * gravity.xyz;

  VbdSystem s = vbd_system_zero();
  vbd_add_inertia(m, h, xi, y, &s);
  if (terms & VBD_TERM_NEO_HOOKEAN)
    vbd_add_tets(i, h, x, xPrev, tets, DmInv, restVolume, tetBody, vertexTetsOffsets, vertexTetsItems, bodies, &s);
  if (terms & VBD_TERM_EDGES)
    avbd_add_edge_rows(i, bodies[vertexBody[i]].z / h, safeguard, al, hard.w, x, xPrev, edges, restLength, edgeC0,
                       lambda, penalty, vertexEdgesOffsets, vertexEdgesItems, &s);
  if (terms & VBD_TERM_MOUSE) {
    const int slot = vbd_mouse_slot(i, options.z, mouseIds);
    if (slot >= 0) {
      const float3 r = options.w ? mouseOffset[0].xyz
                                 : vbd_attachment_offset(x, options.z, mouseIds, mouseWeights, mouseTarget.xyz);
      avbd_add_mouse_rows(r, vbd_mouse_weight(slot, mouseWeights), mouseParams.y, hard.z, al, mouseC0[0].xyz,
                          layout.x, lambda, penalty, &s);
    }
  }
  if (pinnedHard) avbd_add_pin_rows(xi, pin.xyz, pinC0[i].xyz, al.s0, layout.y + 3 * i, lambda, penalty, &s);
  for (uint k = 0; (terms & VBD_TERM_COLLISIONS) && k < AVBD_CONTACT_ROWS; ++k) {
    const uint c = AVBD_CONTACT_ROWS * i + k;
    if (contactCollider[c] >= 0)
      avbd_add_contact_rows(xi - xt, contactNormal[c], contactTangent[c], contactBitangent[c],
                            terms & VBD_TERM_FRICTION, al.s0, hard.x, layout.z + 3 * c, lambda, penalty, &s);
  }
  // A hard-pinned vertex (w = 0) is held by its pin rows; body contacts see it as immovable.
  if (bodyContact.z != 0.0f && w > 0.0f)
    vbd_add_body_contacts(i, color, bodyContact, x, xPrev, snapshot, colorOf, bcIds, bcNormal, bcWeights,
                          bcVertexCount, bcVertexItems, lambda + bodyRow, bodyC0, &s);
  if (terms & VBD_TERM_RESIDUAL) vbd_record_residual(residual, i, s.f, h, m);
  const float threshold = safeguard == VBD_SAFEGUARD_DETERMINANT ? mouseParams.z : 0.0f;
  vbd_apply_step(x, i, xi, w, s, threshold);
}

// Dual update of the edge rows after a primal iteration (Eq. 11, 12, 16).
__kernel void avbd_dual_edges(const uint count, __global const float4* x, __global const uint2* edges,
                              __global const float* restLength, __global const float* edgeC0,
                              __global const float* edgeStiffness, __global float* lambda, __global float* penalty,
                              const float8 al, const uint4 hard) {
  const uint e = get_global_id(0);
  if (e >= count) return;
  const float cap = hard.w ? al.s5 : fmin(al.s5, edgeStiffness[e]);
  const float C = avbd_edge_C(x, edges[e], restLength[e], edgeC0[e], al, hard.w);
  float l = lambda[e], k = penalty[e];
  avbd_update_row(C, hard.w ? 1 : 0, al.s2, cap, -AVBD_UNBOUNDED, AVBD_UNBOUNDED, &l, &k);
  lambda[e] = l;
  penalty[e] = k;
}

// Mouse rows (one work-item): the force is bounded in magnitude, so a hard
// mouse clamps its 3-vector multiplier and only ramps k while inside the bound.
//   mouse = (stiffness, maxForce, 0, 0); counts = (weighted slots, 0, row, 0)
__kernel void avbd_dual_mouse(__global const float4* x, const uint8 mouseIds, const float8 mouseWeights,
                              const float4 mouseTarget, const float4 mouse, const uint4 counts,
                              __global float* lambda, __global float* penalty, __global const float4* mouseC0,
                              const float8 al, const uint4 hard) {
  if (get_global_id(0) != 0) return;
  const uint row = counts.z;
  float3 C = vbd_attachment_offset(x, counts.x, mouseIds, mouseWeights, mouseTarget.xyz);
  const float cap = hard.z ? al.s5 : fmin(al.s5, mouse.x);
  const float3 k = (float3)(penalty[row], penalty[row + 1], penalty[row + 2]);
  if (hard.z) {
    C = C - al.s0 * mouseC0[0].xyz;
    const float3 raw = k * C + (float3)(lambda[row], lambda[row + 1], lambda[row + 2]);
    int clamped = 0;
    const float3 l = avbd_clamp_length(raw, mouse.y, &clamped);
    lambda[row] = l.x;
    lambda[row + 1] = l.y;
    lambda[row + 2] = l.z;
    if (clamped) return;
  }
  const float3 grown = fmin(k + al.s2 * fabs(C), (float3)(cap, cap, cap));
  penalty[row] = grown.x;
  penalty[row + 1] = grown.y;
  penalty[row + 2] = grown.z;
}

// Pin and contact rows of each vertex (updateDuals, per-vertex part).
//   layout = (mouse row, pin rows, contact rows, collisions on); contact.x = contact penalty cap
__kernel void avbd_dual_vertices(const uint count, __global const float4* x, __global const float4* xPrev,
                                 __global const float4* pinTarget, __global const float4* pinC0,
                                 __global const float4* contactNormal, __global const float4* contactTangent,
                                 __global const float4* contactBitangent, __global const int* contactCollider,
                                 __global float* lambda, __global float* penalty, const float4 contact,
                                 const uint4 layout, const uint friction, const float8 al, const uint4 hard) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 p = x[i];
  const float4 pin = pinTarget[i];
  if (hard.y && !(p.w > 0.0f) && pin.w != 0.0f) {
    const float3 C = p.xyz - pin.xyz - al.s0 * pinC0[i].xyz;
    const float Cr[3] = {C.x, C.y, C.z};
    for (uint r = 0; r < 3u; ++r) {
      const uint row = layout.y + 3 * i + r;
      float l = lambda[row], k = penalty[row];
      avbd_update_row(Cr[r], 1, al.s2, al.s5, -AVBD_UNBOUNDED, AVBD_UNBOUNDED, &l, &k);
      lambda[row] = l;
      penalty[row] = k;
    }
  }
  for (uint k = 0; layout.w && k < AVBD_CONTACT_ROWS; ++k) {
    const uint c = AVBD_CONTACT_ROWS * i + k;
    if (contactCollider[c] >= 0)
      avbd_dual_contact_rows(p.xyz - xPrev[i].xyz, contactNormal[c], contactTangent[c], contactBitangent[c].xyz,
                             friction, contact.x, al, hard.x, layout.z + 3 * c, lambda, penalty);
  }
}
