#include "gpu/solvers/device_springs.h"

#include <vector>

#include "gpu/cl/cl_error.h"

namespace tetlab {

namespace {

template <class T>
Status fill(const ClContext& ctx, DeviceBuffer<T>& out, std::vector<T> data, const char* name) {
  if (data.empty()) data.resize(1, T{});  // a valid argument even with no springs
  auto b = DeviceBuffer<T>::fromHost(ctx.context, ctx.queue, std::span<const T>(data), CL_MEM_READ_WRITE, name);
  if (!b) return b.error();
  out = std::move(*b);
  return Ok{};
}

}  // namespace

Status uploadSprings(const ClContext& ctx, uint32_t vertexCount, const AnchorSprings& springs, DeviceSprings& out) {
  out.count = springs.subCount();
  out.revision = springs.revision;
  std::vector<uint32_t> topology;
  if (out.count > 0) {
    if (springs.vertexSprings.offsets.size() != size_t(vertexCount) + 1)
      return Error{"anchor springs: built for " + std::to_string(springs.vertexSprings.offsets.size() - 1) +
                   " vertices but the device state has " + std::to_string(vertexCount)};
    topology = springs.vertexSprings.offsets;
    topology.insert(topology.end(), springs.vertexSprings.items.begin(), springs.vertexSprings.items.end());
  }
  for (Status s : {fill(ctx, out.topology, topology, "springTopology"), fill(ctx, out.anchor, springs.anchor, "springAnchor"),
                   fill(ctx, out.stiffness, springs.stiffness, "springStiffness"),
                   fill(ctx, out.lambda, std::vector<float>(out.count, 0.0f), "springLambda"),
                   fill(ctx, out.vertex, springs.vertex, "springVertex"),
                   fill(ctx, out.gathered, std::vector<glm::vec4>(out.count), "springGathered")})
    if (!s) return s;
  return Ok{};
}

Status updateSpringStiffness(const ClContext& ctx, const AnchorSprings& springs, DeviceSprings& device) {
  if (device.revision == springs.revision || springs.subCount() != device.count || device.count == 0) return Ok{};
  if (Status s = clCheck(device.stiffness.upload(ctx.queue, springs.stiffness), "uploading the spring stiffness"); !s)
    return s;
  device.revision = springs.revision;
  return Ok{};
}

}  // namespace tetlab
