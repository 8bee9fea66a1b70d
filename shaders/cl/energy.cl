// Energy of the device state, every frame, with a few bytes read back
// (host script gpu/solvers/device_energy.cpp; the CPU twin is core/sim/energy.cpp,
// which evaluates every term with the same .clh functions).
//
//   energy_vertices  per vertex:  (1/2 m |v|^2, -m g.x)          -> partials[vertexOffset + group]
//   energy_tets      per tet:     V0 psi(F), volume, strain terms -> partials[tetOffset + group]
//   energy_edges     per edge:    1/2 k_e (l - L)^2               -> partials[edgeOffset + group]
//   energy_hinges    per hinge:   D/2 |sum_j k_j x_j|^2 (cloth bending) -> partials[hingeOffset + group]
//
// XPBD: the compliant terms (volume, strain, edges) are also measured with the
// last substep's multipliers (EnergyReport::compliant*).
//
// Each kernel runs a FIXED number of groups (the host caps it, so the read is
// small whatever the mesh size): a work-item first adds its grid-strided items
// in order, then the group adds its ENERGY_GROUP_SIZE values as a binary tree
// in local memory and writes one float4. The host adds the partials in double.
// Rounding (float): sequential part (k - 1) u, tree log2(L) u, relative to the
// sum of |terms|; tests/gpu/device_energy_test.cpp derives its tolerance from it.
//
// partial float4: energy_vertices (kinetic, gravitational potential, 0, 0) [J];
// energy_tets, energy_edges (elastic, compliant shape, converged, carried) [J].
#pragma OPENCL FP_CONTRACT OFF

#include "common/compat_cl.clh"
#include "common/cloth_bending.clh"
#include "common/cloth_membrane.clh"
#include "common/constraints_tet.clh"
#include "common/neo_hookean.clh"
#include "common/xpbd_update.clh"
#include "group_sum.clh"

#ifndef ENERGY_GROUP_SIZE
#define ENERGY_GROUP_SIZE 128  // a power of two; the host passes the one it launches with
#endif

// Bits of `terms` (gpu/solvers/device_energy.h EnergyTerm).
#define ENERGY_TERM_NEO_HOOKEAN 1u
#define ENERGY_TERM_TET_VOLUME 2u
#define ENERGY_TERM_STRAIN 4u

// One float4 per work-item summed over the group; work-item 0 writes the total.
static void energy_group_sum(__local float4* scratch, float4 value, __global float4* out) {
  const float4 total = group_sum_float4(scratch, value, ENERGY_GROUP_SIZE);
  if (get_local_id(0) == 0) *out = total;
}

// Kinetic 1/2 m |v|^2 and gravitational -m g.x; mass is the lumped mass, also
// of pinned vertices (x.w = 0), as on the host.
__kernel __attribute__((reqd_work_group_size(ENERGY_GROUP_SIZE, 1, 1))) void energy_vertices(
    const uint count, __global const float4* x, __global const float4* v, __global const float* mass,
    const float4 gravity, __global float4* partials, const uint partialOffset) {
  __local float4 scratch[ENERGY_GROUP_SIZE];
  float kinetic = 0.0f, potential = 0.0f;
  for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
    const float m = mass[i];
    const float3 vi = v[i].xyz;
    kinetic += 0.5f * m * dot(vi, vi);
    potential -= m * dot(gravity.xyz, x[i].xyz);
  }
  energy_group_sum(scratch, (float4)(kinetic, potential, 0.0f, 0.0f), partials + partialOffset + get_group_id(0));
}

// XPBD's compliant constraints measured with the last substep's multipliers
// (EnergyReport::compliant*, xpbd_compliant_energies); the kernels' lambda
// argument is any valid buffer, unread, when measure == 0.
typedef struct {
  uint measure;          // 1: XPBD with its multipliers of this layout on the device
  float invH2;           // 1 / h^2 of the substep the multipliers belong to
  float complianceScale; // XpbdParams::complianceScale (> 0 when measure)
} EnergyProbe;

// Adds one compliant constraint of material energy `shape` = 1/2 k C^2 to
// acc = (elastic, shape, converged, carried).
static float4 energy_add_compliant(float4 acc, float shape, float C, float k, __global const float* lambda,
                                   uint slot, EnergyProbe probe) {
  acc.x += shape;
  if (probe.measure) {
    float converged, carried;
    xpbd_compliant_energies(C, probe.complianceScale / k, lambda[slot], probe.invH2, &converged, &carried);
    acc.y += shape;
    acc.z += converged;
    acc.w += carried;
  }
  return acc;
}

