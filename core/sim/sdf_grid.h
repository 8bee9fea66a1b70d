#pragma once
// A signed distance field sampled from a closed mesh on a regular grid, for
// the mesh collider (core/sim/colliders.h MeshCollider; looked up by
// sdf_grid_sample in shaders/cl/common/sdf_grid.clh on both backends).
//
//   nodes: origin + cell * (i, j, k), i < dims.x ..., phi[(k dims.y + j) dims.x + i]
//   phi:   distance to the nearest triangle (triangle_distance.h), negative
//          where the generalized winding number says inside (> 1/2)
//
// The grid covers the mesh's box plus a margin of kSdfMarginCells cells on
// every side, so phi is sampled (not extrapolated) wherever a contact can
// start; `resolution` is the node count along the box's longest side.
#include <memory>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

inline constexpr int kSdfMinResolution = 8;
inline constexpr int kSdfMaxResolution = 128;
inline constexpr int kSdfDefaultResolution = 40;
inline constexpr float kSdfMarginCells = 3.0f;

struct SdfGrid {
  glm::vec3 origin{0.0f};  // node (0, 0, 0), in the mesh's frame [m]
  float cell = 0.0f;       // node spacing [m]
  glm::uvec3 dims{0u};     // nodes per axis, each >= 2
  std::vector<float> phi;  // signed distance per node [m], positive outside
};

// Fails (naming `what`, e.g. the file) when the mesh is not closed: a surface
// with holes has no inside, so it cannot be a solid collider. resolution is
// clamped to [kSdfMinResolution, kSdfMaxResolution].
Result<SdfGrid> sampleSdfGrid(const SurfaceMesh& mesh, int resolution, const std::string& what);

}  // namespace tetlab
