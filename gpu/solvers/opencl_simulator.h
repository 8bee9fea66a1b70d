#pragma once
// The OpenCL backend as one object: context, device state, stepper and the
// active GPU solver, behind the Simulator interface (core/sim/simulator.h) so
// the sandbox, `tetlab run` and tetlab-bench drive it exactly as they drive
// the CPU reference:
//
//   create(model, state, kind) ─► step(settings) ... ─► readDiagnostics ─► [readEnergy] ─► readState / positions
//                                   │ settings.solver changed: switch, keep x and v on the device
//
// GPU solvers are created on first use and kept, so toggling back and forth
// between solvers does not recompile kernels. Nothing is read back inside
// step(); reads are explicit calls the caller makes when it needs them, and
// each says what it does beyond reading: readBodyContacts() is the one call
// that grows the contact detection grid after an overflow (readDiagnostics()
// makes it, as the step's post-processing).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/simulator.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_energy.h"
#include "gpu/solvers/device_state.h"
#include "gpu/solvers/gpu_solver.h"
#include "gpu/solvers/gpu_stepper.h"
#include "gpu/cl/kernel_source.h"
#include "gpu/cl/profiler.h"

namespace tetlab {

struct OpenClSimulatorOptions {
  ClContextOptions context;
  KernelSourceOptions kernels;  // folder set: load kernels from disk and hot-reload them
};

class OpenClSimulator final : public Simulator {
 public:
  // `model` must outlive the simulator. Fails with a readable message when no
  // platform/device exists, a kernel does not build, or `kind` has no kernels.
  static Result<std::unique_ptr<OpenClSimulator>> create(const SimModel& model, const State& state,
                                                         SolverKind kind, const OpenClSimulatorOptions& options = {});
  // The same on an existing context (shared with the app or other simulators).
  static Result<std::unique_ptr<OpenClSimulator>> create(const SimModel& model, const State& state,
                                                         SolverKind kind, const ClContext& ctx,
                                                         const KernelSourceOptions& kernels = {});

  Backend backend() const override { return Backend::OpenCl; }

  // Enqueues one frame of settings.step.dt. Switches solver first when
  // settings.solver differs from the active one (x and v stay on the device).
  // Reports nothing in the diagnostics (that needs a sync: readDiagnostics).
  Status step(const SolverSettings& settings, StepDiagnostics& outDiagnostics) override;
  Status step(const SolverSettings& settings);

  // Makes `kind` active: creates it on first use, resets its private data.
  Status setSolver(SolverKind kind) override;
  SolverKind solver() const override { return active_; }
  Status finish() override;
  // Simulated time: the state's at create / the last writeState, plus the enqueued substeps [s].
  double time() const override { return stepper_.time() + timeOffset_; }

  // ---- state ----
  Status readState(State& out) override { return downloadState(out); }
  Status readPositions(std::vector<glm::vec4>& outX) override { return downloadPositions(outX); }
  Status writeState(const State& state) override { return uploadState(state); }
  Status moveKinematic(std::span<const uint32_t> vertices, std::span<const glm::vec3> positions) override;
  Status setSpheres(const SphereTargets& spheres) override { return uploadSpheres(ctx_, device_, spheres); }
  // The mouse attachment and pins live on the host; push them when they change.
  void setAttachment(const Attachment& mouse) override;
  // The host copy of the anchor springs; step() reads their vertices back
  // (a few float4, blocking) to check them for breaks at each frame's end.
  const AnchorSprings& springs() const override { return springs_; }
  Status moveSpringAnchors(uint32_t spring, std::span<const glm::vec3> anchors) override;
  Status massesChanged() override { return uploadMasses(); }
  // Replaces x, xPrev, v (and so pins through x.w), the attachment and the time with the host state's.
  Status uploadState(const State& state);
  // Re-sends the model's lumped masses (after a density edit changed them).
  Status uploadMasses();
  Status downloadState(State& out) const;
  Status downloadPositions(std::vector<glm::vec4>& outX) const;

  // ---- diagnostics (each blocks on the queue) ----
  // The step's post-processing: readBadVertex, readBodyContacts (which grows
  // the grid after an overflow), the stage times (lastTimings) and, when the
  // step stayed finite, the residual curve.
  Status readDiagnostics(StepDiagnostics& inOutDiagnostics) override;
  // First non-finite vertex since the last call (-1: none). Reads only that (4 bytes).
  Result<int64_t> readBadVertex() override;
  // Body-contact counts of the last substep; grows the contact grid when it
  // overflowed since the previous read (readBodyContactStats has the details).
  Result<BodyContactCounts> readBodyContacts() override;
  // Body-contact counts of the last substep and the detection grid's overflow
  // since the previous read; grows the grid when it overflowed.
  Result<BodyContactDetectionStats> readBodyContactStats();
  // As of the last readBodyContacts() / readBodyContactStats().
  const BodyContactDetectionStats& bodyContactStats() const { return bodyContactStats_; }
  // The active solver's convergence curve of the last substep of the last step
  // (one value per iteration, as StepDiagnostics::residualHistory); empty when
  // that solver does not measure it on the device.
  Result<std::vector<float>> readResidualHistory() override;
  bool measuresResidual() const override;
  bool measuresViolation() const override { return false; }
  // Energy by reductions on the device (gpu/solvers/device_energy.h) once
  // enableDeviceEnergy() succeeded; a failed readEnergy() turns it off.
  Status enableDeviceEnergy();
  bool computesEnergy() const override { return energy_ != nullptr; }
  Result<EnergyReport> readEnergy(const SolverSettings& settings) override;
  // Waits for the queue and returns per-launch device times of the steps since
  // the last call (each under its Stage). Call this, takeStageTimes(),
  // readDiagnostics() or discardTimings() once per frame: every launch records
  // an event until then.
  StepStats takeTimings();
  StageTimes takeStageTimes() override { return takeTimings().byStage; }
  void setStageTiming(bool on) override { profiler_.setEnabled(on); }
  // The times readDiagnostics() took (per launch, for the numbers panel).
  const StepStats& lastTimings() const { return lastTimings_; }
  void discardTimings() { profiler_.discard(); }
  bool stateOnHost() const override { return false; }

  // Live kernel editing: rebuilds changed kernels (the device energy's too);
  // returns the compiler log of a failed rebuild ("" when fine), the previous
  // kernels keep running.
  std::string pollKernels() override;

  const ClContext& context() const { return ctx_; }
  // Device buffers, for work enqueued after a step on the same queue (the
  // render embedding reads x straight from here: no host round trip).
  const DeviceState& deviceState() const { return device_; }

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
  AnchorSprings springs_;
  std::vector<glm::vec4> springX_;  // the last gathered positions of the springs' vertices (energy, breaks)
  uint32_t springsBroken_ = 0;      // springs the last step broke
  BodyContactDetectionStats bodyContactStats_;
  StepStats lastTimings_;
  std::unique_ptr<DeviceEnergy> energy_;
  double timeOffset_ = 0.0;  // time() - stepper_.time()
};

}  // namespace tetlab
