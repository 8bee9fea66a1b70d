// XPBD substep (Macklin et al. 2016 Alg. 1): x = inertial prediction, lambda =
// 0, then iterations of the shared projection with the XPBD multiplier step.
// With StepSettings::substeps large and iterations = 1 this is the "small
// steps" scheme (Macklin et al. 2019), which the stepper already provides.
#include "core/cpu/xpbd_solver.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/cpu/position_based_solver.h"
#include "core/sim/solver_settings.h"

namespace tetlab {
namespace {

class XpbdSolver final : public PositionBasedSolver {
 public:
  SolverKind kind() const override { return SolverKind::Xpbd; }

 private:
  ProjectionMode mode() const override { return ProjectionMode::Xpbd; }
  bool freshMultipliers() const override { return true; }  // XPBD Alg. 1: lambda = 0 every substep
  void afterIterations(const SimModel& model, const SolverSettings& settings, float h, StepDiagnostics& out) override {
    if (ctx_.families.neoHookean && out.warning.empty()) {
      const float limit = xpbdShearLimitSubstep(model);
      if (h > limit * 1.0001f)
        out.warning = "XPBD Neo-Hookean: substep " + std::to_string(h) + " s exceeds the explicit shear limit " +
                      std::to_string(limit) + " s of this mesh and material; use at least " +
                      std::to_string(int(std::ceil(settings.step.dt / limit))) +
                      " substeps, a softer material, or strain-based constraints";
    }
  }
};

}  // namespace

namespace {

// Smallest altitude of tet t: 3 V / (largest face area).
float minAltitude(const SimModel& model, uint32_t t) {
  const glm::uvec4 tet = model.tets[t];
  const glm::vec3 p[4] = {model.restPositions[tet.x], model.restPositions[tet.y], model.restPositions[tet.z],
                          model.restPositions[tet.w]};
  static constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  float maxArea = 0.0f;
  for (const auto& f : kFaces)
    maxArea = std::max(maxArea, 0.5f * glm::length(glm::cross(p[f[1]] - p[f[0]], p[f[2]] - p[f[0]])));
  return maxArea > 0.0f ? 3.0f * model.restVolume[t] / maxArea : 0.0f;
}

// ulp of a float of magnitude r (r >= 1e-30).
float ulpAt(float r) { return std::nextafter(r, INFINITY) - r; }

}  // namespace

float xpbdShearLimitSubstep(const SimModel& model) {
  std::vector<float> minSize(model.materials.size(), INFINITY);
  for (uint32_t t = 0; t < model.tetCount(); ++t) {
    const uint32_t b = model.tetBody[t];
    minSize[b] = std::min(minSize[b], minAltitude(model, t));
  }
  float limit = INFINITY;
  for (size_t b = 0; b < model.materials.size(); ++b) {
    const Material& m = model.materials[b];
    const float cs = std::sqrt(lameFromYoungPoisson(m.youngsModulus, m.poissonRatio).mu / m.density);
    if (cs > 0.0f && std::isfinite(minSize[b])) limit = std::min(limit, kXpbdShearLimitFactor * minSize[b] / cs);
  }
  return limit;
}

XpbdSubstepPlan planXpbdSubsteps(const SimModel& model, const SolverSettings& settings, bool raise) {
  XpbdSubstepPlan plan;
  plan.asked = std::max(settings.step.substeps, 1);
  plan.used = plan.asked;
  if (settings.solver != SolverKind::Xpbd || !settings.step.constraints.neoHookean) return plan;
  const float limit = xpbdShearLimitSubstep(model);
  if (!(limit > 0.0f) || !std::isfinite(limit)) return plan;
  plan.limit = limit;
  plan.needed = int(std::ceil(settings.step.dt / limit));
  float r = 1.0f;  // coordinates below 1 m share the ulp of 1 m (a conservative floor)
  for (const glm::vec3& p : model.restPositions) r = std::max({r, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
  const double g = glm::length(settings.step.gravity);
  const double dt = settings.step.dt;
  if (g > 0.0) {
    const double precisionCap = std::floor(g * dt * dt / (10.0 * double(ulpAt(r))));
    plan.cap = int(std::min(precisionCap, double(kXpbdMaxAutoSubsteps)));
  }
  plan.cap = std::max(plan.cap, 1);
  if (raise && plan.needed > plan.asked) plan.used = std::max(plan.asked, std::min(plan.needed, plan.cap));
  return plan;
}

std::string XpbdSubstepPlan::notice() const {
  if (!raised() && !(needed > used)) return {};
  std::string s = "XPBD: ";
  if (raised())
    s += "running " + std::to_string(used) + " substeps (asked " + std::to_string(asked) + ")";
  else
    s += std::to_string(used) + " substeps";
  s += "; its Neo-Hookean shear needs h <= " + std::to_string(limit) + " s, i.e. " + std::to_string(needed) +
       " substeps";
  if (capped())
    s += ", but the raise stops at " + std::to_string(cap) +
         " (beyond it float positions cannot resolve the step): expect an unstable run; use a softer material, "
         "a smaller dt or VBD/AVBD";
  else if (needed > used)
    s += ": expect an unstable run (raise the substeps, soften the material, or use VBD/AVBD)";
  return s;
}

XpbdElasticModel xpbdElasticModel(const ConstraintToggles& on) {
  if (on.neoHookean && !on.strainBased) return XpbdElasticModel::NeoHookean;
  if (on.strainBased && on.tetVolume && !on.neoHookean) return XpbdElasticModel::StrainBased;
  if (on.neoHookean || on.strainBased || on.tetVolume) return XpbdElasticModel::Custom;
  return XpbdElasticModel::None;
}

const char* xpbdElasticModelName(XpbdElasticModel model) {
  switch (model) {
    case XpbdElasticModel::NeoHookean: return "Neo-Hookean pair";
    case XpbdElasticModel::StrainBased: return "strain-based + volume";
    case XpbdElasticModel::Custom: return "custom mix";
    case XpbdElasticModel::None: return "no tet constraints";
  }
  return "?";
}

void selectXpbdElasticModel(XpbdElasticModel model, ConstraintToggles& on) {
  if (model == XpbdElasticModel::NeoHookean) {
    on.neoHookean = true;
    on.strainBased = on.tetVolume = false;
  } else if (model == XpbdElasticModel::StrainBased) {
    on.neoHookean = false;
    on.strainBased = on.tetVolume = true;
  }
}

std::unique_ptr<Solver> makeXpbdSolver() { return std::make_unique<XpbdSolver>(); }

}  // namespace tetlab
