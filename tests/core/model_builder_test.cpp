// buildSimModel: derived data checked against definitions, brute force where
// it is cheap (colourings, CSR), exact counts where geometry fixes them.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include <glm/mat3x3.hpp>

#include "core/model/generators.h"
#include "core/model/model_builder.h"

namespace tetlab {
namespace {

Result<SimModel> buildOne(const TetMesh& mesh, Material material = {}, ModelBuildReport* report = nullptr) {
  BodyDesc body{mesh, material, "test body"};
  return buildSimModel(std::span<const BodyDesc>(&body, 1), {}, report);
}

void expectValidColorRanges(const ColorRanges& r, size_t itemCount) {
  ASSERT_GE(r.offsets.size(), 2u);
  EXPECT_EQ(r.offsets.front(), 0u);
  EXPECT_EQ(r.offsets.back(), itemCount);
  for (uint32_t c = 0; c < r.count(); ++c) EXPECT_LT(r.begin(c), r.end(c)) << "empty colour " << c;
}

// Brute force: within one colour range, no vertex appears twice.
template <class Item>
void expectElementColoringValid(const std::vector<Item>& items, const ColorRanges& ranges, int arity) {
  expectValidColorRanges(ranges, items.size());
  for (uint32_t c = 0; c < ranges.count(); ++c) {
    std::set<uint32_t> used;
    for (uint32_t i = ranges.begin(c); i < ranges.end(c); ++i)
      for (int k = 0; k < arity; ++k) EXPECT_TRUE(used.insert(items[i][k]).second) << "colour " << c << " item " << i;
  }
}

TEST(ModelBuilder, BoxDerivedData) {
  const glm::uvec3 n{5, 3, 4};
  const glm::vec3 size{0.5f, 0.3f, 0.2f};
  const Material material{2.0e6f, 0.35f, 1200.0f, 0.0f};
  ModelBuildReport report;
  auto built = buildOne(makeBoxTetMesh({0, 0, 0}, size, n, CubeSplit::Six), material, &report);
  ASSERT_TRUE(built.ok()) << built.error().message;
  const SimModel& m = *built;

  // Mass: density * volume, and each tet's rest volume is a sixth of a cell.
  double totalMass = 0.0;
  for (float mi : m.mass) totalMass += mi;
  const double volume = double(size.x) * size.y * size.z;
  EXPECT_NEAR(totalMass, material.density * volume, 1e-5 * material.density * volume);
  const double cell = volume / (n.x * n.y * n.z);
  for (float v : m.restVolume) EXPECT_NEAR(v, cell / 6.0, 1e-5 * cell);

  // DmInv * Dm = I.
  for (uint32_t t = 0; t < m.tetCount(); ++t) {
    const glm::uvec4 tet = m.tets[t];
    const glm::vec3 p0 = m.restPositions[tet.x];
    const glm::mat3 Dm(m.restPositions[tet.y] - p0, m.restPositions[tet.z] - p0, m.restPositions[tet.w] - p0);
    const glm::mat3 I = m.DmInv[t] * Dm;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(I[i][j], i == j ? 1.0f : 0.0f, 1e-5f);
    EXPECT_GT(glm::determinant(Dm), 0.0f);
  }

  // Unique edges of the Kuhn lattice: axis edges, one diagonal per square, one per cube.
  const uint32_t X = n.x, Y = n.y, Z = n.z;
  const uint32_t axis = X * (Y + 1) * (Z + 1) + (X + 1) * Y * (Z + 1) + (X + 1) * (Y + 1) * Z;
  const uint32_t faceDiag = X * Y * (Z + 1) + X * (Y + 1) * Z + (X + 1) * Y * Z;
  EXPECT_EQ(m.edgeCount(), axis + faceDiag + X * Y * Z);
  for (uint32_t e = 0; e < m.edgeCount(); ++e) {
    EXPECT_NEAR(m.restLength[e], glm::length(m.restPositions[m.edges[e].x] - m.restPositions[m.edges[e].y]), 1e-6f);
    EXPECT_GT(m.edgeVolume[e], 0.0f);
  }
  double edgeVolumeSum = 0.0;
  for (float v : m.edgeVolume) edgeVolumeSum += v;
  EXPECT_NEAR(edgeVolumeSum, volume, 1e-5 * volume);

  // Boundary: 2 triangles per boundary square, all facing outward.
  EXPECT_EQ(m.boundaryTriangles.size(), size_t(4 * (X * Y + Y * Z + X * Z)));
  const glm::vec3 centre = size * 0.5f;
  for (const auto& t : m.boundaryTriangles) {
    const glm::vec3 a = m.restPositions[t.x], b = m.restPositions[t.y], c = m.restPositions[t.z];
    const glm::vec3 normal = glm::cross(b - a, c - a);
    EXPECT_GT(glm::dot(normal, (a + b + c) / 3.0f - centre), 0.0f);
  }

  // Colourings: valid by brute force; counts reported against the bounds.
  expectElementColoringValid(m.tets, m.tetColors, 4);
  expectElementColoringValid(m.edges, m.edgeColors, 2);
  expectValidColorRanges(m.vertexColors, m.vertexCount());
  std::vector<uint32_t> vertexColor(m.vertexCount(), ~0u);
  for (uint32_t c = 0; c < m.vertexColors.count(); ++c)
    for (uint32_t i = m.vertexColors.begin(c); i < m.vertexColors.end(c); ++i) {
      EXPECT_EQ(vertexColor[m.vertexColorOrder[i]], ~0u) << "vertex listed twice";
      vertexColor[m.vertexColorOrder[i]] = c;
    }
  for (const auto& t : m.tets)
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) EXPECT_NE(vertexColor[t[i]], vertexColor[t[j]]);
  for (const ColoringSummary* s : {&report.tetColoring, &report.edgeColoring, &report.vertexColoring}) {
    EXPECT_GE(s->colors, s->lowerBound);
    EXPECT_LE(s->colors, s->greedyBound);
  }
  EXPECT_EQ(report.tetColoring.colors, m.tetColors.count());
  std::printf("box %ux%ux%u: tets %u (colours %u, clique bound %u, greedy bound %u), edges %u (%u, %u, %u), "
              "vertices %u (%u, %u, %u)\n",
              X, Y, Z, m.tetCount(), report.tetColoring.colors, report.tetColoring.lowerBound,
              report.tetColoring.greedyBound, m.edgeCount(), report.edgeColoring.colors,
              report.edgeColoring.lowerBound, report.edgeColoring.greedyBound, m.vertexCount(),
              report.vertexColoring.colors, report.vertexColoring.lowerBound, report.vertexColoring.greedyBound);

