#pragma once
// Energy report of a state: kinetic, gravitational potential and the elastic
// energy of the active constraint families, each the potential whose minimum
// the solvers seek (docs/solvers.md):
//   neoHookean   sum V0 psi(F)                (psi: shaders/cl/common/neo_hookean.clh, the VBD energy)
//   edges        sum 1/2 k_e (l - L)^2        (k_e: edgeSpringStiffness)
//   tetVolume    sum 1/2 k_V V0 (det F - 1)^2 (k_V: lambda with strainBased, else K = lambda + 2 mu / 3)
//   strainBased  sum 1/2 V0 (2 mu s_i C_i^2 + mu s_ij C_ij^2)   (pb_tet_moduli, constraints_tet.clh)
//   bending      sum D/2 |sum_j k_j x_j|^2    (cloth hinges, core/model/cloth_bending.h)
// Hard constraints (pins, contacts, tethers) store no energy.
#include "core/model/sim_model.h"
#include "core/sim/diagnostics.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"

namespace tetlab {

EnergyReport computeEnergy(const SimModel& model, const SolverSettings& settings, const State& state);

// Only the elastic part (same sum as EnergyReport::elastic).
double computeElasticEnergy(const SimModel& model, const SolverSettings& settings, const State& state);

}  // namespace tetlab
