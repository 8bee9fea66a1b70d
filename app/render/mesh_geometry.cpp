#include "app/render/mesh_geometry.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace tetlab {

Bounds computeBounds(const std::vector<glm::vec3>& positions) {
  if (positions.empty()) return {};
  Bounds b{positions.front(), positions.front()};
  for (const glm::vec3& p : positions) {
    b.min = glm::min(b.min, p);
    b.max = glm::max(b.max, p);
  }
  return b;
}

void computeVertexNormals(const std::vector<glm::vec3>& positions, const std::vector<glm::uvec3>& triangles,
                          std::vector<glm::vec3>& outNormals) {
  outNormals.assign(positions.size(), glm::vec3(0.0f));
  const size_t n = positions.size();
  for (const glm::uvec3& t : triangles) {
    if (t.x >= n || t.y >= n || t.z >= n) continue;
    const glm::vec3 areaNormal = glm::cross(positions[t.y] - positions[t.x], positions[t.z] - positions[t.x]);
    outNormals[t.x] += areaNormal;
    outNormals[t.y] += areaNormal;
    outNormals[t.z] += areaNormal;
  }
  for (glm::vec3& normal : outNormals) {
    const float len = glm::length(normal);
    // Relative test: a sum that cancelled to rounding noise has no direction.
    normal = len > 0.0f && std::isfinite(len) ? normal / len : glm::vec3(0.0f, 1.0f, 0.0f);
  }
}

SurfaceMesh makeUvSphere(float radius, int rings, int segments) {
  rings = std::max(rings, 2);
  segments = std::max(segments, 3);
  constexpr float kPi = 3.14159265358979f;
  SurfaceMesh mesh;
  // Poles are single vertices so the mesh is closed and welded.
  mesh.positions.push_back({0.0f, radius, 0.0f});
  for (int r = 1; r < rings; ++r) {
    const float theta = kPi * static_cast<float>(r) / static_cast<float>(rings);
    for (int s = 0; s < segments; ++s) {
      const float phi = 2.0f * kPi * static_cast<float>(s) / static_cast<float>(segments);
      mesh.positions.push_back(
          radius * glm::vec3(std::sin(theta) * std::sin(phi), std::cos(theta), std::sin(theta) * std::cos(phi)));
    }
  }
  mesh.positions.push_back({0.0f, -radius, 0.0f});
  const unsigned south = static_cast<unsigned>(mesh.positions.size() - 1);
  auto ringVertex = [segments](int r, int s) { return static_cast<unsigned>(1 + (r - 1) * segments + (s % segments)); };
  // phi grows from +z towards +x, i.e. clockwise seen from +y; winding below is chosen so
  // dot(cross(b - a, c - a), a) > 0 (outward).
  for (int s = 0; s < segments; ++s) mesh.triangles.push_back({0u, ringVertex(1, s), ringVertex(1, s + 1)});
  for (int r = 1; r < rings - 1; ++r) {
    for (int s = 0; s < segments; ++s) {
      const unsigned a = ringVertex(r, s), b = ringVertex(r, s + 1);
      const unsigned c = ringVertex(r + 1, s), d = ringVertex(r + 1, s + 1);
      mesh.triangles.push_back({a, c, d});
      mesh.triangles.push_back({a, d, b});
    }
  }
  for (int s = 0; s < segments; ++s)
    mesh.triangles.push_back({south, ringVertex(rings - 1, s + 1), ringVertex(rings - 1, s)});
  return mesh;
}

}  // namespace tetlab