// Elastic energy of one tet, term by term as computeElasticEnergy adds them,
// as (elastic, compliant shape, converged, carried) [J].
// energyBodies per body: [2b] = (NH mu, NH lambda, Lame lambda, bending) [Pa],
// [2b + 1] = (E, Lame mu [Pa], membrane mu_h, lambda_h [N/m]). volumeSlot / strainSlot: the tet's
// multipliers in State::lambda (lambdaLayout).
// strainRest: xyz the stretch targets, w 1 when strainFrame (the material
// axes as columns) applies (pb_tet_constraints' frame: F_m = F R).
static float4 energy_of_tet(Mat3 F, float V0, float4 b0, float4 b1, uint terms, float4 stretchScale,
                            float4 shearScale, float4 strainRest, Mat3 strainFrame, __global const float* lambda,
                            uint volumeSlot, uint strainSlot, EnergyProbe probe) {
  float4 e = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
  if (terms & ENERGY_TERM_NEO_HOOKEAN) e.x += V0 * nh_energy_density(F, b0.x, b0.y);  // Smith et al. 2018 Eq. 14
  const PbTetModuli k = pb_tet_moduli(b1.y, b0.z, terms & ENERGY_TERM_STRAIN);
  if ((terms & ENERGY_TERM_TET_VOLUME) && k.volume > 0.0f) {
    const float c = mat3_det_minus_one_of_g(mat3_minus_identity(F));  // Mueller et al. 2007 Sec. 4.4, V = V0 det F
    e = energy_add_compliant(e, 0.5f * k.volume * V0 * c * c, c, k.volume * V0, lambda, volumeSlot, probe);
  }
  if (terms & ENERGY_TERM_STRAIN) {  // Mueller et al. 2014 Sec. 4
    Mat3 dCdF;
    const Mat3 Fm = strainRest.w > 0.0f ? mat3_mul(F, strainFrame) : F;
    const float stretch[3] = {stretchScale.x, stretchScale.y, stretchScale.z};
    const float rest[3] = {strainRest.x, strainRest.y, strainRest.z};
    for (int i = 0; i < 3; ++i) {
      const float c = strain_stretch_constraint(Fm, i, rest[i], &dCdF);
      const float ks = V0 * (k.stretch * stretch[i]);
      e = energy_add_compliant(e, 0.5f * ks * c * c, c, ks, lambda, strainSlot + (uint)i, probe);
    }
    const float shear[3] = {shearScale.x, shearScale.y, shearScale.z};
    const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int p = 0; p < 3; ++p) {
      const float c = strain_shear_constraint(Fm, pairs[p][0], pairs[p][1], &dCdF);
      const float ksh = V0 * (k.shear * shear[p]);
      e = energy_add_compliant(e, 0.5f * ksh * c * c, c, ksh, lambda, strainSlot + 3u + (uint)p, probe);
    }
  }
  return e;
}

__kernel __attribute__((reqd_work_group_size(ENERGY_GROUP_SIZE, 1, 1))) void energy_tets(
    const uint count, __global const float4* x, __global const uint4* tets, __global const float4* DmInv,
    __global const float* restVolume, __global const uint* tetBody, __global const float4* energyBodies,
    const uint terms, const float4 stretchScale, const float4 shearScale, const float4 strainRest,
    const float4 strainFrameX, const float4 strainFrameY, const float4 strainFrameZ, __global const float* lambda,
    const uint lambdaTetVolume, const uint lambdaStrain, const EnergyProbe probe, __global float4* partials,
    const uint partialOffset) {
  const Mat3 strainFrame = mat3_cols(strainFrameX.xyz, strainFrameY.xyz, strainFrameZ.xyz);
  __local float4 scratch[ENERGY_GROUP_SIZE];
  float4 sum = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
  for (uint t = get_global_id(0); t < count; t += get_global_size(0)) {
    const uint4 tet = tets[t];
    const Mat3 Dm = mat3_cols(DmInv[3 * t].xyz, DmInv[3 * t + 1].xyz, DmInv[3 * t + 2].xyz);
    const Mat3 F = tet_deformation_gradient(x[tet.x].xyz, x[tet.y].xyz, x[tet.z].xyz, x[tet.w].xyz, Dm);
    const uint b = tetBody[t];
    sum += energy_of_tet(F, restVolume[t], energyBodies[2 * b], energyBodies[2 * b + 1], terms, stretchScale,
                         shearScale, strainRest, strainFrame, lambda, lambdaTetVolume + t, lambdaStrain + 6u * t,
                         probe);
  }
  energy_group_sum(scratch, sum, partials + partialOffset + get_group_id(0));
}

