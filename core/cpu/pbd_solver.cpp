// PBD substep: start from the inertial prediction (PBD Alg. 1 line 5), then
// project constraints; PBD keeps no multipliers, so State::lambda only holds
// the attachment slot's scratch value.
#include "core/cpu/pbd_solver.h"

#include <algorithm>

#include "core/cpu/constraints_projection.h"
#include "core/sim/solver_settings.h"

namespace tetlab {
namespace {

class PbdSolver final : public Solver {
 public:
  SolverKind kind() const override { return SolverKind::Pbd; }

  void reset(const SimModel& model, State& state) override {
    state.lambda.assign(lambdaLayout(model).size, 0.0f);
    state.penalty.clear();
    tethers_ = {};
  }

  void solveSubstep(const SimModel& model, const SolverSettings& settings, float h, State& state,
                    StepDiagnostics& out) override {
    const LambdaLayout layout = lambdaLayout(model);
    if (state.lambda.size() != layout.size) state.lambda.assign(layout.size, 0.0f);
    for (size_t i = 0; i < state.x.size(); ++i) state.x[i] = state.xInertial[i];
    iterate(model, settings, h, state, out);
  }

  void continueSubstep(const SimModel& model, const SolverSettings& settings, float h, State& state,
                       StepDiagnostics& out) override {
    if (state.lambda.size() != lambdaLayout(model).size) state.lambda.assign(lambdaLayout(model).size, 0.0f);
    iterate(model, settings, h, state, out);
  }

 private:
  // The iterations of a substep from the current x.
  void iterate(const SimModel& model, const SolverSettings& settings, float h, State& state, StepDiagnostics& out) {
    prepareProjection(ctx_, model, settings, state, ProjectionMode::Pbd, h);
    if (ctx_.families.tethers) tethers_.update(model, state, settings.positionBased.tetherSlack);
    ctx_.tetherAnchor = &tethers_.anchor;
    ctx_.tetherLength = &tethers_.length;
    if (settings.pbd.scheme == PbdScheme::Jacobi) {
      jacobi_.resize(state.x.size());
      ctx_.jacobiDelta = &jacobi_;
    } else {
      ctx_.jacobiDelta = nullptr;
    }
    runProjectionIterations(ctx_, settings.step.iterations, out.residualHistory);
    out.maxViolation = std::max(out.maxViolation, hardConstraintViolation(ctx_));
  }

  ProjectionContext ctx_;
  TetherCache tethers_;
  std::vector<glm::vec4> jacobi_;
};

}  // namespace

std::unique_ptr<Solver> makePbdSolver() { return std::make_unique<PbdSolver>(); }

}  // namespace tetlab
