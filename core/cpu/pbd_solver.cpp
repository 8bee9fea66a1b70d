// PBD substep: start from the inertial prediction (PBD Alg. 1 line 5), then
// project constraints; PBD keeps no multipliers, so State::lambda only holds
// the attachment slot's scratch value.
#include "core/cpu/pbd_solver.h"

#include <algorithm>

#include "core/cpu/position_based_solver.h"
#include "core/sim/solver_settings.h"

namespace tetlab {
namespace {

class PbdSolver final : public PositionBasedSolver {
 public:
  SolverKind kind() const override { return SolverKind::Pbd; }

 private:
  ProjectionMode mode() const override { return ProjectionMode::Pbd; }
  bool freshMultipliers() const override { return false; }
  void beforeIterations(const SolverSettings& settings, const State& state) override {
    if (settings.pbd.scheme == PbdScheme::Jacobi) {
      jacobi_.resize(state.x.size());
      ctx_.jacobiDelta = &jacobi_;
    }
  }

  std::vector<glm::vec4> jacobi_;
};

}  // namespace

std::unique_ptr<Solver> makePbdSolver() { return std::make_unique<PbdSolver>(); }

}  // namespace tetlab
