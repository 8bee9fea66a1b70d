#pragma once
// The GPU twin of core/sim/solver.h. GpuStepper owns the substep loop (the
// same order as core/sim/stepper.h); a GpuSolver enqueues only its own part of
// a substep: initial guess, iterations over colours, collisions.
//
// enqueueSubstep returns cl_int, never throws and never reads back: it runs
// every substep of every frame.
#include <string>
#include <vector>

#include <CL/opencl.hpp>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/solver_settings.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_state.h"
#include "gpu/cl/profiler.h"

namespace tetlab {

class GpuSolver {
 public:
  virtual ~GpuSolver() = default;
  virtual SolverKind kind() const = 0;
  // (Re)initialise solver-private device data; x and v are kept.
  virtual Status reset(const ClContext& ctx, const SimModel& model, DeviceState& state) = 0;
  // One substep of length h. On entry x == xPrev and xInertial is set.
  virtual cl_int enqueueSubstep(const ClContext& ctx, const SolverSettings& settings, float h, DeviceState& state,
                                Profiler& profiler) = 0;
  // The mouse attachment (State::mouse lives on the host; at most 8 vertices
  // reach the device, as kernel arguments). Applies from the next substep.
  virtual void setAttachment(const Attachment& mouse) = 0;
  // Live kernel editing: rebuild on file change. Returns the compiler log of a
  // failed rebuild ("" when fine); the previous kernels keep running.
  virtual std::string pollKernels() = 0;

  // Convergence curve of a substep on the device (StepDiagnostics::residualHistory,
  // the CPU solver's definition, one value per iteration). GpuStepper asks for
  // it on the last substep of a step; readResidualHistory reads it back
  // (blocking, a few floats). Solvers that do not measure it on the device
  // keep these defaults.
  virtual bool measuresResidual() const { return false; }
  virtual void recordResidual(bool on) { (void)on; }
  virtual Result<std::vector<float>> readResidualHistory(const ClContext& ctx) {
    (void)ctx;
    return std::vector<float>{};
  }
};

}  // namespace tetlab
