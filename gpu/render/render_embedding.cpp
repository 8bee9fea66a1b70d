#include "gpu/render/render_embedding.h"

#include <cmath>
#include <string>

#include <glm/geometric.hpp>

#include "gpu/cl/cl_error.h"
#include "gpu/cl/launch.h"

namespace tetlab {

Result<RenderEmbeddingLayout> buildRenderEmbeddingLayout(std::span<const RenderSurfaceInput> surfaces,
                                                         uint32_t simVertexCount) {
  RenderEmbeddingLayout out;
  out.surfaceFirstVertex.push_back(0);
  for (size_t s = 0; s < surfaces.size(); ++s) {
    const std::string where = "render surface " + std::to_string(s);
    const SurfaceEmbedding* e = surfaces[s].embedding;
    if (!e) return Error{where + " has no embedding (build it with embedPoints before the GPU view)"};
    if (e->vertices.size() != e->weights.size())
      return Error{where + ": " + std::to_string(e->vertices.size()) + " vertex id rows but " +
                   std::to_string(e->weights.size()) + " weight rows; rebuild the embedding"};
    const auto first = uint32_t(out.renderVertices.size());
    for (size_t i = 0; i < e->vertices.size(); ++i) {
      const glm::uvec4 v = e->vertices[i];
      if (v.x >= simVertexCount || v.y >= simVertexCount || v.z >= simVertexCount || v.w >= simVertexCount)
        return Error{where + ", render vertex " + std::to_string(i) + ": embedding names a simulation vertex >= " +
                     std::to_string(simVertexCount) + " (embedding built for another model?)"};
      out.renderVertices.push_back(v);
      out.renderWeights.push_back(e->weights[i]);
    }
    const auto n = uint32_t(e->vertices.size());
    for (size_t t = 0; t < surfaces[s].triangles.size(); ++t) {
      const glm::uvec3 tri = surfaces[s].triangles[t];
      if (tri.x >= n || tri.y >= n || tri.z >= n)
        return Error{where + ", triangle " + std::to_string(t) + ": index >= its " + std::to_string(n) +
                     " render vertices"};
      out.renderTriangles.emplace_back(tri.x + first, tri.y + first, tri.z + first, 0u);
    }
    out.surfaceFirstVertex.push_back(first + n);
  }

  // CSR render vertex -> incident triangles (counting sort: triangles stay in
  // order within a row, the same order computeVertexNormals adds them in).
  const size_t vertexCount = out.renderVertices.size();
  out.vertexTrianglesOffsets.assign(vertexCount + 1, 0);
  for (const glm::uvec4& t : out.renderTriangles)
    ++out.vertexTrianglesOffsets[t.x + 1], ++out.vertexTrianglesOffsets[t.y + 1], ++out.vertexTrianglesOffsets[t.z + 1];
  for (size_t i = 0; i < vertexCount; ++i) out.vertexTrianglesOffsets[i + 1] += out.vertexTrianglesOffsets[i];
  out.vertexTrianglesItems.resize(out.vertexTrianglesOffsets.back());
  std::vector<uint32_t> cursor(out.vertexTrianglesOffsets.begin(), out.vertexTrianglesOffsets.end() - 1);
  for (size_t t = 0; t < out.renderTriangles.size(); ++t) {
    const glm::uvec4 tri = out.renderTriangles[t];
    for (uint32_t v : {tri.x, tri.y, tri.z}) out.vertexTrianglesItems[cursor[v]++] = uint32_t(t);
  }
  return out;
}

void applyRenderEmbedding(const RenderEmbeddingLayout& layout, std::span<const glm::vec4> x,
                          std::vector<glm::vec4>& outRender) {
  const size_t n = layout.renderVertices.size();
  outRender.assign(2 * n, glm::vec4(0.0f));
  for (size_t i = 0; i < n; ++i) {
    const glm::uvec4 v = layout.renderVertices[i];
    const glm::vec4 w = layout.renderWeights[i];
    const glm::vec3 p =
        w.x * glm::vec3(x[v.x]) + w.y * glm::vec3(x[v.y]) + w.z * glm::vec3(x[v.z]) + w.w * glm::vec3(x[v.w]);
    outRender[i] = glm::vec4(p, 1.0f);
  }
  for (size_t i = 0; i < n; ++i) {
    glm::vec3 sum(0.0f);
    for (uint32_t k = layout.vertexTrianglesOffsets[i]; k < layout.vertexTrianglesOffsets[i + 1]; ++k) {
      const glm::uvec4 t = layout.renderTriangles[layout.vertexTrianglesItems[k]];
      const glm::vec3 a(outRender[t.x]);
      sum += glm::cross(glm::vec3(outRender[t.y]) - a, glm::vec3(outRender[t.z]) - a);
    }
    const float len = glm::length(sum);
    outRender[n + i] = len > 0.0f ? glm::vec4(sum / len, 0.0f) : glm::vec4(0.0f);
  }
}

Result<RenderEmbedding> RenderEmbedding::create(const ClContext& ctx, std::span<const RenderSurfaceInput> surfaces,
                                                uint32_t simVertexCount, const KernelSourceOptions& kernels) {
  Result<RenderEmbeddingLayout> layout = buildRenderEmbeddingLayout(surfaces, simVertexCount);
  if (!layout) return layout.error();
  if (layout->renderVertices.empty()) return Error{"render embedding: no render vertices (nothing to draw)"};
  auto program =
      KernelProgram::create(ctx, kernels, "cl/render_embed.cl", {"render_embed_vertices", "render_vertex_normals"});
  if (!program) return program.error();
  RenderEmbedding r(std::move(*program));
  const cl_mem_flags ro = CL_MEM_READ_ONLY;
  auto ids = DeviceBuffer<glm::uvec4>::fromHost(ctx.context, ctx.queue, std::span<const glm::uvec4>(layout->renderVertices),
                                                ro, "renderVertices");
  if (!ids) return ids.error();
  auto weights = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue,
                                                   std::span<const glm::vec4>(layout->renderWeights), ro, "renderWeights");
  if (!weights) return weights.error();
  auto tris = DeviceBuffer<glm::uvec4>::fromHost(ctx.context, ctx.queue,
                                                 std::span<const glm::uvec4>(layout->renderTriangles), ro, "renderTriangles");
  if (!tris) return tris.error();
  auto offsets = DeviceBuffer<uint32_t>::fromHost(
      ctx.context, ctx.queue, std::span<const uint32_t>(layout->vertexTrianglesOffsets), ro, "vertexTrianglesOffsets");
  if (!offsets) return offsets.error();
  auto items = DeviceBuffer<uint32_t>::fromHost(ctx.context, ctx.queue,
                                                std::span<const uint32_t>(layout->vertexTrianglesItems), ro,
                                                "vertexTrianglesItems");
  if (!items) return items.error();
  r.renderVertices_ = std::move(*ids);
  r.renderWeights_ = std::move(*weights);
  r.renderTriangles_ = std::move(*tris);
  r.vertexTrianglesOffsets_ = std::move(*offsets);
  r.vertexTrianglesItems_ = std::move(*items);
  r.surfaceFirstVertex_ = std::move(layout->surfaceFirstVertex);
  r.vertexCount_ = uint32_t(layout->renderVertices.size());
  return r;
}

