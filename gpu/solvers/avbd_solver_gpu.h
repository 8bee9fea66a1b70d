#pragma once
// GPU Augmented Vertex Block Descent (Giles et al. 2025), the twin of
// core/cpu/avbd_solver.cpp: VBD's per-colour primal step plus the
// augmented-Lagrangian rows (edges, mouse, pins, contacts with friction) whose
// multipliers and penalties live in DeviceState::lambda / penalty in the CPU's
// layout (AvbdLayout). Kernels: shaders/cl/avbd.cl.
#include <memory>

#include "gpu/solvers/gpu_solver.h"
#include "gpu/cl/kernel_source.h"

namespace tetlab {

Result<std::unique_ptr<GpuSolver>> makeAvbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source = {});

}  // namespace tetlab
