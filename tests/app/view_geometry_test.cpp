// View geometry on hand-checkable meshes: tet face winding, face adjacency
// (every interior face shared by exactly two tets, boundary faces = the
// model's boundary triangles), the cut's exposed layers, and closed outward
// collider meshes (divergence theorem: enclosed volume = analytic volume).
#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>

#include "app/render/view_geometry.h"
#include "core/model/generators.h"
#include "core/model/model_builder.h"

namespace tetlab {
namespace {

SimModel boxModel(glm::uvec3 cells) {
  BodyDesc body;
  body.mesh = makeBoxTetMesh(glm::vec3(0.0f), glm::vec3(cells), cells);
  body.name = "box";
  Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << model.error().message;
  return std::move(model).value();
}

// Signed volume enclosed by a closed triangle mesh: sum over faces of a . (b x c) / 6.
double enclosedVolume(const SurfaceMesh& m) {
  double v = 0.0;
  for (const glm::uvec3& t : m.triangles)
    v += glm::dot(glm::dvec3(m.positions[t.x]), glm::cross(glm::dvec3(m.positions[t.y]), glm::dvec3(m.positions[t.z])));
  return v / 6.0;
}

TEST(ViewGeometry, TetFacesPointOutOfAPositiveTet) {
  const glm::vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const glm::vec3 centroid = 0.25f * (p[0] + p[1] + p[2] + p[3]);
  for (int f = 0; f < 4; ++f) {
    const glm::uvec3 c = tetFaceCorners(f);
    const glm::vec3 n = glm::cross(p[c.y] - p[c.x], p[c.z] - p[c.x]);
    EXPECT_GT(glm::dot(n, p[c.x] - centroid), 0.0f) << "face " << f;
    EXPECT_EQ(c.x + c.y + c.z, 6u - (3u - unsigned(f))) << "face f is opposite corner 3 - f";
  }
}

TEST(ViewGeometry, FaceNeighboursAreSymmetricAndBoundaryFacesMatchTheModel) {
  const SimModel model = boxModel({3, 2, 2});
  const std::vector<glm::ivec4> n = tetFaceNeighbors(model);
  ASSERT_EQ(n.size(), model.tetCount());
  size_t boundary = 0;
  for (uint32_t t = 0; t < model.tetCount(); ++t)
    for (int f = 0; f < 4; ++f) {
      if (n[t][f] < 0) {
        ++boundary;
        continue;
      }
      const glm::ivec4 back = n[size_t(n[t][f])];
      EXPECT_TRUE(back.x == int(t) || back.y == int(t) || back.z == int(t) || back.w == int(t));
    }
  EXPECT_EQ(boundary, model.boundaryTriangles.size());
  // The boundary of a 3 x 2 x 2 box of unit cubes: 2 (3*2 + 3*2 + 2*2) squares, 2 triangles each.
  EXPECT_EQ(boundary, 2u * 2u * (6u + 6u + 4u));
  const std::vector<uint32_t> owners = boundaryFaceTets(model);
  ASSERT_EQ(owners.size(), model.boundaryTriangles.size());
  for (size_t i = 0; i < owners.size(); ++i) {
    ASSERT_LT(owners[i], model.tetCount());
    const glm::uvec4 tet = model.tets[owners[i]];
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = model.boundaryTriangles[i][k];
      EXPECT_TRUE(tet.x == v || tet.y == v || tet.z == v || tet.w == v);
    }
  }
}

TEST(ViewGeometry, CutKeepsTetsBehindThePlaneAndItsExposedLayers) {
  const SimModel model = boxModel({6, 6, 6});
  std::vector<glm::vec4> x;
  for (const glm::vec3& p : model.restPositions) x.push_back(glm::vec4(p, 1.0f));
  glm::vec3 centre;
  float radius;
  boundingSphere(x, centre, radius);
  EXPECT_NEAR(glm::distance(centre, glm::vec3(3.0f)), 0.0f, 1e-5f);
  EXPECT_NEAR(radius, 3.0f * std::sqrt(3.0f), 1e-4f);
  const CutPlane plane = makeCutPlane(glm::vec3(2.0f, 0.0f, 0.0f), 0.0f, centre, radius);
  EXPECT_NEAR(plane.normal.x, 1.0f, 1e-6f);
  EXPECT_NEAR(plane.offset, 3.0f, 1e-6f);
  std::vector<uint32_t> kept;
  selectTetsBehindPlane(model, x, plane, kept);
  // The plane x = 3 runs along cube faces: exactly the 3 x 6 x 6 cubes with x < 3 stay.
  EXPECT_EQ(kept.size(), model.tetCount() / 2);

  const std::vector<glm::ivec4> n = tetFaceNeighbors(model);
  std::vector<uint32_t> all, one, two;
  keepExposedLayers(n, kept, 0, all);
  EXPECT_EQ(all, kept);
  keepExposedLayers(n, kept, 1, one);
  keepExposedLayers(n, kept, 2, two);
  ASSERT_FALSE(one.empty());
  EXPECT_LT(one.size(), two.size());
  EXPECT_LT(two.size(), kept.size());
  // Layer 1 is exactly the kept tets with a face on the boundary or towards a removed tet.
  std::vector<bool> isKept(model.tetCount(), false);
  for (uint32_t t : kept) isKept[t] = true;
  size_t exposed = 0;
  for (uint32_t t : kept) {
    bool e = false;
    for (int f = 0; f < 4; ++f) e |= n[t][f] < 0 || !isKept[size_t(n[t][f])];
    exposed += e ? 1 : 0;
  }
  EXPECT_EQ(one.size(), exposed);
  for (uint32_t t : two) EXPECT_TRUE(isKept[t]) << "layers never add removed tets";
}

TEST(ViewGeometry, CellsCarryFlatNormalsCornerIdsAndValues) {
  const SimModel model = boxModel({1, 1, 1});
  std::vector<glm::vec4> x;
  for (const glm::vec3& p : model.restPositions) x.push_back(glm::vec4(p, 1.0f));
  std::vector<float> perTet(model.tetCount());
  for (uint32_t t = 0; t < model.tetCount(); ++t) perTet[t] = float(t) + 0.5f;
  const std::vector<uint32_t> tets = {0u, 2u};
  std::vector<CellVertex> cells;
  buildTetCells(model, x, tets, 0.5f, perTet, {}, cells);
  ASSERT_EQ(cells.size(), 24u);
  for (size_t i = 0; i < cells.size(); i += 3) {
    const uint32_t t = tets[i / 12];
    EXPECT_EQ(cells[i].values, glm::vec3(perTet[t]));
    EXPECT_EQ(cells[i].barycentric + cells[i + 1].barycentric + cells[i + 2].barycentric, glm::vec3(1.0f));
    // Flat outward unit normal, perpendicular to the face.
    EXPECT_NEAR(glm::length(cells[i].normal), 1.0f, 1e-5f);
    EXPECT_NEAR(glm::dot(cells[i].normal, cells[i + 1].position - cells[i].position), 0.0f, 1e-5f);
  }
  std::vector<LineVertex> lines;
  buildEdgeLines(model, x, {}, {}, lines);
  EXPECT_EQ(lines.size(), 2u * model.edgeCount());
  std::vector<float> perVertex(model.vertexCount(), 1.0f);
  buildEdgeLines(model, x, perVertex, {}, lines);
  EXPECT_EQ(lines.size(), 4u * model.edgeCount());
}

TEST(ViewGeometry, ColliderMeshesAreClosedOutwardAndHaveTheirVolume) {
  const float a = 0.4f;
  const glm::mat3 R(glm::vec3(std::cos(a), 0.0f, -std::sin(a)), glm::vec3(0.0f, 1.0f, 0.0f),
                    glm::vec3(std::sin(a), 0.0f, std::cos(a)));
  const SurfaceMesh box = makeBoxMesh(glm::vec3(1.0f, 2.0f, 3.0f), glm::vec3(0.5f, 0.25f, 1.0f), R);
  EXPECT_NEAR(enclosedVolume(box), 1.0 * 0.5 * 2.0, 1e-5);
  // Capsule: cylinder pi r^2 L + sphere 4/3 pi r^3, minus the polygonal approximation
  // (48 segments: the inscribed polygon has area (48/2pi) sin(2pi/48) = 0.9971 of the circle).
  const float r = 0.2f;
  const SurfaceMesh capsule = makeCapsuleMesh(glm::vec3(0.1f, 0.2f, 0.3f), glm::vec3(0.5f, 0.6f, 0.1f), r, 24, 48);
  const double length = glm::distance(glm::vec3(0.1f, 0.2f, 0.3f), glm::vec3(0.5f, 0.6f, 0.1f));
  const double exact = M_PI * r * r * length + 4.0 / 3.0 * M_PI * r * r * r;
  EXPECT_GT(enclosedVolume(capsule), 0.0) << "outward winding";
  EXPECT_NEAR(enclosedVolume(capsule) / exact, 1.0, 0.01);
  // Torus: 2 pi^2 R r^2 (Pappus), tilted. The mesh is the tube's inscribed
  // 24-gon swept along the ring's inscribed 64-gon: each polygon keeps
  // (n / 2 pi) sin(2 pi / n) of its circle's area or length.
  const SurfaceMesh torus = makeTorusMesh(glm::vec3(0.3f, -0.2f, 0.1f), 0.5f, 0.1f, R, 64, 24);
  auto inscribed = [](double n) { return n / (2.0 * M_PI) * std::sin(2.0 * M_PI / n); };
  EXPECT_GT(enclosedVolume(torus), 0.0) << "outward winding";
  EXPECT_NEAR(enclosedVolume(torus) / (2.0 * M_PI * M_PI * 0.5 * 0.1 * 0.1 * inscribed(24) * inscribed(64)), 1.0,
              1e-4);
  Colliders colliders;
  colliders.tori.push_back({});
  colliders.spheres.push_back({glm::vec3(0.0f), 0.3f, 0.5f});
  colliders.boxes.push_back({});
  colliders.capsules.push_back({});
  const SurfaceMesh all = makeColliderMeshes(colliders);
  EXPECT_GT(enclosedVolume(all), 0.0);
  EXPECT_NEAR(enclosedVolume(makeColliderMeshes(Colliders{})), 0.0, 0.0) << "ground only: nothing drawn";
}

}  // namespace
}  // namespace tetlab
