#pragma once
// The energy of the device state without downloading it: three reduction
// kernels (shaders/cl/energy.cl) add kinetic, gravitational and elastic energy
// into a fixed, small number of per-group partial sums, and one blocking read
// of those partials (a few KB at most, whatever the mesh size) replaces the
// full state download + computeEnergy (core/sim/energy.cpp, the CPU twin, whose
// per-element math is the same .clh code). So the sandbox can plot the energy
// of an OpenCL run every frame.
//
//   queue: ... step(s) ─► energy_vertices ─► energy_tets ─► energy_edges ─► read partials ─► sum in double
//
// Material constants (Neo-Hookean mu/lambda, Lame lambda, E, Lame mu per
// body; spring stiffness per edge) are computed on the host exactly as
// computeEnergy does and uploaded only when SimModel::materials changed.
// compute() blocks on the queue: call it between steps (after a step's enqueue
// is fine, the queue is in order), never from inside one.
#include <cstdint>
#include <vector>

#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/diagnostics.h"
#include "core/sim/solver_settings.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_state.h"
#include "gpu/cl/kernel_program.h"

namespace tetlab {

// Bits of energy_tets' `terms` argument (ENERGY_TERM_* in shaders/cl/energy.cl).
enum EnergyTerm : uint32_t {
  kEnergyTermNeoHookean = 1u,
  kEnergyTermTetVolume = 2u,
  kEnergyTermStrain = 4u,
};

// energy_tets' and energy_edges' `probe` argument (EnergyProbe in shaders/cl/energy.cl).
struct EnergyProbe {
  uint32_t measure = 0;        // 1: measure XPBD's compliant constraints with the device's multipliers
  float invH2 = 0.0f;          // 1 / h^2 of the last substep [1/s^2]
  float complianceScale = 1.0f;
};
static_assert(sizeof(EnergyProbe) == 12, "EnergyProbe must match the OpenCL struct");

class DeviceEnergy {
 public:
  // Work-group size we ask for (a power of two); smaller when the device or the
  // built kernels allow less.
  static constexpr uint32_t kPreferredGroupSize = 128;
  // Groups per kernel at most: the read is 5 x kMaxGroups float4 (5 KB) at most.
  static constexpr uint32_t kMaxGroups = 64;

  // Builds the kernels for `model` (its sizes and materials). Fails with the
  // compiler log, or when the device cannot run a group of 2+ work-items.
  static Result<DeviceEnergy> create(const ClContext& ctx, const SimModel& model,
                                     const KernelSourceOptions& kernels = {});

  // Enqueues the reductions on ctx.queue after whatever is queued, reads the
  // partials (blocking) and sums them in double. `device` must hold `model`;
  // the materials are re-uploaded first when they changed since the last call.
  Result<EnergyReport> compute(const ClContext& ctx, const DeviceState& device, const SimModel& model,
                               const SolverSettings& settings);

  // Live kernel editing (folder-backed kernels only); lastError() holds the log of a failed rebuild.
  HotProgram::PollResult poll() { return program_.poll(); }
  const std::string& lastError() const { return program_.lastError(); }

  uint32_t groupSize() const { return groupSize_; }
  // Groups launched for `count` items, and items each work-item adds in sequence
  // before the tree (the tests' rounding bound needs both).
  uint32_t groupsFor(uint32_t count) const;
  uint32_t itemsPerWorkItem(uint32_t count) const;
  // Bytes the last compute() read back.
  size_t lastReadBytes() const { return partialsHost_.size() * sizeof(glm::vec4); }

 private:
  explicit DeviceEnergy(KernelProgram program) : program_(std::move(program)) {}
  Status uploadMaterials(const ClContext& ctx, const SimModel& model, SpringChoice edgeSprings);

  KernelProgram program_;
  uint32_t groupSize_ = 0;
  DeviceBuffer<glm::vec4> energyBodies_;        // 2 per body (layout in energy.cl)
  DeviceBuffer<float> energyEdgeStiffness_;     // per edge: k_e [N/m]
  DeviceBuffer<glm::vec4> partials_;            // 5 x kMaxGroups (one block per kernel)
  MaterialsStamp materialsStamp_;               // which materials the body constants were packed from
  SpringChoice edgeSprings_;                     // the spring toggles the edge stiffness was packed with
  std::vector<glm::vec4> bodiesHost_;
  std::vector<float> stiffnessHost_;
  std::vector<glm::vec4> partialsHost_;
};

}  // namespace tetlab
