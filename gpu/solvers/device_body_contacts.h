#pragma once
// Device twin of core/sim/body_contacts.h: the same arrays with the same
// meaning (slot per surface vertex, per-vertex item lists of K entries), plus
// the fixed surface data the detection kernels read. Part of DeviceState
// (DeviceState::bodyContacts), allocated once per load; detection overwrites
// the contact arrays every substep on the device, nothing is read back.
//
// The five contact arrays are ONE uint buffer, `arrays`, so a kernel takes
// them as one argument (S = slotCount, N = vertexCount_, K = kMaxContactsPerVertex;
// the TL_BC_* macros of shaders/cl/common/layout.clh give the bases):
//
//   ids          uint4 per slot (p, a, b, c); x = kNoContact: none   at 0
//   normal       float4 per slot n, w = thickness (bits)             at 4 S
//   weights      float4 per slot (w0, w1, w2, mu) (bits)             at 8 S
//   vertexCount  uint per vertex                                     at 12 S
//   vertexItems  K uint per vertex, slot * 4 + role                  at 12 S + N
//
// Kernels read the 4-vector sections through cast pointers (each starts on a
// 16-byte boundary); uploadBodyContacts / downloadBodyContacts convert.
#include <cstdint>

#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/body_contacts.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {

struct DeviceBodyContacts {
  // --- per substep (BodyContacts' arrays, packed) ---
  DeviceBuffer<uint32_t> arrays;       // ids | normal | weights | vertexCount | vertexItems (above)
  DeviceBuffer<uint32_t> counters;     // [0] active slots, [1] overflow (BodyContacts::active / overflow)

  // --- fixed per load, for detection ---
  DeviceBuffer<uint32_t> surfaceVertices;     // SimModel::surfaceVertices
  DeviceBuffer<glm::uvec4> surfaceTriangles;  // SimModel::boundaryTriangles (a, b, c) + w = body of the triangle
  DeviceBuffer<glm::vec4> restPositions;      // for the self-collision rest-distance filter

  uint32_t slotCount = 0;      // surfaceVertices.size()
  uint32_t triangleCount = 0;
  uint32_t firstTwoSided = 0;  // SimModel::firstTwoSidedTriangle: cloth triangles from here on
  uint32_t vertexCount_ = 0;   // model vertices (size of the vertexCount section)
};

// Allocates everything for a model; the contact arrays start empty (no contact).
Result<DeviceBodyContacts> createDeviceBodyContacts(const ClContext& ctx, const SimModel& model);

// Writes host contacts to the device (tests, and running solver kernels on
// host-detected contacts). Sizes must match the model the buffers were made for.
Status uploadBodyContacts(const ClContext& ctx, const BodyContacts& host, DeviceBodyContacts& device);

// Reads the device contacts back (tests, diagnostics; never inside a step).
Status downloadBodyContacts(const ClContext& ctx, const DeviceBodyContacts& device, BodyContacts& out);

// Enqueues "no contact anywhere" (the toggle is off, or before the first detection).
cl_int clearDeviceBodyContacts(const ClContext& ctx, DeviceBodyContacts& device);

}  // namespace tetlab
