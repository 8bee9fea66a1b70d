#pragma once
// GPU Extended Position Based Dynamics (Macklin et al. 2016) with multipliers
// in DeviceState::lambda, cleared every substep. Twin of core/cpu/xpbd_solver.h.
#include <memory>

#include "gpu/gpu_solver.h"
#include "gpu/kernel_source.h"

namespace tetlab {

Result<std::unique_ptr<GpuSolver>> makeXpbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source = {});

}  // namespace tetlab
