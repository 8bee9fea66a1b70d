#include "gpu/gpu_solver_factory.h"

#include <string>

#include "core/scene/enum_names.h"
#include "gpu/avbd_solver_gpu.h"
#include "gpu/pbd_solver_gpu.h"
#include "gpu/vbd_solver_gpu.h"
#include "gpu/xpbd_solver_gpu.h"

namespace tetlab {

Result<std::unique_ptr<GpuSolver>> makeGpuSolver(SolverKind kind, const ClContext& ctx,
                                                 const KernelSourceOptions& source) {
  Result<std::unique_ptr<GpuSolver>> solver = Error{"unknown solver kind " + std::to_string(int(kind))};
  switch (kind) {
    case SolverKind::Pbd:
      solver = makePbdSolverGpu(ctx, source);
      break;
    case SolverKind::Xpbd:
      solver = makeXpbdSolverGpu(ctx, source);
      break;
    case SolverKind::Vbd:
      solver = makeVbdSolverGpu(ctx, source);
      break;
    case SolverKind::Avbd:
      solver = makeAvbdSolverGpu(ctx, source);
      break;
  }
  if (!solver) return Error{std::string("creating the GPU ") + solverDisplayName(kind) + " solver: " + solver.error().message};
  return solver;
}

Result<std::unique_ptr<GpuSolver>> makeGpuSolver(SolverKind kind, const ClContext& ctx, const SimModel& model,
                                                 DeviceState& state, const KernelSourceOptions& source) {
  auto solver = makeGpuSolver(kind, ctx, source);
  if (!solver) return solver;
  if (Status st = (*solver)->reset(ctx, model, state); !st)
    return Error{std::string("initialising the GPU ") + solverDisplayName(kind) + " solver: " + st.error().message};
  return solver;
}

}  // namespace tetlab