  // CSR: every (tet, corner) / (edge, end) listed exactly once, under its vertex.
  ASSERT_EQ(m.vertexTets.offsets.size(), m.vertexCount() + 1u);
  EXPECT_EQ(m.vertexTets.items.size(), 4u * m.tetCount());
  std::vector<int> seen(4 * m.tetCount(), 0);
  for (uint32_t v = 0; v < m.vertexCount(); ++v)
    for (uint32_t k = m.vertexTets.offsets[v]; k < m.vertexTets.offsets[v + 1]; ++k) {
      const uint32_t ref = m.vertexTets.items[k];
      EXPECT_EQ(m.tets[ref / 4][ref % 4], v);
      ++seen[ref];
    }
  for (int s : seen) EXPECT_EQ(s, 1);
  EXPECT_EQ(m.vertexEdges.items.size(), 2u * m.edgeCount());
  std::vector<int> seenE(2 * m.edgeCount(), 0);
  for (uint32_t v = 0; v < m.vertexCount(); ++v)
    for (uint32_t k = m.vertexEdges.offsets[v]; k < m.vertexEdges.offsets[v + 1]; ++k) {
      const uint32_t ref = m.vertexEdges.items[k];
      EXPECT_EQ(m.edges[ref / 2][ref % 2], v);
      ++seenE[ref];
    }
  for (int s : seenE) EXPECT_EQ(s, 1);
  EXPECT_EQ(report.flippedTets, 0u);
}

TEST(ModelBuilder, MergesBodiesAndKeepsTheirMaterials) {
  std::vector<BodyDesc> bodies(2);
  bodies[0] = {makeBoxTetMesh({0, 0, 0}, {1, 1, 1}, {2, 2, 2}), Material{1e6f, 0.3f, 500.0f, 0.0f}, "a"};
  bodies[1] = {makeSphereTetMesh({3, 0, 0}, 0.5f, 4), Material{1e5f, 0.45f, 2000.0f, 0.0f}, "b"};
  auto built = buildSimModel(bodies);
  ASSERT_TRUE(built.ok()) << built.error().message;
  const SimModel& m = *built;
  ASSERT_EQ(m.materials.size(), 2u);
  EXPECT_EQ(m.vertexCount(), bodies[0].mesh.positions.size() + bodies[1].mesh.positions.size());
  EXPECT_EQ(m.tetCount(), bodies[0].mesh.tets.size() + bodies[1].mesh.tets.size());
  double mass[2] = {0, 0}, volume[2] = {0, 0};
  for (uint32_t i = 0; i < m.vertexCount(); ++i) mass[m.vertexBody[i]] += m.mass[i];
  for (uint32_t t = 0; t < m.tetCount(); ++t) {
    volume[m.tetBody[t]] += m.restVolume[t];
    for (int c = 0; c < 4; ++c) EXPECT_EQ(m.vertexBody[m.tets[t][c]], m.tetBody[t]);
  }
  EXPECT_NEAR(volume[0], 1.0, 1e-5);
  for (int b = 0; b < 2; ++b) EXPECT_NEAR(mass[b], m.materials[b].density * volume[b], 1e-4 * mass[b]);
}

TEST(ModelBuilder, ReorientsNegativeTets) {
  TetMesh mesh = makeBoxTetMesh({0, 0, 0}, {1, 1, 1}, {1, 1, 1});
  std::swap(mesh.tets[0].x, mesh.tets[0].y);
  ModelBuildReport report;
  auto built = buildOne(mesh, {}, &report);
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(report.flippedTets, 1u);
  for (float v : built->restVolume) EXPECT_GT(v, 0.0f);
}

TEST(ModelBuilder, DegeneracyIsRelativeToTheTetsOwnSize) {
  // A micrometre-scale box is as good as a metre-scale one: no absolute threshold.
  auto tiny = buildOne(makeBoxTetMesh({0, 0, 0}, glm::vec3(1e-6f), {2, 2, 2}));
  EXPECT_TRUE(tiny.ok()) << (tiny.ok() ? "" : tiny.error().message);
  // A flat tet (4th vertex in the plane of the others) is rejected with its index.
  TetMesh flat;
  flat.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  flat.tets = {{0, 1, 2, 3}};
  auto bad = buildOne(flat);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("tet 0"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("degenerate"), std::string::npos);
}

TEST(ModelBuilder, RejectsBrokenInputWithAClearMessage) {
  const TetMesh good = makeBoxTetMesh({0, 0, 0}, {1, 1, 1}, {1, 1, 1});
  TetMesh outOfRange = good;
  outOfRange.tets[2].z = 99;
  EXPECT_NE(buildOne(outOfRange).error().message.find("uses vertex 99"), std::string::npos);
  TetMesh repeated = good;
  repeated.tets[1].y = repeated.tets[1].x;
  EXPECT_NE(buildOne(repeated).error().message.find("repeats a vertex"), std::string::npos);
  TetMesh nan = good;
  nan.positions[3].y = std::nanf("");
  EXPECT_NE(buildOne(nan).error().message.find("non-finite"), std::string::npos);
  TetMesh unreferenced = good;
  unreferenced.positions.push_back({5, 5, 5});
  EXPECT_NE(buildOne(unreferenced).error().message.find("used by no tet"), std::string::npos);
  EXPECT_NE(buildOne(good, Material{1e6f, 0.5f, 1000.0f, 0.0f}).error().message.find("Poisson"), std::string::npos);
  EXPECT_NE(buildOne(good, Material{1e6f, 0.3f, 0.0f, 0.0f}).error().message.find("density"), std::string::npos);
  EXPECT_FALSE(buildSimModel({}).ok());
  EXPECT_FALSE(buildOne(TetMesh{}).ok());
}

TEST(ModelBuilder, LargeMeshBuildsAndColoursNearTheBounds) {
  // ~200k tets: the builder must stay O(n log n). Timing printed, not asserted.
  ModelBuildReport report;
  const auto start = std::chrono::steady_clock::now();
  auto built = buildOne(makeSphereTetMesh({0, 0, 0}, 1.0f, 32), {}, &report);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(built.ok());
  std::printf("sphere: %u vertices, %u tets, %u edges built in %.0f ms; colours tets %u [%u..%u], edges %u "
              "[%u..%u], vertices %u [%u..%u] ([clique lower bound..max degree+1])\n",
              built->vertexCount(), built->tetCount(), built->edgeCount(), ms, report.tetColoring.colors,
              report.tetColoring.lowerBound, report.tetColoring.greedyBound, report.edgeColoring.colors,
              report.edgeColoring.lowerBound, report.edgeColoring.greedyBound, report.vertexColoring.colors,
              report.vertexColoring.lowerBound, report.vertexColoring.greedyBound);
  EXPECT_GE(built->tetCount(), 190000u);
  for (const ColoringSummary* s : {&report.tetColoring, &report.edgeColoring, &report.vertexColoring}) {
    EXPECT_GE(s->colors, s->lowerBound);
    EXPECT_LE(s->colors, s->greedyBound);
  }
  // Balancing keeps the largest colour (the longest launch) near the mean.
  const double meanTets = double(built->tetCount()) / report.tetColoring.colors;
  EXPECT_LE(report.tetColoring.largest, 1.5 * meanTets);
}

}  // namespace
}  // namespace tetlab
