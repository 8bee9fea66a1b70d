#include "core/sim/convergence.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace tetlab {

ConvergenceCheck checkConvergence(SolverKind solver, const StepSettings& step, int substeps, float residual) {
  ConvergenceCheck c;
  const float g = glm::length(step.gravity);
  if ((solver != SolverKind::Vbd && solver != SolverKind::Avbd) || !(g > 0.0f)) return c;
  const float h = step.dt / float(substeps > 0 ? substeps : 1);
  c.applies = true;
  c.residual = residual;
  c.tolerance = kVbdResidualTolerance * h * h * g;
  // A non-finite residual (forces overflowed while positions stayed finite) is the worst case, not "no data".
  c.underConverged = !(residual <= c.tolerance);
  return c;
}

XpbdForceShare checkXpbdForceShare(const EnergyReport& energy, double energyScale) {
  XpbdForceShare c;
  if (!energy.compliantMeasured || !(energy.compliantConverged >= kXpbdShareFloor * energyScale) ||
      !std::isfinite(energy.compliantConverged))
    return c;
  c.applies = true;
  c.share = std::sqrt(std::max(energy.compliantCarried, 0.0) / energy.compliantConverged);
  // A non-finite carried energy (multipliers overflowed) is the worst case, not "no data".
  c.underConverged = !(c.share >= kXpbdForceShareTolerance);
  return c;
}

EnergyRiseCheck checkEnergyRise(bool unforced, double total, double start, double scale) {
  EnergyRiseCheck c;
  if (!unforced || !std::isfinite(total)) return c;
  c.applies = true;
  c.rise = total - start;
  c.tolerance = kEnergyRiseTolerance * scale;
  c.rising = c.rise > c.tolerance;
  c.blowUp = c.rise > kEnergyBlowUpFactor * c.tolerance;
  return c;
}

double sceneEnergyScale(const SimModel& model, const StepSettings& step, const EnergyReport& start) {
  double mass = 0.0;
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    mass += model.mass[i];
    lo = glm::min(lo, model.restPositions[i]);
    hi = glm::max(hi, model.restPositions[i]);
  }
  const double size = model.vertexCount() > 0 ? double(glm::length(hi - lo)) : 0.0;
  const double g = glm::length(step.gravity);
  return mass * (g * size + 1.0) + std::fabs(start.total()) + start.kinetic;
}

}  // namespace tetlab
