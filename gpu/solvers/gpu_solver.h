#pragma once
// The GPU twin of core/sim/solver.h. GpuStepper owns the substep loop (the
// same order as core/sim/stepper.h); a GpuSolver enqueues only its own part of
// a substep: initial guess, iterations over colours, collisions.
//
// enqueueSubstep returns cl_int, never throws and never reads back: it runs
// every substep of every frame.
#include <span>
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

// A whole step handed to a solver that can run it in its own launches
// (GpuSolver::enqueueStep): `substeps` substeps of length h, each with the
// stepper's predict and velocity update (drag factor `damping`, the
// non-finite check into status[0], step_common.cl).
struct FusedStep {
  float h = 0.0f;
  uint32_t substeps = 1;
  float damping = 1.0f;
  const DeviceBuffer<uint32_t>* status = nullptr;
};

class GpuSolver {
 public:
  virtual ~GpuSolver() = default;
  virtual SolverKind kind() const = 0;
  // (Re)initialise solver-private device data; x and v are kept.
  virtual Status reset(const ClContext& ctx, const SimModel& model, DeviceState& state) = 0;
  // One substep of length h. On entry x == xPrev and xInertial is set.
  virtual cl_int enqueueSubstep(const ClContext& ctx, const SolverSettings& settings, float h, DeviceState& state,
                                Profiler& profiler) = 0;
  // A fused step: true when this solver runs the whole step (predict, solve,
  // velocity of every substep) itself for these settings, as enqueueStep.
  // GpuStepper asks only when nothing has to run between the stages (no
  // body-contact detection). The residual curve is then the last substep's.
  virtual bool fusesStep(const SolverSettings& settings, const DeviceState& state) const {
    (void)settings;
    (void)state;
    return false;
  }
  virtual cl_int enqueueStep(const ClContext& ctx, const SolverSettings& settings, const FusedStep& step,
                             DeviceState& state, Profiler& profiler) {
    (void)ctx, (void)settings, (void)step, (void)state, (void)profiler;
    return CL_INVALID_OPERATION;
  }
  // How the last step's solve was launched, for the numbers panel (a static string).
  virtual const char* schedule() const { return "per colour"; }
  // The name schedule() gives a solver whose whole step (integrated) or one
  // substep can run in one work-group.
  static const char* groupScheduleName(bool oneGroupRan, bool integratedRan) {
    return !oneGroupRan ? "per colour" : integratedRan ? "one work-group per step" : "one work-group per substep";
  }
  // The mouse attachment (State::mouse lives on the host; at most 8 vertices
  // reach the device, as kernel arguments). Applies from the next substep.
  virtual void setAttachment(const Attachment& mouse) = 0;
  // Pinned vertices were moved (Simulator::moveKinematic): a solver that keeps
  // pin targets of its own (AVBD's hard pin rows) takes the new x.
  virtual cl_int pinsMoved(const ClContext& ctx, std::span<const uint32_t> vertices) {
    (void)ctx;
    (void)vertices;
    return CL_SUCCESS;
  }
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
