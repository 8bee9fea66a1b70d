#pragma once
// makeGpuSolver: the one switch from SolverKind to a GPU solver (the twin of
// makeCpuSolver in core/sim/solver.h). The overload with a model and a device
// state also runs the solver's reset(), so the returned solver is ready to
// step `state`: a solver switch keeps x and v on the device and re-initialises
// only the new solver's private data. The short overload only builds the
// kernels, for callers that cache solvers and reset them on each switch.
#include <memory>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/step_settings.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_state.h"
#include "gpu/solvers/gpu_solver.h"
#include "gpu/cl/kernel_source.h"

namespace tetlab {

Result<std::unique_ptr<GpuSolver>> makeGpuSolver(SolverKind kind, const ClContext& ctx,
                                                 const KernelSourceOptions& source = {});

Result<std::unique_ptr<GpuSolver>> makeGpuSolver(SolverKind kind, const ClContext& ctx, const SimModel& model,
                                                 DeviceState& state, const KernelSourceOptions& source = {});

}  // namespace tetlab
