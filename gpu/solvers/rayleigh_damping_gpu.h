#pragma once
// The Rayleigh material damping pass on the device (shaders/cl/rayleigh_damping.cl),
// the twin of core/sim/rayleigh_damping.h: GpuStepper enqueues it once per
// frame after the substeps, for every solver. Conjugate gradients with the
// scalars on the device: the host enqueues settings.rayleigh.maxIterations
// rounds and reads nothing; the kernels stop themselves on convergence.
#include <string>
#include <vector>

#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/rayleigh_damping.h"
#include "core/sim/step_settings.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"
#include "gpu/cl/kernel_program.h"
#include "gpu/cl/kernel_source.h"
#include "gpu/cl/profiler.h"
#include "gpu/solvers/device_state.h"

namespace tetlab {

// Work-group size of rd_scalars, the one reduction (RD_GROUP in rayleigh_damping.cl).
inline constexpr uint32_t kRayleighGroupSize = 64;

class RayleighDampingGpu {
 public:
  static Result<RayleighDampingGpu> create(const ClContext& ctx, const KernelSourceOptions& source = {});

  // Enqueues the pass on state.v (nothing when no body has k_d > 0). Uploads
  // the material constants when they changed (blocking, so only on an edit).
  Status enqueue(const ClContext& ctx, const SimModel& model, const StepSettings& step, DeviceState& state,
                 Profiler& profiler);
  // How the last enqueued pass went (blocking read of a few floats).
  Result<RayleighDampingReport> readReport(const ClContext& ctx) const;

  std::string pollKernels();

 private:
  enum Kernel : size_t { kTets, kBegin, kProduct, kUpdate, kScalars, kDirection, kFinish };
  explicit RayleighDampingGpu(KernelProgram program) : program_(std::move(program)) {}
  Status prepare(const ClContext& ctx, const SimModel& model, const DeviceState& state, SpringChoice edgeSprings);

  KernelProgram program_;
  DeviceBuffer<glm::vec4> bodies_, dv_, r_, p_, q_, corner_;
  DeviceBuffer<float> edgeStiffness_, terms_, scalars_;
  std::vector<glm::vec4> hostBodies_;  // packed from the materials materialsStamp_ names
  MaterialsStamp materialsStamp_;      // which materials bodies_ / edgeStiffness_ hold
  SpringChoice edgeSprings_;            // the spring toggles edgeStiffness_ was packed with
  bool anyDamped_ = false;             // some body of hostBodies_ has k_d > 0
  bool applied_ = false;  // the last enqueue ran a pass
};

}  // namespace tetlab
