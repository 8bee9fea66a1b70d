// XPBD substep (Macklin et al. 2016 Alg. 1): x = inertial prediction, lambda =
// 0, then iterations of the shared projection with the XPBD multiplier step.
// With StepSettings::substeps large and iterations = 1 this is the "small
// steps" scheme (Macklin et al. 2019), which the stepper already provides.
#include "core/cpu/xpbd_solver.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/cpu/constraints_projection.h"
#include "core/sim/solver_settings.h"

namespace tetlab {
namespace {

class XpbdSolver final : public Solver {
 public:
  SolverKind kind() const override { return SolverKind::Xpbd; }

  void reset(const SimModel& model, State& state) override {
    state.lambda.assign(lambdaLayout(model).size, 0.0f);
    state.penalty.clear();
    tethers_ = {};
  }

  void solveSubstep(const SimModel& model, const SolverSettings& settings, float h, State& state,
                    StepDiagnostics& out) override {
    const LambdaLayout layout = lambdaLayout(model);
    // XPBD Alg. 1: multipliers start at zero every substep.
    state.lambda.assign(layout.size, 0.0f);
    for (size_t i = 0; i < state.x.size(); ++i) state.x[i] = state.xInertial[i];
    prepareProjection(ctx_, model, settings, state, ProjectionMode::Xpbd, h);
    if (ctx_.families.tethers) tethers_.update(model, state, settings.positionBased.tetherSlack);
    ctx_.tetherAnchor = &tethers_.anchor;
    ctx_.tetherLength = &tethers_.length;
    ctx_.jacobiDelta = nullptr;
    runProjectionIterations(ctx_, settings.step.iterations, out.residualHistory);
    out.maxViolation = std::max(out.maxViolation, hardConstraintViolation(ctx_));
    if (ctx_.families.neoHookean && out.warning.empty()) {
      const float limit = xpbdShearLimitSubstep(model);
      if (h > limit)
        out.warning = "XPBD Neo-Hookean: substep " + std::to_string(h) + " s exceeds the explicit shear limit " +
                      std::to_string(limit) + " s of this mesh and material; use at least " +
                      std::to_string(int(std::ceil(settings.step.dt / limit))) +
                      " substeps, a softer material, or strain-based constraints";
    }
  }

 private:
  ProjectionContext ctx_;
  TetherCache tethers_;
};

}  // namespace

float xpbdShearLimitSubstep(const SimModel& model) {
  std::vector<float> minEdge(model.materials.size(), INFINITY);
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const uint32_t b = model.vertexBody[model.edges[e].x];
    minEdge[b] = std::min(minEdge[b], model.restLength[e]);
  }
  float limit = INFINITY;
  for (size_t b = 0; b < model.materials.size(); ++b) {
    const Material& m = model.materials[b];
    const float cs = std::sqrt(lameFromYoungPoisson(m.youngsModulus, m.poissonRatio).mu / m.density);
    if (cs > 0.0f) limit = std::min(limit, kXpbdShearLimitFactor * minEdge[b] / cs);
  }
  return limit;
}

std::unique_ptr<Solver> makeXpbdSolver() { return std::make_unique<XpbdSolver>(); }

}  // namespace tetlab
