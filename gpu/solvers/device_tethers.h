#pragma once
// The tethers (long-range attachments, shaders/cl/common/tether.clh) of the VBD
// family on the device: per vertex the anchor and the max length, built by
// buildTethers (core/cpu/constraints_setup.h) from the pinned set read back at
// reset and rebuilt when the slack changes, then projected by vbd_tethers
// (shaders/cl/vbd_vertex.clh) after a substep's solve, as the CPU solvers do.
#include <cstdint>
#include <vector>

#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_state.h"

namespace tetlab {

class DeviceTethers {
 public:
  // Reads x once (which vertices are pinned) and builds the tethers at no slack.
  Status reset(const ClContext& ctx, const SimModel& model, const DeviceState& state);
  // Rebuilds them when the slack changed since the last build.
  Status refresh(const ClContext& ctx, const SimModel& model, float slack);
  // Some vertex has an anchor (the model has pins).
  bool any() const { return any_; }
  // vbd_tethers(count, x, anchor, maxLength) over every vertex.
  cl_int enqueue(const cl::CommandQueue& queue, cl::Kernel& kernel, DeviceState& state, size_t local,
                 cl::Event* event) const;

 private:
  Status build(const ClContext& ctx, const SimModel& model, float slack);

  std::vector<glm::vec4> pinnedX_;  // x as read at reset (w = 0: pinned)
  float slack_ = 0.0f;
  bool any_ = false;
  DeviceBuffer<uint32_t> anchor_;
  DeviceBuffer<float> length_;
};

}  // namespace tetlab
