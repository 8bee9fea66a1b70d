#pragma once
// GPU Vertex Block Descent (Chen et al. 2024), the twin of
// core/cpu/vbd_solver.cpp: per substep an initial guess, then per iteration
// one launch per vertex colour (each work-item gathers its vertex's terms
// through the CSR adjacency and takes one 3x3 Newton step), then optional
// Chebyshev over-relaxation. Kernels: shaders/cl/vbd.cl.
#include <memory>

#include "gpu/solvers/gpu_solver.h"
#include "gpu/cl/kernel_source.h"

namespace tetlab {

Result<std::unique_ptr<GpuSolver>> makeVbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source = {});

}  // namespace tetlab
