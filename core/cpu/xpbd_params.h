#pragma once
// Tunable settings of Extended Position Based Dynamics (Macklin, Mueller,
// Chentanez 2016) with substepping (Macklin et al. 2019 "Small Steps in
// Physics Simulation": many substeps, one iteration). Compliances are derived
// from the material (docs/solvers.md): alpha = 1 / (stiffness measure).
namespace tetlab {

struct XpbdParams {
  // Multiplies every material-derived compliance [-]: 0 makes all elastic
  // constraints hard (infinitely stiff), 1 is the material.
  float complianceScale = 1.0f;
  // (Material::damping is not an XPBD setting: it is the Rayleigh pass after
  // every frame, the same for all four solvers, core/sim/rayleigh_damping.h.)
};

}  // namespace tetlab
