#include "gpu/solvers/gpu_solver_factory.h"

#include <string>

#include "core/scene/enum_names.h"
#include "gpu/solvers/avbd_solver_gpu.h"
#include "gpu/solvers/position_based_gpu.h"
#include "gpu/solvers/vbd_solver_gpu.h"

namespace tetlab {

namespace {

// PBD and XPBD share one host script; they differ in the program it builds
// (pbd.cl / xpbd.cl) and in PbParams::xpbd.
Result<std::unique_ptr<GpuSolver>> makePositionBasedGpu(const ClContext& ctx, const KernelSourceOptions& source,
                                                        ProjectionMode mode) {
  auto solver = PositionBasedGpu::create(ctx, source, mode);
  if (!solver) return solver.error();
  return std::unique_ptr<GpuSolver>(std::move(*solver));
}

}  // namespace

Result<std::unique_ptr<GpuSolver>> makeGpuSolver(SolverKind kind, const ClContext& ctx,
                                                 const KernelSourceOptions& source) {
  Result<std::unique_ptr<GpuSolver>> solver = Error{"unknown solver kind " + std::to_string(int(kind))};
  switch (kind) {
    case SolverKind::Pbd:
      solver = makePositionBasedGpu(ctx, source, ProjectionMode::Pbd);
      break;
    case SolverKind::Xpbd:
      solver = makePositionBasedGpu(ctx, source, ProjectionMode::Xpbd);
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
