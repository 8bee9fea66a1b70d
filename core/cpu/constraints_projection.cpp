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
  f.bodyContacts = t.bodyContacts;
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
  const float n = float(std::max(1, settings.step.iterations));
  const float f = std::max(settings.pbd.referenceRate, 1e-3f);
  switch (settings.pbd.mapping) {  // pbd_params.h
    case PbdStiffnessMapping::MatchXpbd:
      ctx.pbdRate2 = 1.0f / (h * h);
      ctx.pbdExponent = 1.0f / n;
      break;
    case PbdStiffnessMapping::FrequencyIndependent:
      ctx.pbdRate2 = f * f;
      ctx.pbdExponent = f * h / n;
      break;
    case PbdStiffnessMapping::PerIteration:
      ctx.pbdRate2 = f * f;
      ctx.pbdExponent = 1.0f;
      break;
  }
}

void projectScalar(ProjectionContext& ctx, uint32_t n, const uint32_t* ids, const glm::vec3* grads, float C,
                   float alpha, float* lambda, float gammaD, float scale, float lambdaCap, float detDmInv) {
  std::vector<glm::vec4>& x = ctx.state->x;
  float wGrad2 = 0.0f, maxWg = 0.0f;
  for (uint32_t k = 0; k < n; ++k) {
    wGrad2 += x[ids[k]].w * glm::dot(grads[k], grads[k]);
    maxWg = std::max(maxWg, x[ids[k]].w * glm::length(grads[k]));
  }
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
    ++ctx.residualCount;
    if (ctx.evaluateOnly) return;
    s = clm::xpbd_delta_lambda(C, lam, wGrad2, alphaTilde, gammaD, gradDotDx);
    s = clm::pb_bound_step(s, maxWg, detDmInv);
    if (lambdaCap > 0.0f) s = std::clamp(lam + s, -lambdaCap, lambdaCap) - lam;
    if (lambda) *lambda = lam + s;  // XPBD Eq. 17
  } else {
    // PBD stiffness from the material (pbd_params.h): XPBD's first-projection
    // fraction k_ref at rate r (pbdRate2 = r^2), then the mapping's exponent.
    // PBD has no multipliers, so a constraint's lambda slot caches its k for
    // the substep: computed in the first iteration, reused after (the two
    // transcendental calls were 40% of a PBD step).
    const float r = C / scale;
    ctx.residualSq += double(r) * r;
    ++ctx.residualCount;
    if (ctx.evaluateOnly) return;
    // A capped constraint (the mouse) instead keeps the sum of its steps in
    // the slot, since the cap bounds the whole substep's pull.
    const bool capped = lambdaCap > 0.0f && lambda;
    float k;
    if (lambda && !capped && ctx.iteration > 0) {
      k = *lambda;
    } else {
      const float kRef = alpha > 0.0f ? wGrad2 / (wGrad2 + alpha * ctx.pbdRate2) : 1.0f;
      // 1 - (1 - kRef)^e via expm1/log1p: exact for the tiny kRef of soft materials.
      k = ctx.pbdExponent == 1.0f ? kRef : -std::expm1(ctx.pbdExponent * std::log1p(-kRef));
      if (lambda && !capped) *lambda = k;
    }
    s = clm::pbd_scale(C, wGrad2, k);  // PBD Eq. 9
    s = clm::pb_bound_step(s, maxWg, detDmInv);
    if (capped) {
      const float sum = ctx.iteration > 0 ? *lambda : 0.0f;
      s = std::clamp(sum + s, -lambdaCap, lambdaCap) - sum;
      *lambda = sum + s;
    }
  }
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

