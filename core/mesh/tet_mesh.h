#pragma once
// Plain geometry containers passed between the pipeline stages:
//   OBJ -> SurfaceMesh -> (TetGen | voxel fallback) -> TetMesh -> SimModel
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace tetlab {

// Triangle surface, counter-clockwise seen from outside when oriented.
struct SurfaceMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::uvec3> triangles;
};

// Tetrahedral mesh. Every tet is positively oriented:
// dot(p1 - p0, cross(p2 - p0, p3 - p0)) > 0.
struct TetMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::uvec4> tets;
};

}  // namespace tetlab
