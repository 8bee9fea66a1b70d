// Every mesh we ship (assets/meshes) and every shared test mesh
// (../shared/meshes) goes the whole way: load, tetrahedralize (TetGen or the
// fallback), all tets positive, SimModel built, and every colouring valid
// (checked here from the definition, not taken from the builder's word).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "core/mesh/embedding.h"
#include "core/mesh/obj_loader.h"
#include "core/mesh/tetrahedralize.h"
#include "core/model/model_builder.h"
#include "mesh_test_util.h"

namespace tetlab {
namespace {

// Items of one colour must not share a vertex. items: arity ids each.
void expectElementColoringValid(const std::vector<uint32_t>& itemVertices, uint32_t arity, const ColorRanges& ranges,
                                size_t vertexCount, const char* what) {
  ASSERT_GT(ranges.count(), 0u);
  ASSERT_EQ(ranges.offsets.back() * arity, itemVertices.size()) << what;
  std::vector<uint32_t> seen(vertexCount, UINT32_MAX);
  for (uint32_t c = 0; c < ranges.count(); ++c)
    for (uint32_t i = ranges.begin(c); i < ranges.end(c); ++i)
      for (uint32_t k = 0; k < arity; ++k) {
        const uint32_t v = itemVertices[size_t(i) * arity + k];
        ASSERT_NE(seen[v], c) << what << ": colour " << c << " has two items on vertex " << v;
        seen[v] = c;
      }
}

void checkModel(const SimModel& m) {
  std::vector<uint32_t> tv, ev;
  for (const glm::uvec4& t : m.tets) tv.insert(tv.end(), {t.x, t.y, t.z, t.w});
  for (const glm::uvec2& e : m.edges) ev.insert(ev.end(), {e.x, e.y});
  expectElementColoringValid(tv, 4, m.tetColors, m.vertexCount(), "tets");
  expectElementColoringValid(ev, 2, m.edgeColors, m.vertexCount(), "edges");
  // Vertex colouring: no two vertices of one colour share a tet; every vertex coloured once.
  std::vector<uint32_t> colorOf(m.vertexCount(), UINT32_MAX);
  ASSERT_EQ(m.vertexColors.offsets.back(), m.vertexCount());
  for (uint32_t c = 0; c < m.vertexColors.count(); ++c)
    for (uint32_t i = m.vertexColors.begin(c); i < m.vertexColors.end(c); ++i) {
      const uint32_t v = m.vertexColorOrder[i];
      ASSERT_EQ(colorOf[v], UINT32_MAX) << "vertex " << v << " coloured twice";
      colorOf[v] = c;
    }
  for (const glm::uvec4& t : m.tets)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) ASSERT_NE(colorOf[t[a]], colorOf[t[b]]) << "two vertices of one tet share a colour";
}

std::vector<std::filesystem::path> meshFiles(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".obj") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

void runAll(const std::filesystem::path& dir) {
  const std::vector<std::filesystem::path> files = meshFiles(dir);
  if (files.empty()) GTEST_SKIP() << "no meshes in " << dir;
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const auto t0 = std::chrono::steady_clock::now();
    Result<LoadedSurface> s = loadObj(file.string());
    ASSERT_TRUE(s.ok()) << s.error().message;
    const auto t1 = std::chrono::steady_clock::now();
    // The automatic path (TetGen here: every shared mesh is clean) and the fallback, forced.
    for (TetMethod method : {TetMethod::Auto, TetMethod::VoxelOnly}) {
      const auto t2 = std::chrono::steady_clock::now();
      TetOptions opt;
      opt.targetTets = 3000;
      opt.method = method;
      Result<TetResult> r = tetrahedralizeSurface(s->mesh, opt);
      ASSERT_TRUE(r.ok()) << r.error().message;
      const auto t3 = std::chrono::steady_clock::now();
      for (const glm::uvec4& t : r->mesh.tets) ASSERT_GT(test::tetVolume(r->mesh, t), 0.0);
      BodyDesc body{r->mesh, Material{}, file.filename().string()};
      ModelBuildReport report;
      Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1), {}, &report);
      ASSERT_TRUE(model.ok()) << model.error().message;
      EXPECT_EQ(report.flippedTets, 0u);  // the pipeline already oriented every tet
      checkModel(*model);
      Result<SurfaceEmbedding> e = embedPoints(r->mesh, s->mesh.positions);
      ASSERT_TRUE(e.ok()) << e.error().message;
      const auto t4 = std::chrono::steady_clock::now();
      auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
      std::cout << "[ mesh ] " << file.filename().string() << ": " << s->mesh.positions.size() << " surface verts, "
                << s->mesh.triangles.size() << " tris -> " << toString(r->path) << " " << r->mesh.positions.size()
                << " verts, " << r->mesh.tets.size() << " tets, " << model->edgeCount() << " edges, "
                << model->boundaryTriangles.size() << " boundary tris; colours tet/edge/vertex "
                << report.tetColoring.colors << "/" << report.edgeColoring.colors << "/"
                << report.vertexColoring.colors << " (lower bounds " << report.tetColoring.lowerBound << "/"
                << report.edgeColoring.lowerBound << "/" << report.vertexColoring.lowerBound << "); load "
                << ms(t0, t1) << " ms, tetrahedralize " << ms(t2, t3) << " ms, model+embed " << ms(t3, t4)
                << " ms\n";
    }
  }
}

TEST(MeshSharedMeshes, EveryAssetMeshGoesTheWholeWay) { runAll(std::filesystem::path(TETLAB_SOURCE_DIR) / "assets" / "meshes"); }

TEST(MeshSharedMeshes, EverySharedMeshGoesTheWholeWay) { runAll(std::filesystem::path(TETLAB_SHARED_DIR) / "meshes"); }

}  // namespace
}  // namespace tetlab
