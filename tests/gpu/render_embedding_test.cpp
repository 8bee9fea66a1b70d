// Render embedding on the device vs its CPU twin (core/mesh/embedding.h).
// The tets are deformed by a generic affine map x -> A x + b; barycentric
// interpolation reproduces affine maps exactly, so the kernel's positions must
// equal applyEmbedding's to float rounding (1e-6 relative to the coordinate
// size: a 4-term weighted sum is a few ulps) and A p + b to the embedding's
// own accuracy. Normals are compared to computeVertexNormals with a bound
// from the cancellation in an edge vector (coordinate rounding / edge length).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat3x3.hpp>

#include "core/mesh/embedding.h"
#include "core/model/generators.h"
#include "gpu/render/render_embedding.h"
#include "gpu_test_context.h"
#include "tests/core/mesh_test_util.h"

namespace tetlab {
namespace {

struct AffineScene {
  TetMesh tets;
  std::vector<SurfaceMesh> surfaces;
  std::vector<SurfaceEmbedding> embeddings;
  std::vector<glm::vec4> x;  // deformed tet vertices, w = an inverse mass the kernel must ignore
  glm::mat3 A{1.0f};
  glm::vec3 b{0.0f};
};

AffineScene makeScene() {
  AffineScene s;
  s.tets = makeBoxTetMesh(glm::vec3(0.0f), glm::vec3(1.0f), glm::uvec3(3, 3, 3));
  // Two bodies' surfaces: one partly outside the box (extrapolated weights), one inside.
  s.surfaces.push_back(test::makeSphere(glm::vec3(0.5f), 0.55f, 10, 20));
  s.surfaces.push_back(test::makeSphere(glm::vec3(0.4f, 0.5f, 0.6f), 0.2f, 6, 12));
  for (const SurfaceMesh& m : s.surfaces) {
    Result<SurfaceEmbedding> e = embedPoints(s.tets, m.positions);
    EXPECT_TRUE(e.ok()) << e.error().message;
    s.embeddings.push_back(e.ok() ? std::move(*e) : SurfaceEmbedding{});
  }
  const glm::mat3 R = glm::mat3(glm::rotate(glm::mat4(1.0f), 0.9f, glm::normalize(glm::vec3(2, -1, 3))));
  glm::mat3 S(1.0f);
  S[0][0] = 1.4f;
  S[1][1] = 0.7f;
  S[2][1] = 0.3f;  // shear
  s.A = R * S;
  s.b = glm::vec3(2.0f, -1.0f, 3.0f);
  for (const glm::vec3& p : s.tets.positions) s.x.emplace_back(s.A * p + s.b, 0.5f);
  return s;
}

std::vector<RenderSurfaceInput> inputsOf(const AffineScene& s) {
  std::vector<RenderSurfaceInput> in;
  for (size_t i = 0; i < s.surfaces.size(); ++i) in.push_back({&s.embeddings[i], s.surfaces[i].triangles});
  return in;
}

TEST(RenderEmbedding, LayoutConcatenatesSurfacesAndBuildsTriangleCsr) {
  const AffineScene s = makeScene();
  const auto in = inputsOf(s);
  Result<RenderEmbeddingLayout> layout = buildRenderEmbeddingLayout(in, uint32_t(s.tets.positions.size()));
  ASSERT_TRUE(layout.ok()) << layout.error().message;
  const size_t n0 = s.surfaces[0].positions.size(), n1 = s.surfaces[1].positions.size();
  ASSERT_EQ(layout->surfaceFirstVertex, (std::vector<uint32_t>{0, uint32_t(n0), uint32_t(n0 + n1)}));
  ASSERT_EQ(layout->renderTriangles.size(), s.surfaces[0].triangles.size() + s.surfaces[1].triangles.size());
  const glm::uvec3 t = s.surfaces[1].triangles[0];
  EXPECT_EQ(layout->renderTriangles[s.surfaces[0].triangles.size()], glm::uvec4(t + uint32_t(n0), 0u));
  // Every triangle appears once in each of its three vertices' rows.
  EXPECT_EQ(layout->vertexTrianglesItems.size(), 3 * layout->renderTriangles.size());
  for (size_t v = 0; v < n0 + n1; ++v)
    for (uint32_t k = layout->vertexTrianglesOffsets[v]; k < layout->vertexTrianglesOffsets[v + 1]; ++k) {
      const glm::uvec4 tri = layout->renderTriangles[layout->vertexTrianglesItems[k]];
      EXPECT_TRUE(tri.x == v || tri.y == v || tri.z == v);
    }
}

TEST(RenderEmbedding, LayoutRejectsIdsOutsideTheModelAndBadTriangles) {
  AffineScene s = makeScene();
  auto in = inputsOf(s);
  Result<RenderEmbeddingLayout> small = buildRenderEmbeddingLayout(in, 4);
  ASSERT_FALSE(small.ok());
  EXPECT_NE(small.error().message.find("simulation vertex"), std::string::npos) << small.error().message;
  std::vector<glm::uvec3> bad = {glm::uvec3(0, 1, uint32_t(s.surfaces[0].positions.size()))};
  in[0].triangles = bad;
  Result<RenderEmbeddingLayout> badTri = buildRenderEmbeddingLayout(in, uint32_t(s.tets.positions.size()));
  ASSERT_FALSE(badTri.ok());
  EXPECT_NE(badTri.error().message.find("triangle 0"), std::string::npos) << badTri.error().message;
  in[0].embedding = nullptr;
  EXPECT_FALSE(buildRenderEmbeddingLayout(in, uint32_t(s.tets.positions.size())).ok());
}

TEST(RenderEmbedding, KernelMatchesApplyEmbeddingUnderAffineDeformation) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const AffineScene s = makeScene();
  const auto in = inputsOf(s);
  Result<RenderEmbedding> embed = RenderEmbedding::create(ctx, in, uint32_t(s.x.size()));
  ASSERT_TRUE(embed.ok()) << embed.error().message;
  const size_t n = embed->renderVertexCount();

