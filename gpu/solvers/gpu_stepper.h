#pragma once
// The substep loop on the device, the twin of core/sim/stepper.h:
//
//   clear status  ->  for substep:  step_predict -> body contacts -> solver.enqueueSubstep -> step_velocity
//                 ->  Rayleigh damping pass (gpu/solvers/rayleigh_damping_gpu.h; only when a body is damped)
//                 ->  step_rollback (no-op unless a vertex went non-finite)
//
// "body contacts" is the device detection (gpu/solvers/body_contact_detection_gpu.h)
// into DeviceState::bodyContacts when settings.step.constraints.bodyContacts
// is on and the model qualifies (several bodies or self collision, as on the
// CPU); otherwise the contacts are cleared once, so stale ones never act.
//
// Everything is enqueued on the one in-order queue; nothing is read back.
// readBadVertex() is the diagnostics read (4 bytes) the UI does every N frames.
#include <cstdint>

#include "core/result.h"
#include "core/sim/solver_settings.h"
#include "gpu/solvers/body_contact_detection_gpu.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_state.h"
#include "gpu/solvers/gpu_solver.h"
#include "gpu/solvers/rayleigh_damping_gpu.h"
#include "gpu/cl/kernel_program.h"
#include "gpu/cl/profiler.h"

namespace tetlab {

class GpuStepper {
 public:
  static Result<GpuStepper> create(const ClContext& ctx, const KernelSourceOptions& source = {});

  // Enqueues one frame of settings.step.dt. Error only when an enqueue fails
  // (device lost, out of resources); a non-finite state is not an enqueue error.
  // `model` is the one the state was made for (its materials drive the damping pass).
  Status enqueueStep(const ClContext& ctx, const SimModel& model, const SolverSettings& settings, GpuSolver& solver,
                     DeviceState& state, Profiler& profiler);

  // First non-finite vertex since the last call (-1: none), then clears it.
  // Blocking: waits for the queue up to the read.
  Result<int64_t> readBadVertex(const ClContext& ctx);

  // Diagnostics read of the body-contact detection (blocking; outside the
  // step): counts of the last substep, and the grid table's overflow since the
  // previous read, after which the table is grown.
  Result<BodyContactDetectionStats> readBodyContactStats(const ClContext& ctx, const DeviceState& state);

  // x of every anchor sub-spring's vertex (out[j] = x[vertex[j]]; blocking, a
  // few float4): the end-of-frame break check's read (core/sim/anchor_springs.h).
  Status readSpringPositions(const ClContext& ctx, DeviceState& state, std::vector<glm::vec4>& out);

  // The last frame's damping pass: CG iterations and residual (blocking, a few floats).
  Result<RayleighDampingReport> readDampingReport(const ClContext& ctx) const { return damping_.readReport(ctx); }

  std::string pollKernels();
  double time() const { return time_; }  // simulated time of enqueued steps [s]

 private:
  enum Kernel : size_t { kPredict, kVelocity, kRollback, kWind, kWindApply, kSpheres, kFields, kGatherSprings };
  // The force fields' records on the device, re-uploaded when the settings change them.
  Status uploadFields(const ClContext& ctx, const ForceFields& fields);
  GpuStepper(KernelProgram program, DeviceBuffer<uint32_t> status, BodyContactDetectorGpu contacts,
             RayleighDampingGpu damping)
      : program_(std::move(program)),
        status_(std::move(status)),
        contacts_(std::move(contacts)),
        damping_(std::move(damping)) {}
  Status enqueueBodyContacts(const ClContext& ctx, const SolverSettings& settings, DeviceState& state,
                             Profiler& profiler, StageId stage);

  KernelProgram program_;
  DeviceBuffer<uint32_t> status_;  // [0] this step's first bad vertex, [1] sticky
  BodyContactDetectorGpu contacts_;
  RayleighDampingGpu damping_;
  // The contact arrays this stepper last detected into (nullptr: none since the
  // last clear), so turning detection off clears them once, not every substep.
  const DeviceBodyContacts* detectedInto_ = nullptr;
  double time_ = 0.0;
  MaterialsStamp windElements_;  // the materials DeviceState::clothTriangles' strand diameters were packed from
  std::vector<glm::vec4> fieldsPacked_;  // what fields_ holds
  DeviceBuffer<glm::vec4> fields_;
  uint32_t fieldCount_ = 0;
};

}  // namespace tetlab
