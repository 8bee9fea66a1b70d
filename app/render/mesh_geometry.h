#pragma once
// Geometry the renderer derives from a triangle surface: smooth per-vertex
// normals and bounds. Pure functions on plain arrays so they are unit-tested
// without GL, and so the same code can later run on every simulated frame.
#include <vector>

#include <glm/vec3.hpp>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

struct Bounds {
  glm::vec3 min{0.0f};
  glm::vec3 max{0.0f};
  glm::vec3 center() const { return 0.5f * (min + max); }
  glm::vec3 size() const { return max - min; }
};

// Axis-aligned bounds of the points; a zero box at the origin when empty.
Bounds computeBounds(const std::vector<glm::vec3>& positions);

// Area-weighted average of the incident faces' normals (the unnormalised
// cross product already carries twice the triangle area), normalised.
// Vertices touched by no face, or whose faces cancel, get +y.
// Triangles are counter-clockwise seen from outside, so normals point out.
void computeVertexNormals(const std::vector<glm::vec3>& positions, const std::vector<glm::uvec3>& triangles,
                          std::vector<glm::vec3>& outNormals);

// UV sphere centred at the origin, counter-clockwise from outside; a closed,
// welded mesh with `rings` latitude bands and `segments` longitude bands.
SurfaceMesh makeUvSphere(float radius, int rings, int segments);

}  // namespace tetlab