cl_int RenderEmbedding::enqueue(const cl::CommandQueue& queue, const cl::Buffer& x, const cl::Buffer& renderOut) {
  const size_t local = program_.localSize();
  cl::Kernel& embed = program_.kernel(0);
  if (cl_int err = setKernelArgs(embed, renderVertices_, renderWeights_, x, renderOut, vertexCount_); err != CL_SUCCESS)
    return err;
  if (cl_int err = launch1D(queue, embed, vertexCount_, local); err != CL_SUCCESS) return err;
  // A surface without triangles (a point set) has no CSR items: an empty
  // buffer has no cl_mem, so pass the offsets buffer in its place; the kernel
  // never reads an item then (every row is empty).
  const DeviceBuffer<uint32_t>& items = vertexTrianglesItems_.empty() ? vertexTrianglesOffsets_ : vertexTrianglesItems_;
  const DeviceBuffer<glm::uvec4>& tris = renderTriangles_.empty() ? renderVertices_ : renderTriangles_;
  cl::Kernel& normals = program_.kernel(1);
  if (cl_int err = setKernelArgs(normals, renderOut, tris, vertexTrianglesOffsets_, items, vertexCount_);
      err != CL_SUCCESS)
    return err;
  return launch1D(queue, normals, vertexCount_, local);
}

}  // namespace tetlab