void projectPairXpbd(ProjectionContext& ctx, uint32_t n, const uint32_t* ids, const glm::vec3* grads0,
                     const glm::vec3* grads1, float C0, float C1, float alpha0, float alpha1, float* lambda0,
                     float* lambda1, float gammaD) {
  std::vector<glm::vec4>& x = ctx.state->x;
  float a00 = 0.0f, a01 = 0.0f, a11 = 0.0f, dx0 = 0.0f, dx1 = 0.0f;
  for (uint32_t k = 0; k < n; ++k) {
    const float w = x[ids[k]].w;
    a00 += w * glm::dot(grads0[k], grads0[k]);
    a01 += w * glm::dot(grads0[k], grads1[k]);
    a11 += w * glm::dot(grads1[k], grads1[k]);
    if (gammaD > 0.0f) {
      const glm::vec3 d = glm::vec3(x[ids[k]]) - glm::vec3(ctx.state->xPrev[ids[k]]);
      dx0 += glm::dot(grads0[k], d);
      dx1 += glm::dot(grads1[k], d);
    }
  }
  const float h2 = ctx.h * ctx.h;
  const float at0 = alpha0 * ctx.complianceScale / h2, at1 = alpha1 * ctx.complianceScale / h2;
  if (ctx.evaluateOnly) {
    const float r0 = C0 + at0 * *lambda0, r1 = C1 + at1 * *lambda1;
    ctx.residualSq += double(r0) * r0 + double(r1) * r1;
    ctx.residualCount += 2;
    return;
  }
  float d0 = 0.0f, d1 = 0.0f;
  if (!clm::xpbd_delta_lambda2(C0, C1, *lambda0, *lambda1, a00, a01, a11, at0, at1, gammaD, dx0, dx1, &d0, &d1)) {
    projectScalar(ctx, n, ids, grads0, C0, alpha0, lambda0, gammaD, 1.0f);
    // C1 is stale after the first projection; its linearisation is updated
    // by the caller's next visit (the pair is only singular when both are hard).
    projectScalar(ctx, n, ids, grads1, C1, alpha1, lambda1, gammaD, 1.0f);
    return;
  }
  const float r0 = C0 + at0 * *lambda0, r1 = C1 + at1 * *lambda1;
  ctx.residualSq += double(r0) * r0 + double(r1) * r1;
  ctx.residualCount += 2;
  *lambda0 += d0;
  *lambda1 += d1;
  // Near rest the two terms nearly cancel (d0 gradC_D ~ -d1 gradC_H, each
  // element-sized), so their float rounding would not sum to zero over the
  // corners and would leak momentum. Both constraints are translation
  // invariant (sum of corner gradients = 0), so corner 0 takes minus the sum
  // of the others' combined gradients: sum_k m_k dx_k = 0 up to the rounding
  // of x itself.
  glm::vec3 G[8];
  glm::vec3 sum(0.0f);
  for (uint32_t k = 1; k < n; ++k) {
    G[k] = d0 * grads0[k] + d1 * grads1[k];
    sum += G[k];
  }
  G[0] = -sum;
  for (uint32_t k = 0; k < n; ++k) {
    const float w = x[ids[k]].w;
    if (w != 0.0f) x[ids[k]] += glm::vec4(w * G[k], 0.0f);
  }
}

void runProjectionIterations(ProjectionContext& ctx, int iterations, std::vector<float>& outResidualHistory) {
  const SimModel& model = *ctx.model;
  const bool anyTet = ctx.families.tetVolume || ctx.families.neoHookean || ctx.families.strainBased;
  std::vector<glm::vec4>* jacobi = ctx.jacobiDelta;
  const float omega = ctx.settings->pbd.jacobiOmega;
  for (int it = 0; it < std::max(1, iterations); ++it) {
    ctx.iteration = it;
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
    // Body contacts before the colliders: the static, infinitely heavy
    // colliders (the ground, a tray) have the last word.
    if (ctx.families.bodyContacts) projectBodyContacts(ctx);
    if (ctx.families.collisions) projectContacts(ctx);
    ctx.jacobiDelta = jacobi;
    outResidualHistory.push_back(
        ctx.residualCount ? float(std::sqrt(ctx.residualSq / double(ctx.residualCount))) : 0.0f);
  }
  // Measuring sweep: the residual the iterations leave behind.
  ctx.residualSq = 0.0;
  ctx.residualCount = 0;
  ctx.evaluateOnly = true;
  ctx.jacobiDelta = nullptr;
  if (anyTet) projectTetRange(ctx, 0, model.tetCount());
  if (ctx.families.edges) projectEdgeRange(ctx, 0, model.edgeCount());
  ctx.evaluateOnly = false;
  ctx.jacobiDelta = jacobi;
  outResidualHistory.push_back(
      ctx.residualCount ? float(std::sqrt(ctx.residualSq / double(ctx.residualCount))) : 0.0f);
}

}  // namespace tetlab
