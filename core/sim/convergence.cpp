#include "core/sim/convergence.h"

#include <cmath>
#include <cstdio>

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

double checkedEnergy(const EnergyReport& energy, SolverKind solver) {
  return solver == SolverKind::Pbd ? energy.kinetic + energy.potential : energy.dynamicTotal();
}

PbdSoftness checkPbdSoftness(SolverKind solver, bool unforced, const EnergyReport& energy, double start,
                             double scale) {
  PbdSoftness c;
  if (solver != SolverKind::Pbd || !unforced || !std::isfinite(energy.total())) return c;
  c.applies = true;
  c.excess = energy.total() - start;
  c.tolerance = kEnergyRiseTolerance * scale;
  c.soft = c.excess > c.tolerance;
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

double elasticCapacity(const SimModel& model) {
  double c = 0.0;
  for (size_t t = 0; t < model.tets.size(); ++t)
    c += 0.5 * double(model.materials[model.tetBody[t]].youngsModulus) * double(model.restVolume[t]);
  for (const glm::uvec3& tri : model.clothTriangles) {
    const Material& m = model.materials[model.vertexBody[tri.x]];
    const glm::vec3 a = model.restPositions[tri.x], b = model.restPositions[tri.y], d = model.restPositions[tri.z];
    const double area = 0.5 * double(glm::length(glm::cross(b - a, d - a)));
    c += 0.5 * double(m.youngsModulus) * double(m.thickness) * area;
  }
  for (const glm::uvec2& seg : model.strandSegments) {
    const Material& m = model.materials[model.vertexBody[seg.x]];
    const double section = 0.25 * 3.14159265358979 * double(m.thickness) * double(m.thickness);
    const double length = double(glm::length(model.restPositions[seg.y] - model.restPositions[seg.x]));
    c += 0.5 * double(m.youngsModulus) * section * length;
  }
  return c;
}

ExplosionCheck checkExplosion(double total, double start, double scale, bool forced, double capacity) {
  ExplosionCheck c;
  c.forced = forced;
  c.bound = kExplosionFactor * scale + (forced ? capacity : 0.0);
  c.exploded = !std::isfinite(total) || std::fabs(total - start) > c.bound;
  return c;
}

std::string explosionMessage(const ExplosionCheck& c, SolverKind solver, double total, double start, double scale) {
  // What `total` is (checkedEnergy): PBD is checked by its motion.
  const char* what = solver == SolverKind::Pbd ? "kinetic + gravitational energy" : "total energy";
  char message[512];
  if (c.forced)
    std::snprintf(message, sizeof(message),
                  "energy explosion: %s %.4g J is %.4g J from the start (%.4g J), more than %.0fx the "
                  "scene's energy scale (%.4g J) plus the elastic energy of straining every body 100 %% (%.4g J) "
                  "that the forcing could have put in. Try more substeps or iterations, a smaller dt or another "
                  "Hessian safeguard",
                  what, total, std::fabs(total - start), start, kExplosionFactor, scale,
                  c.bound - kExplosionFactor * scale);
  else
    std::snprintf(message, sizeof(message),
                  "energy explosion: %s %.4g J is more than %.0fx the scene's energy scale (%.4g J) away "
                  "from the start (%.4g J). Try more substeps or iterations, a smaller dt or another Hessian "
                  "safeguard",
                  what, total, kExplosionFactor, scale, start);
  return message;
}

}  // namespace tetlab
