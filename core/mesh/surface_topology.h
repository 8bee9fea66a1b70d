#pragma once
// Edge-to-face incidence of a triangle surface, the basis of every topology
// check (watertight, manifold, orientation, components). Built by sorting
// half-edges, so it costs O(n log n) and no hash maps.
//
//   edges[e] = (lo, hi)     faces of edge e: edgeFaces[faceOffsets[e] .. faceOffsets[e+1])
//                           edgeForward[same range]: 1 if that face walks lo -> hi
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

struct SurfaceEdges {
  std::vector<glm::uvec2> edges;       // lo < hi
  std::vector<uint32_t> faceOffsets;   // edges.size() + 1
  std::vector<uint32_t> edgeFaces;
  std::vector<uint8_t> edgeForward;

  uint32_t faceCount(size_t e) const { return faceOffsets[e + 1] - faceOffsets[e]; }
};

SurfaceEdges buildSurfaceEdges(const SurfaceMesh& mesh);

// Union-find with path halving; small and local to the mesh code.
struct DisjointSets {
  std::vector<uint32_t> parent;
  explicit DisjointSets(size_t n);
  uint32_t find(uint32_t x);
  void unite(uint32_t a, uint32_t b);
};

// Connected components of triangles joined through shared edges (any number
// of faces per edge). outComponent[t] is 0..count-1 in order of first triangle.
uint32_t triangleComponents(const SurfaceMesh& mesh, const SurfaceEdges& edges, std::vector<uint32_t>& outComponent);

}  // namespace tetlab
