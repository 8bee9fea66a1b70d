// The iteration loop of the position-based solvers; the per-constraint
// multiplier step (the only place PBD and XPBD differ) and the element
// projections are shaders/cl/common/pb_step.clh, shared with the kernels.
#include "core/cpu/constraints_projection.h"

#include <algorithm>
#include <cmath>

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/pb_step.clh"

namespace tetlab {

void prepareProjection(ProjectionContext& ctx, const SimModel& model, const SolverSettings& settings, State& state,
                       ProjectionMode mode, float h) {
  ctx.model = &model;
  ctx.settings = &settings;
  ctx.state = &state;
  ctx.families = projectionFamilies(mode, settings.step.constraints, model);
  ctx.params = makePbParams(model, settings, mode, h);
  packBodies(model, springChoice(settings.step.constraints), ctx.bodies);
  packColliders(settings.colliders, ctx.colliders);
}

void addResiduals(ProjectionContext& ctx, const float* r, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) ctx.residualSq += double(r[i]) * r[i];
  ctx.residualCount += n;
}

void runProjectionIterations(ProjectionContext& ctx, int iterations, std::vector<float>& outResidualHistory) {
  const SimModel& model = *ctx.model;
  const bool anyTet = ctx.families.tetVolume || ctx.families.neoHookean || ctx.families.strainBased;
  std::vector<glm::vec4>* jacobi = ctx.jacobiDelta;
  for (int it = 0; it < std::max(1, iterations); ++it) {
    ctx.iteration = it;
    ctx.params.iteration = uint32_t(it);
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
      for (size_t i = 0; i < x.size(); ++i) x[i] = clm::pb_jacobi_apply(x[i], (*jacobi)[i], ctx.params.jacobiOmega);
      ctx.jacobiDelta = nullptr;  // per-vertex constraints below are independent: applied directly
    }
    if (ctx.families.membranes)
      for (uint32_t c = 0; c < model.membraneColors.count(); ++c)
        projectMembraneRange(ctx, model.membraneColors.begin(c), model.membraneColors.end(c));
    if (ctx.families.hinges)
      for (uint32_t c = 0; c < model.hingeColors.count(); ++c)
        projectHingeRange(ctx, model.hingeColors.begin(c), model.hingeColors.end(c));
    if (ctx.families.tethers) projectTethers(ctx);
    if (ctx.state->mouse.active) projectAttachment(ctx);
    if (!ctx.state->springs.empty()) projectAnchorSprings(ctx);
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
  ctx.params.evaluateOnly = 1u;
  ctx.jacobiDelta = nullptr;
  if (anyTet) projectTetRange(ctx, 0, model.tetCount());
  if (ctx.families.edges) projectEdgeRange(ctx, 0, model.edgeCount());
  if (ctx.families.membranes) projectMembraneRange(ctx, 0, model.membraneCount());
  if (ctx.families.hinges) projectHingeRange(ctx, 0, model.hingeCount());
  ctx.params.evaluateOnly = 0u;
  ctx.jacobiDelta = jacobi;
  outResidualHistory.push_back(
      ctx.residualCount ? float(std::sqrt(ctx.residualSq / double(ctx.residualCount))) : 0.0f);
}

}  // namespace tetlab
