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
};

struct LameParameters {
  float mu;      // shear modulus [Pa]
  float lambda;  // first Lamé parameter [Pa]
};

// Standard isotropic linear-elasticity conversion:
//   mu = E / (2 (1 + nu)),  lambda = E nu / ((1 + nu)(1 - 2 nu)).
LameParameters lameFromYoungPoisson(float youngsModulus, float poissonRatio);

}  // namespace tetlab
