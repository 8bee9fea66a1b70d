#pragma once
// One physical material drives all four solvers (XPBD compliances, VBD/AVBD
// stiffnesses and PBD's stiffness are all derived from it), so a live solver
// switch compares solvers, not materials.
namespace tetlab {

struct Material {
  float youngsModulus = 1.0e6f;  // E [Pa]
  float poissonRatio = 0.3f;     // nu [-], 0 <= nu < 0.5
  float density = 1000.0f;       // rho [kg/m^3]
  float damping = 0.0f;          // Rayleigh stiffness-proportional coefficient k_d [s]
  // Cloth: sheet thickness h [m] (mass rho h A, membrane stiffness E h). Strand: diameter d [m]
  // (cross-section A = pi d^2 / 4: mass rho A per length, axial stiffness E A).
  float thickness = 1.0e-3f;
  // Cloth: bending stiffness D [N m] of the hinges (core/model/cloth_bending.h); negative:
  // the plate's E h^3 / (12 (1 - nu^2)). Strand: bending stiffness E I [N m^2]; negative: the
  // round rod's E pi d^4 / 64. 0: no bending (a sheet folds, a strand kinks freely).
  float bendingStiffness = -1.0f;
};

struct LameParameters {
  float mu;      // shear modulus [Pa]
  float lambda;  // first Lamé parameter [Pa]
};

// Standard isotropic linear-elasticity conversion:
//   mu = E / (2 (1 + nu)),  lambda = E nu / ((1 + nu)(1 - 2 nu)).
LameParameters lameFromYoungPoisson(float youngsModulus, float poissonRatio);

// Parameters of the stable Neo-Hookean energy in shaders/cl/common/neo_hookean.clh.
// Its linearisation at rest has Lame parameters (mu, lambda - mu), so to match
// the material's small-strain E and nu: mu = mu_lin, lambda = lambda_lin + mu_lin
// (Smith et al. 2018 Sec. 3.4). Used by XPBD (compliances 1/(mu V), 1/(lambda V))
// and VBD/AVBD (energy), so both see the same material.
struct NeoHookeanParameters {
  float mu;      // [Pa]
  float lambda;  // [Pa]
};
NeoHookeanParameters neoHookeanFromMaterial(const Material& material);

// Mass-spring stiffness of an edge [N/m] that reproduces Young's modulus E:
//   k_e = 6 E V_e / L_e^2,   V_e = SimModel::edgeVolume (1/6 of each incident tet's volume).
// Why 6: a spring network with k_e = c E V_e / L_e^2 under a uniform strain eps
// stores W = c E/2 <(n.eps n)^2> per unit volume; averaging over isotropic edge
// directions n (<n_i n_j n_k n_l> = (d_ij d_kl + d_ik d_jl + d_il d_jk)/15) gives
// Lame mu = lambda = c E/15 and so an effective Young's modulus c E/6 (with the
// spring network's fixed Poisson ratio 1/4). c = 6 makes it E.
float edgeSpringStiffness(float youngsModulus, float edgeVolume, float restLength);

// Cloth: the same formula with the sheet's "edge modulus" E h / 2 in place of
// E and edgeVolume holding the edge's AREA share A_e (1/3 of each incident
// triangle's rest area), i.e. k_e = 3 E h A_e / L_e^2. Why 3: the in-plane
// analogue of the argument above (<n_i n_j n_k n_l> = (d_ij d_kl + d_ik d_jl +
// d_il d_jk)/8 over in-plane directions) gives 2D Lame mu = lambda = c E h / 8,
// so a plane-stress Young's modulus c E / 3 and Poisson ratio 1/3; c = 3 makes
// it E. Exact for any mesh under a uniform dilation eps: every edge stretches
// by eps, and W = sum 1/2 k_e L_e^2 eps^2 = 1.5 E h A eps^2 = E h A eps^2 / (1 - nu).
// The thickness stays a live material field because it enters here, not the model.
float clothEdgeModulus(const Material& material);

// Strand: the segments' axial stiffness E A [N], A = pi d^2 / 4. Entered as the
// spring "modulus" with edgeVolume = L / 6 (the segment's length share), the
// formula above gives k_e = E A / L, the bar's own.
float strandAxialStiffness(const Material& material);
// Strand cross-section A = pi d^2 / 4 [m^2], d = the thickness (diameter).
double strandCrossSection(const Material& material);

}  // namespace tetlab