  auto x = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, std::span<const glm::vec4>(s.x));
  ASSERT_TRUE(x.ok()) << x.error().message;
  auto out = DeviceBuffer<glm::vec4>::create(ctx.context, 2 * n);
  ASSERT_TRUE(out.ok()) << out.error().message;
  ASSERT_EQ(embed->enqueue(ctx.queue, x->buffer(), out->buffer()), CL_SUCCESS);
  std::vector<glm::vec4> gpu(2 * n);
  ASSERT_EQ(out->download(ctx.queue, gpu), CL_SUCCESS);

  float coordScale = 0.0f;
  for (const glm::vec4& p : s.x) coordScale = std::max({coordScale, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
  const float posTol = 1e-6f * coordScale;
  const float eps = std::numeric_limits<float>::epsilon();

  for (size_t si = 0; si < s.surfaces.size(); ++si) {
    const SurfaceMesh& m = s.surfaces[si];
    std::vector<glm::vec3> cpu(m.positions.size());
    applyEmbedding(s.embeddings[si], std::span<const glm::vec4>(s.x), cpu);
    std::vector<glm::vec3> cpuNormals;
    computeVertexNormals(cpu, m.triangles, cpuNormals);
    float minEdge = std::numeric_limits<float>::max();
    for (const glm::uvec3& t : m.triangles)
      minEdge = std::min({minEdge, glm::length(cpu[t.y] - cpu[t.x]), glm::length(cpu[t.z] - cpu[t.x])});
    // Positions differ by <= posTol; an edge vector then by 2 posTol, a unit
    // normal by about that over the edge length (x a safety factor of 8).
    const float normalTol = 8.0f * (2.0f * posTol + 4.0f * eps * coordScale) / minEdge;
    const uint32_t first = embed->surfaceFirstVertex(si);
    float worstPos = 0.0f, worstAffine = 0.0f, worstNormal = 0.0f;
    for (size_t i = 0; i < cpu.size(); ++i) {
      const glm::vec4 p = gpu[first + i];
      EXPECT_EQ(p.w, 1.0f);
      worstPos = std::max(worstPos, glm::length(glm::vec3(p) - cpu[i]));
      worstAffine = std::max(worstAffine, glm::length(glm::vec3(p) - (s.A * m.positions[i] + s.b)));
      worstNormal = std::max(worstNormal, glm::length(glm::vec3(gpu[n + first + i]) - cpuNormals[i]));
      EXPECT_EQ(gpu[n + first + i].w, 0.0f);
    }
    EXPECT_LE(worstPos, posTol) << "surface " << si;
    // Affine exactness up to the rounding of embedding and map (1e-5 relative, as the core test).
    EXPECT_LE(worstAffine, 1e-5f * coordScale) << "surface " << si;
    EXPECT_LE(worstNormal, normalTol) << "surface " << si;
  }

  // The host twin in the device layout agrees too (what the GL test compares against).
  Result<RenderEmbeddingLayout> layout = buildRenderEmbeddingLayout(in, uint32_t(s.x.size()));
  ASSERT_TRUE(layout.ok());
  std::vector<glm::vec4> twin;
  applyRenderEmbedding(*layout, s.x, twin);
  ASSERT_EQ(twin.size(), gpu.size());
  for (size_t i = 0; i < n; ++i) ASSERT_LE(glm::length(twin[i] - gpu[i]), posTol) << i;
}

TEST(RenderEmbedding, SecondEnqueueFollowsNewPositions) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  AffineScene s = makeScene();
  const auto in = inputsOf(s);
  Result<RenderEmbedding> embed = RenderEmbedding::create(ctx, in, uint32_t(s.x.size()));
  ASSERT_TRUE(embed.ok()) << embed.error().message;
  const size_t n = embed->renderVertexCount();
  auto x = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, std::span<const glm::vec4>(s.x));
  auto out = DeviceBuffer<glm::vec4>::create(ctx.context, 2 * n);
  ASSERT_TRUE(x.ok() && out.ok());
  ASSERT_EQ(embed->enqueue(ctx.queue, x->buffer(), out->buffer()), CL_SUCCESS);
  // A pure translation by t moves every render vertex by t and keeps normals.
  const glm::vec3 t(0.0f, -5.0f, 0.25f);
  std::vector<glm::vec4> moved = s.x;
  for (glm::vec4& p : moved) p += glm::vec4(t, 0.0f);
  ASSERT_EQ(x->upload(ctx.queue, moved), CL_SUCCESS);
  std::vector<glm::vec4> before(2 * n), after(2 * n);
  Result<RenderEmbeddingLayout> layout = buildRenderEmbeddingLayout(in, uint32_t(s.x.size()));
  ASSERT_TRUE(layout.ok());
  applyRenderEmbedding(*layout, s.x, before);
  ASSERT_EQ(embed->enqueue(ctx.queue, x->buffer(), out->buffer()), CL_SUCCESS);
  ASSERT_EQ(out->download(ctx.queue, after), CL_SUCCESS);
  for (size_t i = 0; i < n; ++i)
    ASSERT_LE(glm::length(glm::vec3(after[i]) - (glm::vec3(before[i]) + t)), 1e-5f * 8.0f) << i;
}

}  // namespace
}  // namespace tetlab
