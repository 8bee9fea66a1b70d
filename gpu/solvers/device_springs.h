#pragma once
// The anchor springs (core/sim/anchor_springs.h) on the device: what the
// per-colour solve kernels of all four solvers read, and the gathered
// positions the host's end-of-frame break check reads back.
//
//   topology   uint    CSR offsets (vertexCount + 1) | items (sub-springs)
//   anchor     float4  per sub-spring (a_j, L)
//   stiffness  float   per sub-spring (0 once broken: re-uploaded on a break)
//   lambda     float   per sub-spring (XPBD multipliers; PBD's stiffness factor)
//   vertex     uint    per sub-spring, for the gather
//   gathered   float4  per sub-spring, x[vertex[j]] after the frame (step_gather_springs)
//
// With no springs every buffer still holds one element, so kernel arguments
// are always valid; `count` is 0 and no solver sets the springs' term.
#include <cstdint>

#include <glm/vec4.hpp>

#include "core/result.h"
#include "core/sim/anchor_springs.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {

struct DeviceSprings {
  DeviceBuffer<uint32_t> topology;
  DeviceBuffer<glm::vec4> anchor;
  DeviceBuffer<float> stiffness;
  DeviceBuffer<float> lambda;
  DeviceBuffer<uint32_t> vertex;
  DeviceBuffer<glm::vec4> gathered;
  uint32_t count = 0;        // sub-springs
  uint64_t revision = 0;     // AnchorSprings::revision of the stiffness uploaded
  bool any() const { return count > 0; }
};

// (Re)allocates and uploads every buffer from the host springs (blocking).
Status uploadSprings(const ClContext& ctx, uint32_t vertexCount, const AnchorSprings& springs, DeviceSprings& out);
// Uploads only the stiffness when the host's revision moved on (a break, a reset).
Status updateSpringStiffness(const ClContext& ctx, const AnchorSprings& springs, DeviceSprings& device);

}  // namespace tetlab
