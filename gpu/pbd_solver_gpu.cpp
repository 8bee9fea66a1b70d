// PBD differs from XPBD on the device only in pbd.cl's multiplier step and
// its Jacobi kernels; the enqueue script is shared (position_based_gpu.cpp).
#include "gpu/pbd_solver_gpu.h"

#include "gpu/position_based_gpu.h"

namespace tetlab {

Result<std::unique_ptr<GpuSolver>> makePbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source) {
  auto solver = PositionBasedGpu::create(ctx, source, ProjectionMode::Pbd);
  if (!solver) return solver.error();
  return std::unique_ptr<GpuSolver>(std::move(*solver));
}

}  // namespace tetlab
