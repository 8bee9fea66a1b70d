#include "gpu/solvers/device_tethers.h"

#include "core/cpu/constraints_setup.h"
#include "gpu/cl/launch.h"

namespace tetlab {

Status DeviceTethers::reset(const ClContext& ctx, const SimModel& model, const DeviceState& state) {
  // Which vertices are pinned (w == 0) is all the tethers need from x.
  if (Status st = downloadPositions(ctx, state, pinnedX_); !st) return st;
  return build(ctx, model, 0.0f);
}

Status DeviceTethers::refresh(const ClContext& ctx, const SimModel& model, float slack) {
  return slack == slack_ ? Status(Ok{}) : build(ctx, model, slack);
}

Status DeviceTethers::build(const ClContext& ctx, const SimModel& model, float slack) {
  State pins;
  pins.x = pinnedX_;
  std::vector<uint32_t> anchor;
  std::vector<float> length;
  buildTethers(model, pins, slack, anchor, length);
  slack_ = slack;
  any_ = false;
  for (uint32_t a : anchor) any_ = any_ || a != ~0u;
  if (!any_) return Ok{};
  auto a = DeviceBuffer<uint32_t>::fromHost(ctx.context, ctx.queue, anchor, CL_MEM_READ_ONLY, "tether anchors");
  if (!a) return a.error();
  auto l = DeviceBuffer<float>::fromHost(ctx.context, ctx.queue, length, CL_MEM_READ_ONLY, "tether lengths");
  if (!l) return l.error();
  anchor_ = std::move(*a);
  length_ = std::move(*l);
  return Ok{};
}

cl_int DeviceTethers::enqueue(const cl::CommandQueue& queue, cl::Kernel& kernel, DeviceState& state, size_t local,
                              cl::Event* event) const {
  if (!any_) return CL_SUCCESS;
  cl_int e = setKernelArgs(kernel, state.vertexCount, state.x, anchor_, length_);
  return e == CL_SUCCESS ? launch1D(queue, kernel, state.vertexCount, local, event) : e;
}

}  // namespace tetlab