// Mass-spring energy 1/2 k_e (l - L)^2 with k_e = edgeSpringStiffness (host, per edge).
// Same partial layout as energy_tets.
__kernel __attribute__((reqd_work_group_size(ENERGY_GROUP_SIZE, 1, 1))) void energy_edges(
    const uint count, __global const float4* x, __global const uint2* edges, __global const float* restLength,
    __global const float* energyEdgeStiffness, __global const float* lambda, const uint lambdaEdges,
    const EnergyProbe probe, __global float4* partials, const uint partialOffset) {
  __local float4 scratch[ENERGY_GROUP_SIZE];
  float4 sum = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
  for (uint e = get_global_id(0); e < count; e += get_global_size(0)) {
    const uint2 edge = edges[e];
    const float stretch = length(x[edge.x].xyz - x[edge.y].xyz) - restLength[e];
    const float k = energyEdgeStiffness[e];
    sum = energy_add_compliant(sum, 0.5f * k * stretch * stretch, stretch, k, lambda, lambdaEdges + e, probe);
  }
  energy_group_sum(scratch, sum, partials + partialOffset + get_group_id(0));
}

// Cloth bending D/2 |v|^2 per hinge (common/cloth_bending.clh), D from
// energyBodies[2 b].w; XPBD measures its three components C_d = v_d.
__kernel __attribute__((reqd_work_group_size(ENERGY_GROUP_SIZE, 1, 1))) void energy_hinges(
    const uint count, __global const float4* x, __global const uint4* hinges, __global const float4* hingeWeights,
    __global const float4* hingeRest, __global const uint* hingeBody, __global const float4* energyBodies, __global const float* lambda,
    const uint lambdaHinges, const EnergyProbe probe, __global float4* partials, const uint partialOffset) {
  __local float4 scratch[ENERGY_GROUP_SIZE];
  float4 sum = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
  for (uint h = get_global_id(0); h < count; h += get_global_size(0)) {
    const uint4 id = hinges[h];
    const float D = energyBodies[2u * hingeBody[h]].w;
    if (!(D > 0.0f)) continue;
    const float3 v = hinge_residual(x[id.x].xyz, x[id.y].xyz, x[id.z].xyz, x[id.w].xyz, hingeWeights[h], hingeRest[h]);
    const float c[3] = {v.x, v.y, v.z};
    for (int d = 0; d < 3; ++d)
      sum = energy_add_compliant(sum, 0.5f * D * c[d] * c[d], c[d], D, lambda, lambdaHinges + 3u * h + (uint)d, probe);
  }
  energy_group_sum(scratch, sum, partials + partialOffset + get_group_id(0));
}

// Cloth membranes A (mu_h |E|^2 + lambda_h / 2 tr(E)^2) (common/cloth_membrane.clh)
// as the sum of XPBD's three strain constraints' energies, (mu_h, lambda_h)
// from energyBodies[2 b + 1].zw.
__kernel __attribute__((reqd_work_group_size(ENERGY_GROUP_SIZE, 1, 1))) void energy_membranes(
    const uint count, __global const float4* x, __global const uint4* membranes, __global const float4* membraneDmInv,
    __global const float* membraneArea, __global const float4* energyBodies, __global const float* lambda,
    const uint lambdaMembranes, const EnergyProbe probe, __global float4* partials, const uint partialOffset) {
  __local float4 scratch[ENERGY_GROUP_SIZE];
  float4 sum = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
  for (uint m = get_global_id(0); m < count; m += get_global_size(0)) {
    const uint4 id = membranes[m];
    const float4 b1 = energyBodies[2u * id.w + 1u];
    float C[3];
    Mat32 G[3];
    membrane_strain_constraints(membrane_F(x[id.x].xyz, x[id.y].xyz, x[id.z].xyz, membraneDmInv[m]), C, G);
    for (int k = 0; k < 3; ++k) {
      const float stiffness = membrane_constraint_stiffness(k, b1.z, b1.w, membraneArea[m]);
      sum = energy_add_compliant(sum, 0.5f * stiffness * C[k] * C[k], C[k], stiffness, lambda,
                                 lambdaMembranes + 3u * m + (uint)k, probe);
    }
  }
  energy_group_sum(scratch, sum, partials + partialOffset + get_group_id(0));
}
