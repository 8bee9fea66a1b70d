#pragma once
// What PBD and XPBD share around the one projection loop
// (constraints_projection.h): a substep starts at the inertial prediction
// (PBD Alg. 1 line 5, XPBD Alg. 1), optionally with fresh multipliers, and
// runs the iterations; continueSubstep runs more of the same substep from the
// current x with the multipliers kept (the quasi-static deformer's passes).
//
//   solveSubstep:    [lambda = 0] -> x = xInertial -> iterate
//   continueSubstep:                                  iterate
//   iterate:         prepareProjection -> tethers -> beforeIterations -> runProjectionIterations -> afterIterations
#include <algorithm>

#include "core/cpu/constraints_projection.h"
#include "core/sim/solver.h"
#include "core/sim/solver_settings.h"

namespace tetlab {

class PositionBasedSolver : public Solver {
 public:
  void reset(const SimModel& model, State& state) override {
    state.lambda.assign(lambdaLayout(model).size, 0.0f);
    state.penalty.clear();
    tethers_ = {};
  }

  void solveSubstep(const SimModel& model, const SolverSettings& settings, float h, State& state,
                    StepDiagnostics& out) override {
    const LambdaLayout layout = lambdaLayout(model);
    if (freshMultipliers() || state.lambda.size() != layout.size) state.lambda.assign(layout.size, 0.0f);
    if (freshMultipliers() || state.springs.lambda.size() != state.springs.subCount())
      state.springs.lambda.assign(state.springs.subCount(), 0.0f);
    for (size_t i = 0; i < state.x.size(); ++i) state.x[i] = state.xInertial[i];
    iterate(model, settings, h, state, out);
  }

  void continueSubstep(const SimModel& model, const SolverSettings& settings, float h, State& state,
                       StepDiagnostics& out) override {
    const LambdaLayout layout = lambdaLayout(model);
    if (state.lambda.size() != layout.size) state.lambda.assign(layout.size, 0.0f);
    if (state.springs.lambda.size() != state.springs.subCount()) state.springs.lambda.assign(state.springs.subCount(), 0.0f);
    iterate(model, settings, h, state, out);
  }

  // Tets with strain parameters of their own (kept by the caller, null: none).
  void setStrainRegions(const StrainRegions* regions) { strainRegions_ = regions; }

 protected:
  virtual ProjectionMode mode() const = 0;
  // XPBD: multipliers start at zero every substep (Eq. 17-18); PBD keeps none.
  virtual bool freshMultipliers() const = 0;
  // Per-solver set-up of ctx_ before the iterations (PBD: the Jacobi scratch) and checks after.
  virtual void beforeIterations(const SolverSettings&, const State&) {}
  virtual void afterIterations(const SimModel&, const SolverSettings&, float /*h*/, StepDiagnostics&) {}

  ProjectionContext ctx_;

 private:
  void iterate(const SimModel& model, const SolverSettings& settings, float h, State& state, StepDiagnostics& out) {
    prepareProjection(ctx_, model, settings, state, mode(), h);
    if (ctx_.families.tethers) tethers_.update(model, state, settings.positionBased.tetherSlack);
    ctx_.tetherAnchor = &tethers_.anchor;
    ctx_.tetherLength = &tethers_.length;
    ctx_.jacobiDelta = nullptr;
    ctx_.strainRegions = strainRegions_;
    beforeIterations(settings, state);
    runProjectionIterations(ctx_, settings.step.iterations, out.residualHistory);
    out.maxViolation = std::max(out.maxViolation, hardConstraintViolation(ctx_));
    afterIterations(model, settings, h, out);
  }

  TetherCache tethers_;
  const StrainRegions* strainRegions_ = nullptr;
};

}  // namespace tetlab
