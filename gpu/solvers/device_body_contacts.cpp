#include "gpu/solvers/device_body_contacts.h"

#include <cstring>
#include <string>
#include <vector>

#include "gpu/cl/cl_error.h"

namespace tetlab {
namespace {

// OpenCL forbids zero-sized buffers; a model without surface (impossible for a
// closed tet mesh, but cheap to guard) gets one dummy element.
template <class T>
Status makeSized(const ClContext& ctx, DeviceBuffer<T>& out, size_t count, const char* name) {
  auto b = DeviceBuffer<T>::create(ctx.context, count > 0 ? count : 1, CL_MEM_READ_WRITE, name);
  if (!b) return b.error();
  out = std::move(*b);
  return Ok{};
}

template <class T>
Status makeFrom(const ClContext& ctx, DeviceBuffer<T>& out, const std::vector<T>& data, const char* name) {
  if (data.empty()) return makeSized(ctx, out, 1, name);
  auto b = DeviceBuffer<T>::fromHost(ctx.context, ctx.queue, data, CL_MEM_READ_ONLY, name);
  if (!b) return b.error();
  out = std::move(*b);
  return Ok{};
}

template <class T>
Status readAll(const ClContext& ctx, const DeviceBuffer<T>& buf, size_t count, std::vector<T>& out, const char* name) {
  out.resize(count);
  if (count == 0) return Ok{};
  return clCheck(buf.download(ctx.queue, std::span<T>(out.data(), count)), std::string("reading back ") + name);
}

// Array <-> section of the packed uint buffer, bit for bit.
template <class T>
void copyBits(const std::vector<T>& from, std::vector<uint32_t>& packed, size_t base) {
  if (!from.empty()) std::memcpy(packed.data() + base, from.data(), from.size() * sizeof(T));
}
template <class T>
void copyBits(const std::vector<uint32_t>& packed, size_t base, std::vector<T>& to) {
  if (!to.empty()) std::memcpy(to.data(), packed.data() + base, to.size() * sizeof(T));
}

}  // namespace

Result<DeviceBodyContacts> createDeviceBodyContacts(const ClContext& ctx, const SimModel& model) {
  DeviceBodyContacts d;
  d.slotCount = uint32_t(model.surfaceVertices.size());
  d.triangleCount = uint32_t(model.boundaryTriangles.size());
  d.firstTwoSided = model.firstTwoSidedTriangle();
  d.vertexCount_ = model.vertexCount();

  std::vector<glm::uvec4> triangles(model.boundaryTriangles.size());
  for (size_t t = 0; t < triangles.size(); ++t) {
    const glm::uvec3 tri = model.boundaryTriangles[t];
    triangles[t] = glm::uvec4(tri, model.vertexBody[tri.x]);
  }
  std::vector<glm::vec4> rest(model.restPositions.size());
  for (size_t i = 0; i < rest.size(); ++i) rest[i] = glm::vec4(model.restPositions[i], 0.0f);

  Status st = Ok{};
  auto step = [&](Status s) {
    if (st && !s) st = std::move(s);
  };
  step(makeSized(ctx, d.arrays, TL_BC_ARRAYS_SIZE(size_t(d.slotCount), size_t(d.vertexCount_)),
                 "bodyContacts.arrays"));
  step(makeSized(ctx, d.counters, 2, "bodyContacts.counters"));
  step(makeFrom(ctx, d.surfaceVertices, model.surfaceVertices, "bodyContacts.surfaceVertices"));
  step(makeFrom(ctx, d.surfaceTriangles, triangles, "bodyContacts.surfaceTriangles"));
  step(makeFrom(ctx, d.restPositions, rest, "bodyContacts.restPositions"));
  if (!st) return st.error();
  if (cl_int err = clearDeviceBodyContacts(ctx, d); err != CL_SUCCESS)
    return clCheck(err, "clearing body contacts").error();
  return d;
}

cl_int clearDeviceBodyContacts(const ClContext& ctx, DeviceBodyContacts& d) {
  cl_int err = d.arrays.fill(ctx.queue, kNoContact, 0, 4 * size_t(d.slotCount));  // ids
  if (err == CL_SUCCESS) err = d.arrays.fill(ctx.queue, 0u, TL_BC_VERTEX_COUNT_BASE(size_t(d.slotCount)), d.vertexCount_);
  if (err == CL_SUCCESS) err = d.counters.fill(ctx.queue, 0u);
  return err;
}

Status uploadBodyContacts(const ClContext& ctx, const BodyContacts& host, DeviceBodyContacts& d) {
  if (host.ids.size() != d.slotCount || host.vertexCount.size() != d.vertexCount_ ||
      host.vertexItems.size() != size_t(d.vertexCount_) * kMaxContactsPerVertex)
    return Error{"body contact upload: host arrays have " + std::to_string(host.ids.size()) + " slots and " +
                 std::to_string(host.vertexCount.size()) + " vertices, the device buffers " +
                 std::to_string(d.slotCount) + " and " + std::to_string(d.vertexCount_) +
                 ": size them with resizeBodyContacts for the same model"};
  const uint32_t counters[2] = {host.active, host.overflow};
  const size_t slots = d.slotCount, n = d.vertexCount_;
  std::vector<uint32_t> packed(TL_BC_ARRAYS_SIZE(slots, n));
  copyBits(host.ids, packed, 0);
  copyBits(host.normal, packed, TL_BC_NORMAL_BASE(slots));
  copyBits(host.weights, packed, TL_BC_WEIGHTS_BASE(slots));
  copyBits(host.vertexCount, packed, TL_BC_VERTEX_COUNT_BASE(slots));
  copyBits(host.vertexItems, packed, TL_BC_VERTEX_ITEMS_BASE(slots, n));
  for (auto s : {clCheck(d.arrays.upload(ctx.queue, packed), "uploading bodyContacts.arrays"),
                 clCheck(d.counters.upload(ctx.queue, std::span<const uint32_t>(counters, 2)),
                         "uploading bodyContacts.counters")})
    if (!s) return s;
  return Ok{};
}

Status downloadBodyContacts(const ClContext& ctx, const DeviceBodyContacts& d, BodyContacts& out) {
  std::vector<uint32_t> counters, packed;
  const size_t slots = d.slotCount, n = d.vertexCount_;
  for (auto s : {readAll(ctx, d.arrays, TL_BC_ARRAYS_SIZE(slots, n), packed, "bodyContacts.arrays"),
                 readAll(ctx, d.counters, 2, counters, "bodyContacts.counters")})
    if (!s) return s;
  out.ids.resize(slots);
  out.normal.resize(slots);
  out.weights.resize(slots);
  out.vertexCount.resize(n);
  out.vertexItems.resize(n * kMaxContactsPerVertex);
  copyBits(packed, 0, out.ids);
  copyBits(packed, TL_BC_NORMAL_BASE(slots), out.normal);
  copyBits(packed, TL_BC_WEIGHTS_BASE(slots), out.weights);
  copyBits(packed, TL_BC_VERTEX_COUNT_BASE(slots), out.vertexCount);
  copyBits(packed, TL_BC_VERTEX_ITEMS_BASE(slots, n), out.vertexItems);
  out.active = counters[0];
  out.overflow = counters[1];
  return Ok{};
}

}  // namespace tetlab
