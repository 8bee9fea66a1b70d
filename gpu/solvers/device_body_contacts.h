#pragma once
// Device twin of core/sim/body_contacts.h: the same arrays with the same
// meaning (slot per surface vertex, per-vertex item lists of K entries), plus
// the fixed surface data the detection kernels read. Part of DeviceState
// (DeviceState::bodyContacts), allocated once per load; detection overwrites
// the contact arrays every substep on the device, nothing is read back.
#include <cstdint>

#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/body_contacts.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {

struct DeviceBodyContacts {
  // --- per substep (same names as BodyContacts) ---
  DeviceBuffer<glm::uvec4> ids;        // per slot (p, a, b, c); x = kNoContact: none
  DeviceBuffer<glm::vec4> normal;      // per slot n, w = thickness
  DeviceBuffer<glm::vec4> weights;     // per slot (w0, w1, w2, mu)
  DeviceBuffer<uint32_t> vertexCount;  // per vertex
  DeviceBuffer<uint32_t> vertexItems;  // per vertex, kMaxContactsPerVertex items slot * 4 + role
  DeviceBuffer<uint32_t> counters;     // [0] active slots, [1] overflow (BodyContacts::active / overflow)

  // --- fixed per load, for detection ---
  DeviceBuffer<uint32_t> surfaceVertices;     // SimModel::surfaceVertices
  DeviceBuffer<glm::uvec4> surfaceTriangles;  // SimModel::boundaryTriangles (a, b, c) + w = body of the triangle
  DeviceBuffer<glm::vec4> restPositions;      // for the self-collision rest-distance filter

  uint32_t slotCount = 0;      // surfaceVertices.size()
  uint32_t triangleCount = 0;
  uint32_t vertexCount_ = 0;   // model vertices (vertexCount buffer size)
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
