#pragma once
// One device-resident state shared by all four GPU solvers.
//
// Host State and DeviceState use the same field names (x, xPrev, v,
// xInertial, lambda, penalty), so a kernel argument named `x` is State::x on
// the device. Every buffer is float4/uint4/uint2/scalar: glm::vec3 (12 bytes)
// never crosses the bus. The fixed SimModel is uploaded once per load:
//
//   state (changes)     x xPrev v xInertial : float4 per vertex (x.w = inverse mass)
//                       lambda penalty      : float per constraint (layout: active solver)
//   tets                tets uint4 | DmInv 3 x float4 (columns) | restVolume | tetBody
//   edges               edges uint2 | restLength | edgeVolume
//   vertices            mass | vertexBody | vertexColorOrder
//   adjacency (CSR)     vertexTetsOffsets/Items, vertexEdgesOffsets/Items
//   bodies              none here: each solver family keeps the constants it
//                       derives from SimModel::materials (a MaterialsStamp says
//                       when to re-derive them)
//
// Colour ranges stay on the host (ColorRanges): each colour is one launch with
// (begin, count) arguments, so no device memory is needed for them.
// Switching solver keeps x and v; only lambda/penalty are re-initialised.
#include <cstdint>

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/state.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_body_contacts.h"
#include "gpu/solvers/device_springs.h"

namespace tetlab {

struct DeviceState {
  // --- State (same names as core/sim/state.h) ---
  DeviceBuffer<glm::vec4> x, xPrev, v, xInertial;
  DeviceBuffer<float> lambda, penalty;

  // --- SimModel, fixed per load ---
  DeviceBuffer<float> mass;
  DeviceBuffer<uint32_t> vertexBody;
  DeviceBuffer<glm::uvec4> tets;
  DeviceBuffer<glm::vec4> DmInv;  // 3 per tet: column c of tet t at 3 t + c (w = 0)
  DeviceBuffer<float> restVolume;
  DeviceBuffer<uint32_t> tetBody;
  DeviceBuffer<glm::uvec2> edges;
  DeviceBuffer<float> restLength;
  DeviceBuffer<float> edgeVolume;
  DeviceBuffer<uint32_t> vertexColorOrder;
  DeviceBuffer<uint32_t> vertexTetsOffsets, vertexTetsItems;
  DeviceBuffer<uint32_t> vertexEdgesOffsets, vertexEdgesItems;
  // The wind's elements (packWindElements: cloth triangles, then strand segments
  // with their diameter), each vertex's elements (CSR), and the wind's velocity
  // change of the substep. Empty without cloth or strands.
  DeviceBuffer<glm::uvec4> clothTriangles;
  DeviceBuffer<uint32_t> vertexClothOffsets, vertexClothItems;
  DeviceBuffer<glm::vec4> windDv;
  // Cloth membranes (SimModel::membranes, in membrane-colour order), for the
  // position-based kernels (the VBD family reads its packed copy).
  DeviceBuffer<glm::uvec4> membranes;
  DeviceBuffer<glm::vec4> membraneDmInv;
  DeviceBuffer<float> membraneArea;
  DeviceBuffer<uint32_t> vertexMembranesOffsets;  // CSR, items membrane * 4 + corner (the damping pass)
  DeviceBuffer<uint32_t> vertexMembranesItems;
  // Cloth bending hinges (SimModel::hinges, in hinge-colour order), for the
  // position-based kernels; the VBD family reads its packed copy (vbd_family_gpu.h).
  DeviceBuffer<glm::uvec4> hinges;
  DeviceBuffer<glm::vec4> hingeWeights;
  DeviceBuffer<glm::vec4> hingeRest;
  DeviceBuffer<uint32_t> hingeBody;

  // Motion and separation spheres of the frame (State::spheres), when active.
  DeviceBuffer<glm::vec4> motionStart, motionTarget, separationStart, separationTarget;
  bool spheresActive = false;
  float sphereStiffness = 1.0f;  // per 1/60 s

  // --- anchor springs (State::springs; gpu/solvers/device_springs.h) ---
  DeviceSprings springs;

  // --- body-body contacts of the current substep (gpu/solvers/device_body_contacts.h) ---
  DeviceBodyContacts bodyContacts;

  // --- host-side layout ---
  ColorRanges tetColors, edgeColors, hingeColors, membraneColors, vertexColors;
  // Per vertex: what its body's pins do in the state last uploaded (BodyPins, core/sim/held_bodies.h);
  // the VBD family seeds its v^{t-1} records with it on reset (resetVertexHistory).
  std::vector<uint8_t> heldVertices;
  std::vector<uint32_t> pivotVertices;  // per vertex of a swinging body: its pivot pin (kNoPivot otherwise)
  uint32_t vertexCount = 0, tetCount = 0, edgeCount = 0, bodyCount = 0;

  size_t deviceBytes() const;
};

// Uploads the model and the state (blocking). Errors name the buffer.
Result<DeviceState> createDeviceState(const ClContext& ctx, const SimModel& model, const State& state);

// Re-uploads x, xPrev, v, xInertial, lambda, penalty, the anchor springs and the spheres (sizes must match: lambda
// and penalty may be resized, which reallocates them).
Status uploadState(const ClContext& ctx, const SimModel& model, DeviceState& device, const State& state);

// Reads x, xPrev, v, xInertial, lambda, penalty into `out` (blocking). For
// tests, diagnostics every N frames, and saving; never inside a step.
Status downloadState(const ClContext& ctx, const DeviceState& device, State& out);

// Only positions (picking, UI read-back).
Status downloadPositions(const ClContext& ctx, const DeviceState& device, std::vector<glm::vec4>& outX);
// Uploads the frame's spheres (allocating on first use); inactive targets switch them off.
Status uploadSpheres(const ClContext& ctx, DeviceState& device, const SphereTargets& spheres);
// Writes x = (position, w = 0) of pinned vertices (sorted or not), one
// blocking write per run of consecutive ids: a few writes for a pinned edge.
Status writeKinematicPositions(const ClContext& ctx, DeviceState& device, std::span<const uint32_t> vertices,
                               std::span<const glm::vec3> positions);

// Re-allocates lambda/penalty for the active solver and fills them with 0 / value.
Status resetConstraintData(const ClContext& ctx, DeviceState& device, size_t lambdaCount, size_t penaltyCount,
                           float penaltyValue);

}  // namespace tetlab
