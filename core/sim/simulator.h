#pragma once
// One simulator interface for both backends: the CPU reference
// (CpuSimulator below: makeCpuSolver + stepSimulation) and OpenCL
// (gpu/solvers/opencl_simulator.h). The window's SimSession (core/session/), `tetlab
// run` and tetlab-bench all drive a backend through this and nothing else:
//
//   step(settings, diag) ─► readDiagnostics(diag) ─► [readEnergy] ─► readState / readPositions
//     │ settings.solver changed: switch, keep x and v             (when the caller needs them)
//
// step() reports in `diag` what it measures without a host sync: the CPU
// reference fills everything (it runs on the host); a device backend only
// enqueues. readDiagnostics() then does the blocking reads of what the step
// could not report (first bad vertex, convergence curve, body-contact counts,
// stage times): nothing on the CPU. Reads are explicit calls so a caller
// reads back only what it shows (DESIGN.md: no read-back in the frame loop
// unless asked).
//
// Stage times use one vocabulary (core/sim/stage.h) on both backends: wall
// clock on the CPU, device time from profiling events on OpenCL.
//
// No GL and no OpenCL here (core/): a backend that needs them implements the
// interface in its own library.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/backend.h"
#include "core/sim/diagnostics.h"
#include "core/sim/solver.h"
#include "core/sim/solver_settings.h"
#include "core/sim/stage.h"
#include "core/sim/state.h"

namespace tetlab {

class Simulator {
 public:
  virtual ~Simulator() = default;
  virtual Backend backend() const = 0;

  // ---- stepping ----
  // One frame of settings.step.dt. Switches solver first when settings.solver
  // differs from the active one (x and v are kept). Fills in outDiagnostics
  // what the backend measures without a host sync (see above). Fails only when
  // the backend does (an enqueue, a lost device); a non-finite state is a
  // diagnostic (finite = false), not an error.
  virtual Status step(const SolverSettings& settings, StepDiagnostics& outDiagnostics) = 0;
  // Makes `kind` active, keeping x and v; only solver-private data is reset.
  virtual Status setSolver(SolverKind kind) = 0;
  virtual SolverKind solver() const = 0;
  // Waits for the work step() enqueued (the CPU reference has none).
  virtual Status finish() { return Ok{}; }
  // Simulated time of the stepped state [s] (writeState sets it).
  virtual double time() const = 0;

  // ---- state ----
  // x, xPrev and v (pins are x.w = 0); the other fields of `out` are left as they are.
  virtual Status readState(State& out) = 0;
  virtual Status readPositions(std::vector<glm::vec4>& outX) = 0;
  // Replaces x, xPrev, v, the mouse attachment and the time with the state's;
  // the active solver's private data (multipliers, penalties) is re-initialised.
  virtual Status writeState(const State& state) = 0;
  // Moves pinned (kinematic, w = 0) vertices to `positions` before the next
  // step: pins that follow a collider (core/sim/pin_followers.h). The caller
  // passes pinned vertices only; their w stays 0.
  virtual Status moveKinematic(std::span<const uint32_t> vertices, std::span<const glm::vec3> positions) = 0;
  // The frame's motion and separation spheres (core/sim/sphere_constraints.h;
  // inactive targets turn them off); apply from the next step.
  virtual Status setSpheres(const SphereTargets& spheres) = 0;
  // The mouse attachment (its stiffness and force cap too); applies from the next substep.
  virtual void setAttachment(const Attachment& mouse) = 0;
  // The anchor springs as stepped: which broke, in which frame (writeState
  // sets them; step() breaks them at the end of a frame, anchor_springs.h).
  virtual const AnchorSprings& springs() const = 0;
  // Moves spring s's anchors (one per patch vertex): a compliant keyed pin region
  // following its keys (core/sim/pin_animator.h); applies from the next step.
  virtual Status moveSpringAnchors(uint32_t spring, std::span<const glm::vec3> anchors) = 0;
  // The model's lumped masses changed (a density edit): re-send them where a copy is kept.
  virtual Status massesChanged() { return Ok{}; }

