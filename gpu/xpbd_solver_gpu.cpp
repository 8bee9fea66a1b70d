// XPBD on the device: xpbd.cl (the shared position-based kernels with the
// XPBD multiplier step) driven by the shared script in position_based_gpu.cpp.
#include "gpu/xpbd_solver_gpu.h"

#include "gpu/position_based_gpu.h"

namespace tetlab {

Result<std::unique_ptr<GpuSolver>> makeXpbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source) {
  auto solver = PositionBasedGpu::create(ctx, source, ProjectionMode::Xpbd);
  if (!solver) return solver.error();
  return std::unique_ptr<GpuSolver>(std::move(*solver));
}

}  // namespace tetlab
