// Procedural generators: counts, orientation, volume, conformity (a
// non-conforming split leaves interior faces unmatched, which would show up as
// extra boundary triangles) and topology (Euler characteristic of the boundary).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/model/generators.h"
#include "core/model/model_builder.h"

namespace tetlab {
namespace {

constexpr double kPi = 3.14159265358979323846;

double signedVolume(const TetMesh& m, const glm::uvec4& t) {
  const glm::dvec3 p0 = m.positions[t.x];
  return glm::dot(glm::dvec3(m.positions[t.y]) - p0,
                  glm::cross(glm::dvec3(m.positions[t.z]) - p0, glm::dvec3(m.positions[t.w]) - p0)) /
         6.0;
}

double totalVolume(const TetMesh& m, double* outMin = nullptr) {
  double sum = 0.0, minV = 1e300;
  for (const auto& t : m.tets) {
    const double v = signedVolume(m, t);
    sum += v;
    minV = std::min(minV, v);
  }
  if (outMin) *outMin = minV;
  return sum;
}

SimModel build(const TetMesh& mesh) {
  BodyDesc body{mesh, Material{}, "generated"};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.error().message);
  return std::move(model).value();
}

// V - E + F of the boundary surface.
int boundaryEuler(const SimModel& model) {
  std::set<uint32_t> verts;
  std::set<std::pair<uint32_t, uint32_t>> edges;
  for (const auto& t : model.boundaryTriangles) {
    for (int i = 0; i < 3; ++i) {
      verts.insert(t[i]);
      uint32_t a = t[i], b = t[(i + 1) % 3];
      edges.insert({std::min(a, b), std::max(a, b)});
    }
  }
  return int(verts.size()) - int(edges.size()) + int(model.boundaryTriangles.size());
}

TEST(ModelGenerators, BoxCountsVolumeAndConformity) {
  for (CubeSplit split : {CubeSplit::Five, CubeSplit::Six, CubeSplit::SixSymmetric}) {
    const glm::uvec3 n{4, 3, 5};
    const glm::vec3 size{1.0f, 0.6f, 2.0f};
    const TetMesh mesh = makeBoxTetMesh({-0.5f, 0.0f, 1.0f}, size, n, split);
    EXPECT_EQ(mesh.positions.size(), size_t(5 * 4 * 6));
    EXPECT_EQ(mesh.tets.size(), size_t(n.x * n.y * n.z * (split == CubeSplit::Five ? 5 : 6)));
    double minV = 0.0;
    const double volume = totalVolume(mesh, &minV);
    EXPECT_NEAR(volume, 1.2, 1.2 * 1e-5);
    EXPECT_GT(minV, 0.0) << "every tet positively oriented";
    const SimModel model = build(mesh);
    // Each of the box's cell faces is split into 2 triangles; anything more
    // would be an unmatched (non-conforming) interior face.
    const size_t squares = 2 * (n.x * n.y + n.y * n.z + n.x * n.z);
    EXPECT_EQ(model.boundaryTriangles.size(), 2 * squares);
    EXPECT_EQ(boundaryEuler(model), 2);
  }
}

TEST(ModelGenerators, SphereIsAClosedBallOfTheRightVolume) {
  const float r = 0.3f;
  const glm::vec3 c{0.1f, 0.5f, -0.2f};
  const TetMesh mesh = makeSphereTetMesh(c, r, 8);
  double minV = 0.0;
  const double volume = totalVolume(mesh, &minV);
  EXPECT_GT(minV, 0.0);
  // Polyhedral ball inscribed in the sphere: a little smaller than 4/3 pi r^3.
  const double exact = 4.0 / 3.0 * kPi * r * r * r;
  EXPECT_LT(volume, exact);
  EXPECT_GT(volume, 0.93 * exact);
  const SimModel model = build(mesh);
  EXPECT_EQ(boundaryEuler(model), 2);
  for (const auto& t : model.boundaryTriangles)
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(glm::length(model.restPositions[t[i]] - c), r, 1e-5f);
  // Ball: V - E + F - T = 1.
  const long faces = (4 * long(model.tetCount()) + long(model.boundaryTriangles.size())) / 2;
  EXPECT_EQ(long(model.vertexCount()) - long(model.edgeCount()) + faces - long(model.tetCount()), 1);
}

TEST(ModelGenerators, TorusHasGenusOne) {
  const float R = 0.5f, r = 0.15f;
  const TetMesh mesh = makeTorusTetMesh({0.0f, 0.0f, 0.0f}, R, r, 24, 4);
  double minV = 0.0;
  const double volume = totalVolume(mesh, &minV);
  EXPECT_GT(minV, 0.0);
  const double exact = 2.0 * kPi * kPi * R * r * r;
  EXPECT_LT(volume, exact);
  EXPECT_GT(volume, 0.85 * exact);  // 24 chords around the ring, 4x4 cross-section lattice
  const SimModel model = build(mesh);
  EXPECT_EQ(boundaryEuler(model), 0);
}

TEST(ModelGenerators, OddCellCountsAreRoundedUpForSymmetricSplits) {
  const TetMesh mesh = makeSphereTetMesh({0, 0, 0}, 1.0f, 3);
  EXPECT_EQ(mesh.positions.size(), size_t(5 * 5 * 5));
}

}  // namespace
}  // namespace tetlab
