#pragma once
// Bending of cloth sheets: the isometric quadratic bending energy (IQB;
// Bergou et al. 2006, "A Quadratic Bending Model for Inextensible Surfaces",
// Sec. 3-4). Every interior edge of a sheet is a hinge (x0, x1 the edge,
// x2, x3 the corners opposite it) with the energy
//
//   E_e = D/2 |v|^2,   v = sum_j k_j x_j,   D = bending stiffness [N m]
//
// whose Hessian D k k^T (x) I is constant: no Hessian safeguard, no
// re-linearisation, and the same term in all four solvers (VBD/AVBD: the
// per-vertex gradient D k_c v and block D k_c^2 I; PBD/XPBD: the vector
// constraint C = v with compliance 1/D, shaders/cl/common/cloth_bending.clh).
//
// The weights, from the rest hinge unfolded into its plane (so a curved rest
// mesh bends back towards flat: IQB assumes a flat rest state):
//   K2 = 1/h2, K3 = 1/h3                  (h: heights of the opposite corners over the edge)
//   K1 = -(K2 p2 + K3 p3) / L, K0 = -(K1 + K2 + K3)   (p: their positions along the edge from x0)
// make sum K_j = 0 and sum K_j x_j = 0 at rest (translation invariance, flat
// rest), and |sum K_j x_j| = 2 sin(theta/2) when the hinge folds rigidly by
// theta. Then k_j = sqrt(c_e) K_j with c_e = L^2 / (A0 + A1). Why that scale:
// on a smoothly bent sheet v also sees the curvature ALONG the edge (it is
// not the dihedral angle), and with c_e = L^2 / (A0 + A1) the summed energy
// of an equilateral mesh wrapped on a cylinder is the plate's D/2 A / R^2 in
// every direction (tests/core/cloth_bending_test.cpp). Hinge energies are
// mesh-dependent (Wardetzky et al. 2007, "Discrete Quadratic Curvature
// Energies", Sec. 5): on the patch generator's right triangles bending along
// the grid axes is exact and along the diagonals 1.5x stiffer; jittered
// irregular meshes measure 1.4-2.1x (docs/solvers.md, "Cloth bending").
#include <cstdint>

#include "core/model/sim_model.h"

namespace tetlab {

struct Material;

// D of a cloth body's material: its bendingStiffness, or the plate's
// E h^3 / (12 (1 - nu^2)) when that is negative ("from the plate").
float clothBendingStiffness(const Material& material);
// E I of a strand body's material [N m^2]: its bendingStiffness, or the round
// rod's E pi d^4 / 64 when that is negative.
float strandBendingStiffness(const Material& material);

// Fills model.hinges / hingeWeights / hingeRest (0) / hingeBody (unordered) from the cloth
// triangles: each edge shared by exactly two triangles of one sheet. Edges of
// three or more triangles (non-manifold) and hinges with a degenerate
// triangle get no hinge; returns how many were skipped.
uint32_t collectClothHinges(SimModel& model);

// Appends a hinge for every interior point of a strand (a vertex with exactly
// two segments of one strand body): (before, point, after, point) with the
// discrete curvature vector
//   v = 2 / (l0 + l1) ((x0 - x1) / l0 + (x2 - x1) / l1)     (|v| = 1/R on a circle)
// scaled by sqrt(ds), ds = (l0 + l1) / 2, so that E = EI/2 |v - v_rest|^2 ds,
// the rod's EI/2 (k - k_rest)^2 per length. v_rest (hingeRest) is v at the
// rest positions: a strand keeps the shape it was made with (a curl, a wave).
// It is a world-frame vector: the rest shape does not turn with the strand,
// so a curl spun round by a large rotation of its root pulls back towards
// its original orientation (there is no material frame and no twist). The last
// slot repeats the point with weight 0 (hinges are four slots everywhere).
// Returns the points with more than two segments (a branch: no hinge).
uint32_t collectStrandHinges(SimModel& model);

// Bending energy [J] of the hinges at positions x (D or E I per body: bodyBendingStiffness).
double clothBendingEnergy(const SimModel& model, const glm::vec4* x);

}  // namespace tetlab
