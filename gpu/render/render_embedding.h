#pragma once
// The drawn surfaces on the device: after a step, render vertices are
// computed from DeviceState::x where x already lives, so the frame needs no
// host read-back of x and no CPU embedding (core/mesh/embedding.h is the CPU
// twin and the tests compare them).
//
// All bodies' surfaces are concatenated, in the order given:
//
//   render vertex:  | surface 0 ........ | surface 1 ..... |    ids uint4 + weights float4 each
//   triangles:      | surface 0 (+0)     | surface 1 (+n0) |    uint4 (w unused), offset to the concatenation
//
// and written into one float4 destination of 2 x renderVertexCount() entries
// (positions, then normals; see shaders/cl/render_embed.cl). The destination
// is whatever cl::Buffer the caller passes: a plain CL buffer (copy path) or
// one created from the GL vertex buffer (shared path, app/render/gl_interop.h).
#include <cstdint>
#include <span>
#include <vector>

#include <CL/opencl.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/mesh/embedding.h"
#include "core/result.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"
#include "gpu/cl/kernel_program.h"

namespace tetlab {

// One drawn surface: its embedding (ids are simulation vertex ids) and its
// triangles over its own render vertices.
struct RenderSurfaceInput {
  const SurfaceEmbedding* embedding = nullptr;
  std::span<const glm::uvec3> triangles;
};

// Host-side layout of the concatenation, built once per load (pure, tested).
struct RenderEmbeddingLayout {
  std::vector<glm::uvec4> renderVertices;  // per render vertex: simulation vertex ids
  std::vector<glm::vec4> renderWeights;    // per render vertex: barycentric weights
  std::vector<glm::uvec4> renderTriangles; // concatenated, offset by each surface's first vertex
  std::vector<uint32_t> vertexTrianglesOffsets, vertexTrianglesItems;  // CSR render vertex -> triangle
  std::vector<uint32_t> surfaceFirstVertex;  // per surface, plus the total at the end
};

// Fails when an embedding is missing, ids/weights sizes differ, an id is not
// below simVertexCount, or a triangle index is not below its surface's vertex count.
Result<RenderEmbeddingLayout> buildRenderEmbeddingLayout(std::span<const RenderSurfaceInput> surfaces,
                                                         uint32_t simVertexCount);

class RenderEmbedding {
 public:
  static Result<RenderEmbedding> create(const ClContext& ctx, std::span<const RenderSurfaceInput> surfaces,
                                        uint32_t simVertexCount, const KernelSourceOptions& kernels = {});

  // Enqueues positions then normals into renderOut (>= outputBytes()), reading
  // x (DeviceState::x). No host read-back, no wait: the caller's queue order
  // (after the step, before the read / release) is the synchronisation.
  cl_int enqueue(const cl::CommandQueue& queue, const cl::Buffer& x, const cl::Buffer& renderOut);

  uint32_t renderVertexCount() const { return vertexCount_; }
  size_t outputBytes() const { return size_t(2) * vertexCount_ * sizeof(glm::vec4); }
  // Byte offsets of the two halves of the destination (for GL attribute pointers).
  size_t positionsOffsetBytes() const { return 0; }
  size_t normalsOffsetBytes() const { return size_t(vertexCount_) * sizeof(glm::vec4); }
  // First render vertex of surface i (i == surface count gives the total).
  uint32_t surfaceFirstVertex(size_t i) const { return surfaceFirstVertex_[i]; }
  size_t surfaceCount() const { return surfaceFirstVertex_.size() - 1; }
  std::span<const uint32_t> surfaceFirstVertices() const { return surfaceFirstVertex_; }

  // Live kernel editing (folder-backed kernels only).
  HotProgram::PollResult poll() { return program_.poll(); }

 private:
  explicit RenderEmbedding(KernelProgram program) : program_(std::move(program)) {}

  KernelProgram program_;
  DeviceBuffer<glm::uvec4> renderVertices_;
  DeviceBuffer<glm::vec4> renderWeights_;
  DeviceBuffer<glm::uvec4> renderTriangles_;
  DeviceBuffer<uint32_t> vertexTrianglesOffsets_, vertexTrianglesItems_;
  std::vector<uint32_t> surfaceFirstVertex_;
  uint32_t vertexCount_ = 0;
};

// Host twin of the two kernels, in the destination layout (positions then
// normals, float4): applyEmbedding + computeVertexNormals over the concatenation.
void applyRenderEmbedding(const RenderEmbeddingLayout& layout, std::span<const glm::vec4> x,
                          std::vector<glm::vec4>& outRender);

}  // namespace tetlab
