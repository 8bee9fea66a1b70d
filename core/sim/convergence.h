#pragma once
// Telling the user when a step did not converge (issue 10 items 5 and 9).
//
// VBD and AVBD are block Gauss-Seidel on the implicit-Euler energy: with too
// few iterations a stiff body is much softer than its material and may even
// gain energy, and nothing in the picture says so. Their residual (docs/
// solvers_vbd_avbd.md) is a length: the RMS over free vertices of
// |f_i| h^2 / m_i, the step the inertia term alone would take to balance the
// force left over. The natural yardstick is the substep's own gravity step
// h^2 |g|: a leftover larger than a tenth of it means the solve ended far from
// the implicit-Euler answer (the stiff beam at E = 1e8, 10 x 10, keeps a
// residual of several h^2 g). PBD/XPBD residuals are constraint values of
// mixed units, so the check does not apply to them.
#include <string>

#include "core/model/sim_model.h"
#include "core/sim/diagnostics.h"
#include "core/sim/step_settings.h"

namespace tetlab {

// Under-converged when residual > kVbdResidualTolerance * h^2 |g|.
inline constexpr float kVbdResidualTolerance = 0.1f;

struct ConvergenceCheck {
  bool applies = false;         // VBD/AVBD with gravity and a measured residual
  bool underConverged = false;
  float residual = 0.0f;        // last iteration of the last substep [m]
  float tolerance = 0.0f;       // kVbdResidualTolerance h^2 |g| [m]
  float ratio() const { return tolerance > 0.0f ? residual / tolerance : 0.0f; }
};

// `substeps` is what the step ran (XPBD may run more than asked).
ConvergenceCheck checkConvergence(SolverKind solver, const StepSettings& step, int substeps, float residual);

// XPBD's convergence, from the energies of its compliant zero-at-rest
// constraints (EnergyReport::compliant*): with too few iterations per substep
// for the body's stiffness and size, Gauss-Seidel ends before the multipliers
// have built up the force the deformation implies, and the body answers as if
// softer than its material (the beam at E = 1e9, 10 x 4, sags like one of a
// few MPa). For a spring of stiffness k that answers a deformation d with the
// force of s k, the carried energy is s^2 k d^2 / 2 against k d^2 / 2
// converged, so the share of the material's force the multipliers carry is
// s = sqrt(carried / converged). Under-converged below
// kXpbdForceShareTolerance (the body more than ~10 % softer than its
// material). Measured only while the deformation's energy is at least
// kXpbdShareFloor of the scene's energy scale (a body at rest has none, and
// the ratio of two roundings means nothing).
inline constexpr double kXpbdForceShareTolerance = 0.9;
inline constexpr double kXpbdShareFloor = 1e-4;

struct XpbdForceShare {
  bool applies = false;
  bool underConverged = false;
  double share = 1.0;  // sqrt(carried / converged) [-]
};

XpbdForceShare checkXpbdForceShare(const EnergyReport& energy, double energyScale);

// Energy of an unforced run (no mouse, no moving colliders or pins) may not
// rise: gravity and elasticity conserve it, and damping (drag, material
// damping) can only remove it, so a damped run is held to the same bound. An
// implicit or position-based step that adds energy is under-converged or
// unstable. Flagged when the total rises above its start by more than
// kEnergyRiseTolerance of the scene's energy scale (its weight times its
// size: a 1 % rise is a body jumping 1 % of its size). A rise of more than
// kEnergyBlowUpFactor tolerances, i.e. more than the scene's whole energy
// scale, is a blow-up that happens to stay finite, reported like a NaN: XPBD
// below its shear substep limit climbs 5e5 tolerances and jitters, while an
// under-converged but bounded VBD beam (10 x 4) gained about 10 before held
// bodies started from inertia, none since (docs/solvers_vbd_avbd.md, 'The
// energy flag').
inline constexpr double kEnergyRiseTolerance = 0.01;
inline constexpr double kEnergyBlowUpFactor = 100.0;

struct EnergyRiseCheck {
  bool applies = false;  // the scene is unforced
  bool rising = false;
  bool blowUp = false;     // rise > kEnergyBlowUpFactor * tolerance
  double rise = 0.0;       // total - start [J]
  double tolerance = 0.0;  // kEnergyRiseTolerance * scale [J]
};

EnergyRiseCheck checkEnergyRise(bool unforced, double total, double start, double scale);

// The energy the rise and explosion checks hold against the start's
// dynamicTotal(). PBD keeps no multipliers, and under-converged it is softer
// than its material (a stiffness fraction per iteration, docs/solvers.md 'PBD
// stiffness from the material'): the material's energy of the shape it leaves
// is not energy its constraints store or can give back. The chain preset on
// PBD at E = 1e8 (20 x 20, a 1000:1 mass ratio): the shape's material energy
// reaches 300 J while kinetic + gravitational energy never exceeds the start's
// total (53.86 J against 54.36 J) and the kinetic stays below 2.3 J, so the
// full total called a swinging chain a blow-up. For PBD the checks take its
// motion, kinetic + gravitational: energy a step adds shows there, and it may
// not exceed the start's total since elastic energy is never negative. Every
// other solver: dynamicTotal().
double checkedEnergy(const EnergyReport& energy, SolverKind solver);

// PBD's softness, the rise the checks no longer see: the shape's material
// energy (the full total) above the start while the motion stays within it,
// flagged above the rise tolerance. Does not apply to other solvers (XPBD's
// own measure is the force share above; VBD/AVBD have their residual).
struct PbdSoftness {
  bool applies = false;  // PBD, unforced
  bool soft = false;     // excess > tolerance
  double excess = 0.0;   // total - start [J]
  double tolerance = 0.0;
};

PbdSoftness checkPbdSoftness(SolverKind solver, bool unforced, const EnergyReport& energy, double start, double scale);

// A run whose total energy moves more than kExplosionFactor times the scene's
// energy scale (below) from its start has exploded, even while finite (the
// window pauses it and offers the last good state; `tetlab run` exits 2).
// When something does work on the bodies (keyed pins, the mouse, wind, force
// fields, a gravity edit) the energy it puts in is legitimate and may be far
// above the weight-times-size scale: a 1 m steel-stiff beam (E = 1e9) twisted
// half a turn by its keyed end stores ~1e4 J, 100x its 158 J scale
// (torsion U = G J theta^2 / (2 L)). So a forced run is also allowed the
// bodies' elastic capacity, the energy of straining every element 100 %
// (sum of E V / 2 over tets, E h A / 2 over cloth triangles, E A L / 2 over
// strand segments): a real blow-up passes it within frames, a twist does not.
inline constexpr double kExplosionFactor = 100.0;

struct ExplosionCheck {
  bool exploded = false;
  double bound = 0.0;  // allowed |total - start| [J]
  bool forced = false;
};

ExplosionCheck checkExplosion(double total, double start, double scale, bool forced, double elasticCapacity);
double elasticCapacity(const SimModel& model);
// The one-line report of an explosion (what, the numbers, what to try);
// `total` is checkedEnergy(energy, solver), named as such.
std::string explosionMessage(const ExplosionCheck& check, SolverKind solver, double total, double start, double scale);

// The scene's energy scale [J]: its weight times its size plus 1 m^2/s^2 per
// kg (so a weightless scene still has one), plus the start energy itself.
// Used by the explosion check and the energy-rise check.
double sceneEnergyScale(const SimModel& model, const StepSettings& step, const EnergyReport& start);

}  // namespace tetlab
