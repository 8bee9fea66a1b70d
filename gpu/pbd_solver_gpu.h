#pragma once
// GPU Position Based Dynamics (Mueller et al. 2007): Gauss-Seidel over element
// colours, or averaged Jacobi with an atomics-free per-vertex gather
// (PbdParams::scheme). Twin of core/cpu/pbd_solver.h.
#include <memory>

#include "gpu/gpu_solver.h"
#include "gpu/kernel_source.h"

namespace tetlab {

Result<std::unique_ptr<GpuSolver>> makePbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source = {});

}  // namespace tetlab
