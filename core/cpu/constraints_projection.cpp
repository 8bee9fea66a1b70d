// Shared scaffolding of the position-based solvers: the per-constraint
// multiplier step (the only place PBD and XPBD differ) and the iteration loop.
#include "core/cpu/constraints_projection.h"

#include <algorithm>
#include <cmath>

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/xpbd_update.clh"

namespace tetlab {

ProjectionFamilies projectionFamilies(ProjectionMode mode, const ConstraintToggles& t) {
  ProjectionFamilies f;
  f.edges = t.edges;
  f.tetVolume = t.tetVolume;
  f.strainBased = t.strainBased;
  f.tethers = t.tethers;
  f.collisions = t.collisions;
  if (mode == ProjectionMode::Xpbd) {
    f.neoHookean = t.neoHookean;
  } else if (t.neoHookean) {
    f.strainBased = true;  // PBD's zero-rest tet set of the same material (see header)
    f.tetVolume = true;
  }
  return f;
}

LambdaLayout lambdaLayout(const SimModel& model) {
  LambdaLayout l;
  const uint32_t T = model.tetCount();
  l.edges = 0;
  l.tetVolume = l.edges + model.edgeCount();
  l.nhDeviatoric = l.tetVolume + T;
  l.nhHydrostatic = l.nhDeviatoric + T;
  l.strain = l.nhHydrostatic + T;
  l.attachment = l.strain + 6 * T;
  l.size = l.attachment + 1;
  return l;
}

void prepareProjection(ProjectionContext& ctx, const SimModel& model, const SolverSettings& settings, State& state,
                       ProjectionMode mode, float h) {
  ctx.model = &model;
  ctx.settings = &settings;
  ctx.state = &state;
  ctx.mode = mode;
  ctx.families = projectionFamilies(mode, settings.step.constraints);
  ctx.layout = lambdaLayout(model);
  ctx.h = h;
  ctx.bodies.resize(model.materials.size());
  for (size_t b = 0; b < model.materials.size(); ++b) {
    const Material& m = model.materials[b];
    const LameParameters lame = lameFromYoungPoisson(m.youngsModulus, m.poissonRatio);
    const NeoHookeanParameters nh = neoHookeanFromMaterial(m);
    ctx.bodies[b] = {m.youngsModulus, lame.mu, lame.lambda + 2.0f * lame.mu / 3.0f, nh.mu, nh.lambda, m.damping};
  }
  ctx.complianceScale = std::max(0.0f, settings.xpbd.complianceScale);
  ctx.damping = mode == ProjectionMode::Xpbd && settings.xpbd.materialDamping;
  const int n = std::max(1, settings.step.iterations);
  const float f = std::max(settings.pbd.referenceRate, 1e-3f);
  ctx.pbdRate2 = f * f;
  ctx.pbdExponent =
      settings.pbd.mapping == PbdStiffnessMapping::FrequencyIndependent ? f * h / float(n) : 1.0f;
}

void projectScalar(ProjectionContext& ctx, uint32_t n, const uint32_t* ids, const glm::vec3* grads, float C,
                   float alpha, float* lambda, float gammaD, float scale, float lambdaCap) {
  std::vector<glm::vec4>& x = ctx.state->x;
  float wGrad2 = 0.0f;
  for (uint32_t k = 0; k < n; ++k) wGrad2 += x[ids[k]].w * glm::dot(grads[k], grads[k]);
  float s = 0.0f;
  if (ctx.mode == ProjectionMode::Xpbd) {
    const float alphaTilde = alpha * ctx.complianceScale / (ctx.h * ctx.h);  // XPBD Eq. 18 (alpha~ = alpha / h^2)
    float gradDotDx = 0.0f;
    if (gammaD > 0.0f)
      for (uint32_t k = 0; k < n; ++k)
        gradDotDx += glm::dot(grads[k], glm::vec3(x[ids[k]]) - glm::vec3(ctx.state->xPrev[ids[k]]));
    const float lam = lambda ? *lambda : 0.0f;
    const float r = (C + alphaTilde * lam) / scale;
    ctx.residualSq += double(r) * r;
    s = clm::xpbd_delta_lambda(C, lam, wGrad2, alphaTilde, gammaD, gradDotDx);
    if (lambdaCap > 0.0f) s = std::clamp(lam + s, -lambdaCap, lambdaCap) - lam;
    if (lambda) *lambda = lam + s;  // XPBD Eq. 17
  } else {
    // PBD stiffness from the material (pbd_params.h): XPBD's first-projection
    // fraction at the reference rate f, then the log-stiffness exponent.
    const float kRef = alpha > 0.0f ? wGrad2 / (wGrad2 + alpha * ctx.pbdRate2) : 1.0f;
    const float k = ctx.pbdExponent == 1.0f ? kRef : 1.0f - std::pow(1.0f - kRef, ctx.pbdExponent);
    const float r = C / scale;
    ctx.residualSq += double(r) * r;
    s = clm::pbd_scale(C, wGrad2, k);  // PBD Eq. 9
    if (lambdaCap > 0.0f) s = std::clamp(s, -lambdaCap, lambdaCap);
  }
  ++ctx.residualCount;
  if (s == 0.0f) return;
  for (uint32_t k = 0; k < n; ++k) {
    const float w = x[ids[k]].w;
    if (w == 0.0f) continue;
    const glm::vec3 dx = (w * s) * grads[k];
    if (ctx.jacobiDelta) {
      (*ctx.jacobiDelta)[ids[k]] += glm::vec4(dx, 1.0f);
    } else {
      x[ids[k]] += glm::vec4(dx, 0.0f);
    }
  }
}

void runProjectionIterations(ProjectionContext& ctx, int iterations, std::vector<float>& outResidualHistory) {
  const SimModel& model = *ctx.model;
  const bool anyTet = ctx.families.tetVolume || ctx.families.neoHookean || ctx.families.strainBased;
  std::vector<glm::vec4>* jacobi = ctx.jacobiDelta;
  const float omega = ctx.settings->pbd.jacobiOmega;
  for (int it = 0; it < std::max(1, iterations); ++it) {
    ctx.residualSq = 0.0;
    ctx.residualCount = 0;
    if (jacobi) std::fill(jacobi->begin(), jacobi->end(), glm::vec4(0.0f));
    if (anyTet)
      for (uint32_t c = 0; c < model.tetColors.count(); ++c)
        projectTetRange(ctx, model.tetColors.begin(c), model.tetColors.end(c));
    if (ctx.families.edges)
      for (uint32_t c = 0; c < model.edgeColors.count(); ++c)
        projectEdgeRange(ctx, model.edgeColors.begin(c), model.edgeColors.end(c));
    if (jacobi) {
      // Averaged, over-relaxed Jacobi (Macklin et al. 2014 Eq. 11): x_i += omega / n_i sum dx_i.
      std::vector<glm::vec4>& x = ctx.state->x;
      for (size_t i = 0; i < x.size(); ++i) {
        const glm::vec4 d = (*jacobi)[i];
        if (d.w > 0.0f) x[i] += glm::vec4(glm::vec3(d) * (omega / d.w), 0.0f);
      }
      ctx.jacobiDelta = nullptr;  // per-vertex constraints below are independent: applied directly
    }
    if (ctx.families.tethers) projectTethers(ctx);
    if (ctx.state->mouse.active) projectAttachment(ctx);
    if (ctx.families.collisions) projectContacts(ctx);
    ctx.jacobiDelta = jacobi;
    outResidualHistory.push_back(
        ctx.residualCount ? float(std::sqrt(ctx.residualSq / double(ctx.residualCount))) : 0.0f);
  }
}

}  // namespace tetlab
