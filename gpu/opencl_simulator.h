#pragma once
// The OpenCL backend as one object: context, device state, stepper and the
// active GPU solver. The sandbox, `tetlab run` and tetlab-bench all drive it
// the same way as the CPU backend (makeCpuSolver + stepSimulation):
//
//   create(model, state, kind) ─► step(settings) ... step(settings) ─► downloadState / positions
//                                   │ settings.solver changed: switch, keep x and v on the device
//
// GPU solvers are created on first use and kept, so toggling back and forth
// between solvers does not recompile kernels. Nothing is read back inside
// step(); reads are explicit calls the caller makes when it needs them.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"
#include "gpu/cl_context.h"
#include "gpu/device_state.h"
#include "gpu/gpu_solver.h"
#include "gpu/gpu_stepper.h"
#include "gpu/kernel_source.h"
#include "gpu/profiler.h"

namespace tetlab {

struct OpenClSimulatorOptions {
  ClContextOptions context;
  KernelSourceOptions kernels;  // folder set: load kernels from disk and hot-reload them
};

class OpenClSimulator {
 public:
  // `model` must outlive the simulator. Fails with a readable message when no
  // platform/device exists, a kernel does not build, or `kind` has no kernels.
  static Result<std::unique_ptr<OpenClSimulator>> create(const SimModel& model, const State& state,
                                                         SolverKind kind, const OpenClSimulatorOptions& options = {});
  // The same on an existing context (shared with the app or other simulators).
  static Result<std::unique_ptr<OpenClSimulator>> create(const SimModel& model, const State& state,
                                                         SolverKind kind, const ClContext& ctx,
                                                         const KernelSourceOptions& kernels = {});

  // Enqueues one frame of settings.step.dt. Switches solver first when
  // settings.solver differs from the active one (x and v stay on the device).
  Status step(const SolverSettings& settings);

  // Makes `kind` active: creates it on first use, resets its private data.
  Status setSolver(SolverKind kind);
  SolverKind solver() const { return active_; }

  // The mouse attachment and pins live on the host; push them when they change.
  void setAttachment(const Attachment& mouse);
  // Replaces x, xPrev, v (and so pins through x.w) with the host state's.
  Status uploadState(const State& state);
  // Re-sends the model's lumped masses (after a density edit changed them).
  Status uploadMasses();

  Status downloadState(State& out) const;
  Status downloadPositions(std::vector<glm::vec4>& outX) const;
  // First non-finite vertex since the last call (-1: none). Blocks on the queue.
  // Also refreshes bodyContactStats() (the same sync, a few more bytes), which
  // grows the contact grid after an overflow.
  Result<int64_t> readBadVertex();
  // Body-contact counts of the last substep and the detection grid's overflow
  // since the previous read (blocking); grows the grid when it overflowed.
  Result<BodyContactDetectionStats> readBodyContactStats();
  // The active solver's convergence curve of the last substep of the last step
  // (one value per iteration, as StepDiagnostics::residualHistory); empty when
  // that solver does not measure it on the device. Blocks on the queue.
  Result<std::vector<float>> readResidualHistory();
  bool measuresResidual() const;
  // As of the last readBadVertex() / readBodyContactStats().
  const BodyContactDetectionStats& bodyContactStats() const { return bodyContactStats_; }
  // Waits for the queue and returns per-stage device times of the steps since
  // the last call. Call this or discardTimings() once per frame: every launch
  // records an event until then.
  StepStats takeTimings();
  void discardTimings() { profiler_.discard(); }
  Status finish() const;

  // Live kernel editing: rebuilds changed kernels; returns the compiler log of
  // a failed rebuild ("" when fine), the previous kernels keep running.
  std::string pollKernels();

  const ClContext& context() const { return ctx_; }
  // Device buffers, for work enqueued after a step on the same queue (the
  // render embedding reads x straight from here: no host round trip).
  const DeviceState& deviceState() const { return device_; }
  double time() const { return stepper_.time(); }

 private:
  OpenClSimulator(const SimModel& model, ClContext ctx, DeviceState device, GpuStepper stepper,
                  KernelSourceOptions kernels);

  const SimModel* model_;
  ClContext ctx_;
  DeviceState device_;
  GpuStepper stepper_;
  KernelSourceOptions kernels_;
  Profiler profiler_;
  std::array<std::unique_ptr<GpuSolver>, 4> solvers_;  // indexed by SolverKind
  SolverKind active_ = SolverKind::Xpbd;
  Attachment mouse_;
  BodyContactDetectionStats bodyContactStats_;
};

}  // namespace tetlab
