#pragma once
// One solver interface for the four CPU reference solvers. The shared
// stepper (core/sim/stepper.h) owns the substep loop:
//
//   for substep:  xPrev = x;  xInertial = x + h v + h^2 g     (shared predict)
//                 solver.solveSubstep(...)                     (initial guess, iterations
//                                                              over colours, collisions,
//                                                              AVBD dual update)
//                 v = (x - xPrev) / h;  damping;  NaN check     (shared)
//
// so switching solver keeps x and v; only solver-private data is reset.
#include <memory>
#include <span>

#include "core/model/sim_model.h"
#include "core/sim/diagnostics.h"
#include "core/sim/state.h"
#include "core/sim/step_settings.h"

namespace tetlab {

struct SolverSettings;  // core/sim/solver_settings.h: StepSettings + per-solver params + colliders

class Solver {
 public:
  virtual ~Solver() = default;
  virtual SolverKind kind() const = 0;
  // Called when the solver is created or switched to, and on model reload:
  // (re)initialise solver-private data (state.lambda, state.penalty, caches).
  virtual void reset(const SimModel& model, State& state) = 0;
  // One substep of length h. On entry x == xPrev and xInertial is set; on
  // exit x holds the end-of-substep positions. Fills residualHistory.
  virtual void solveSubstep(const SimModel& model, const SolverSettings& settings, float h, State& state,
                            StepDiagnostics& outDiagnostics) = 0;
  // settings.step.iterations more iterations of the substep solveSubstep began,
  // from state.x and with xInertial unchanged: the quasi-static deformer
  // (core/deform/deformer.h) checks its residual between such passes. XPBD and
  // PBD start a substep at xInertial with fresh multipliers, so they override
  // this to keep both; VBD and AVBD start from x itself under the "previous
  // position" guess and need nothing more (their call to solveSubstep is it).
  virtual void continueSubstep(const SimModel& model, const SolverSettings& settings, float h, State& state,
                               StepDiagnostics& outDiagnostics) {
    solveSubstep(model, settings, h, state, outDiagnostics);
  }
  // Pinned vertices were moved (pins that follow a collider): a solver that
  // keeps pin targets of its own (AVBD's hard pin rows) takes the new x.
  virtual void pinsMoved(std::span<const uint32_t> vertices) { (void)vertices; }
};

std::unique_ptr<Solver> makeCpuSolver(SolverKind kind);

}  // namespace tetlab
