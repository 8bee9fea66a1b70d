// XPBD substep (Macklin et al. 2016 Alg. 1): x = inertial prediction, lambda =
// 0, then iterations of the shared projection with the XPBD multiplier step.
// With StepSettings::substeps large and iterations = 1 this is the "small
// steps" scheme (Macklin et al. 2019), which the stepper already provides.
#include "core/cpu/xpbd_solver.h"

#include <algorithm>

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
  }

 private:
  ProjectionContext ctx_;
  TetherCache tethers_;
};

}  // namespace

std::unique_ptr<Solver> makeXpbdSolver() { return std::make_unique<XpbdSolver>(); }

}  // namespace tetlab
