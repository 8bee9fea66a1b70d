// Normals and bounds the renderer derives from a triangle surface.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

#include <glm/geometric.hpp>

#include "app/render/mesh_geometry.h"

namespace tetlab {
namespace {

TEST(MeshGeometry, SingleTriangleNormalFollowsCounterClockwiseWinding) {
  const std::vector<glm::vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  std::vector<glm::vec3> normals;
  computeVertexNormals(positions, {{0, 1, 2}}, normals);
  ASSERT_EQ(normals.size(), 3u);
  for (const glm::vec3& n : normals) EXPECT_EQ(n, glm::vec3(0, 0, 1));
  computeVertexNormals(positions, {{0, 2, 1}}, normals);
  for (const glm::vec3& n : normals) EXPECT_EQ(n, glm::vec3(0, 0, -1));
}

TEST(MeshGeometry, NormalsAreAreaWeighted) {
  // Vertex 0 is shared by a big triangle facing +z and a small one facing +x:
  // the weights are the areas (2 and 0.5), so the normal is (0.5, 0, 2) normalised.
  const std::vector<glm::vec3> positions{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 1, 0}, {0, 0, 1}};
  std::vector<glm::vec3> normals;
  computeVertexNormals(positions, {{0, 1, 2}, {0, 3, 4}}, normals);
  const glm::vec3 expected = glm::normalize(glm::vec3(0.5f, 0.0f, 2.0f));
  EXPECT_NEAR(glm::length(normals[0] - expected), 0.0f, 1e-6f);
}

TEST(MeshGeometry, UnusedVertexAndOutOfRangeIndicesAreSafe) {
  const std::vector<glm::vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 5, 5}};
  std::vector<glm::vec3> normals;
  computeVertexNormals(positions, {{0, 1, 2}, {0, 1, 99}}, normals);
  EXPECT_EQ(normals[3], glm::vec3(0, 1, 0));
  EXPECT_EQ(normals[0], glm::vec3(0, 0, 1));
}

TEST(MeshGeometry, SphereIsClosedOutwardAndItsNormalsAreRadial) {
  const float radius = 0.7f;
  const int rings = 16, segments = 24;
  const SurfaceMesh sphere = makeUvSphere(radius, rings, segments);
  EXPECT_EQ(sphere.positions.size(), static_cast<size_t>(2 + (rings - 1) * segments));
  EXPECT_EQ(sphere.triangles.size(), static_cast<size_t>(2 * segments * (rings - 1)));

  // Closed 2-manifold: each undirected edge is used by exactly two triangles,
  // once in each direction (consistent orientation).
  std::map<std::pair<unsigned, unsigned>, int> directed;
  for (const glm::uvec3& t : sphere.triangles)
    for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1);
    EXPECT_EQ(directed.count({edge.second, edge.first}), 1u);
  }
  // Euler characteristic of a sphere: V - E + F = 2.
  const long long v = static_cast<long long>(sphere.positions.size());
  const long long e = static_cast<long long>(directed.size() / 2);
  const long long f = static_cast<long long>(sphere.triangles.size());
  EXPECT_EQ(v - e + f, 2);

  for (const glm::uvec3& t : sphere.triangles) {
    const glm::vec3 a = sphere.positions[t.x], b = sphere.positions[t.y], c = sphere.positions[t.z];
    EXPECT_GT(glm::dot(glm::cross(b - a, c - a), a + b + c), 0.0f) << "triangle winds inwards";
  }

  std::vector<glm::vec3> normals;
  computeVertexNormals(sphere.positions, sphere.triangles, normals);
  // The angle between a smooth normal and the true radial direction is bounded
  // by the facet angle, at most one ring step (pi / rings).
  const float minCos = std::cos(3.14159265f / static_cast<float>(rings));
  for (size_t i = 0; i < normals.size(); ++i) {
    EXPECT_NEAR(glm::length(sphere.positions[i]), radius, 1e-5f);
    EXPECT_GT(glm::dot(normals[i], glm::normalize(sphere.positions[i])), minCos) << "vertex " << i;
  }
}

TEST(MeshGeometry, BoundsOfPoints) {
  const Bounds b = computeBounds({{1, -2, 3}, {-4, 5, 0}, {0, 0, 9}});
  EXPECT_EQ(b.min, glm::vec3(-4, -2, 0));
  EXPECT_EQ(b.max, glm::vec3(1, 5, 9));
  EXPECT_EQ(b.center(), glm::vec3(-1.5f, 1.5f, 4.5f));
  const Bounds empty = computeBounds({});
  EXPECT_EQ(empty.size(), glm::vec3(0.0f));
}

}  // namespace
}  // namespace tetlab