  // ---- diagnostics ----
  // Blocking reads of what step() could not report, into the last step's
  // diagnostics: finite / badVertex / problem, residualHistory and residual
  // (when measuresResidual()), bodyContacts and bodyContactOverflow, stages
  // and stepMs (device time). On a device this is also where body-contact
  // detection grows its grid after an overflow (readBodyContacts). The CPU
  // reference has nothing to read.
  virtual Status readDiagnostics(StepDiagnostics& inOutDiagnostics) = 0;
  // First non-finite vertex since the last read (-1: none).
  virtual Result<int64_t> readBadVertex() = 0;
  // Body-contact counts of the last substep. On OpenCL this read is also
  // when the detection grid grows after an overflow (an explicit effect of
  // this call, nothing else grows it).
  struct BodyContactCounts {
    uint32_t active = 0;    // contacts found in the last substep
    uint32_t overflow = 0;  // items dropped from full per-vertex lists
  };
  virtual Result<BodyContactCounts> readBodyContacts() = 0;
  // Does the active solver record its convergence curve (residualHistory)?
  virtual bool measuresResidual() const = 0;
  virtual Result<std::vector<float>> readResidualHistory() = 0;
  // Does the backend measure max |C| over hard constraints (maxViolation)? CPU only.
  virtual bool measuresViolation() const = 0;
  // Is the energy computed by the backend itself (CPU: inside step(); OpenCL:
  // reductions on the device)? When false the caller computes it from a full
  // read-back (core/sim/energy.h). A failed readEnergy() turns it off.
  virtual bool computesEnergy() const = 0;
  virtual Result<EnergyReport> readEnergy(const SolverSettings& settings) = 0;
  // Per-stage times of the steps since the last call (readDiagnostics takes them too).
  virtual StageTimes takeStageTimes() = 0;
  // Whether the steps time their stages. A device times them with profiling
  // events, which cost it per launch, so it starts off and a reader that shows
  // them turns it on (the numbers panel while open, tetlab-bench --stages);
  // the CPU reference's wall-clock timer is always on.
  virtual void setStageTiming(bool) {}
  // Is the stepped state in host memory (reads are copies, no transfer)?
  virtual bool stateOnHost() const = 0;

  // Live kernel editing: rebuilds changed device code; the compiler log of a
  // failed rebuild ("" when fine or when the backend has none).
  virtual std::string pollKernels() { return ""; }
};

// The CPU reference behind the interface: one host State stepped by
// stepSimulation (core/sim/stepper.h) with a solver from makeCpuSolver.
class CpuSimulator final : public Simulator {
 public:
  // `model` must outlive the simulator (its masses may change: see massesChanged).
  CpuSimulator(const SimModel& model, State state, SolverKind kind);

  Backend backend() const override { return Backend::Cpu; }
  Status step(const SolverSettings& settings, StepDiagnostics& outDiagnostics) override;
  Status setSolver(SolverKind kind) override;
  SolverKind solver() const override { return solver_->kind(); }
  double time() const override { return state_.time; }

  Status readState(State& out) override;
  Status readPositions(std::vector<glm::vec4>& outX) override;
  Status writeState(const State& state) override;
  Status moveKinematic(std::span<const uint32_t> vertices, std::span<const glm::vec3> positions) override;
  Status setSpheres(const SphereTargets& spheres) override {
    state_.spheres = spheres;
    return Ok{};
  }
  void setAttachment(const Attachment& mouse) override { state_.mouse = mouse; }
  const AnchorSprings& springs() const override { return state_.springs; }
  Status moveSpringAnchors(uint32_t spring, std::span<const glm::vec3> anchors) override {
    if (spring >= state_.springs.springs.size()) return Error{"no anchor spring " + std::to_string(spring)};
    tetlab::moveSpringAnchors(state_.springs, spring, anchors);
    return Ok{};
  }

  Status readDiagnostics(StepDiagnostics&) override { return Ok{}; }
  Result<int64_t> readBadVertex() override;
  Result<BodyContactCounts> readBodyContacts() override;
  bool measuresResidual() const override { return true; }
  Result<std::vector<float>> readResidualHistory() override { return last_.residualHistory; }
  bool measuresViolation() const override { return true; }
  bool computesEnergy() const override { return true; }
  Result<EnergyReport> readEnergy(const SolverSettings&) override { return last_.energy; }
  StageTimes takeStageTimes() override;
  bool stateOnHost() const override { return true; }

  // The CPU reference only: its solver (VBD statistics) and its state.
  const Solver& cpuSolver() const { return *solver_; }
  const State& state() const { return state_; }

 private:
  const SimModel* model_;
  State state_;
  std::unique_ptr<Solver> solver_;
  StepDiagnostics last_;  // what the last step reported (for the read calls)
  StageTimes pendingTimes_;
  std::vector<glm::vec4> springX_;  // the break check's gathered positions (anchor_springs.h)
  bool badRead_ = true;   // the last step's bad vertex was read
};

}  // namespace tetlab
