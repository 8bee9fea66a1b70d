// Half-edge sort: every triangle contributes three (lo, hi, face, forward)
// records; sorting them groups the faces of each undirected edge.
#include "core/mesh/surface_topology.h"

#include <algorithm>
#include <numeric>

namespace tetlab {

SurfaceEdges buildSurfaceEdges(const SurfaceMesh& mesh) {
  struct HalfEdge {
    uint32_t lo, hi, face;
    uint8_t forward;
  };
  std::vector<HalfEdge> half;
  half.reserve(mesh.triangles.size() * 3);
  for (uint32_t f = 0; f < mesh.triangles.size(); ++f) {
    const glm::uvec3& t = mesh.triangles[f];
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = t[k], b = t[(k + 1) % 3];
      half.push_back({std::min(a, b), std::max(a, b), f, uint8_t(a < b ? 1 : 0)});
    }
  }
  std::sort(half.begin(), half.end(), [](const HalfEdge& x, const HalfEdge& y) {
    return x.lo != y.lo ? x.lo < y.lo : (x.hi != y.hi ? x.hi < y.hi : x.face < y.face);
  });
  SurfaceEdges out;
  out.edgeFaces.reserve(half.size());
  out.edgeForward.reserve(half.size());
  for (size_t i = 0; i < half.size(); ++i) {
    if (i == 0 || half[i].lo != half[i - 1].lo || half[i].hi != half[i - 1].hi) {
      out.edges.push_back({half[i].lo, half[i].hi});
      out.faceOffsets.push_back(uint32_t(out.edgeFaces.size()));
    }
    out.edgeFaces.push_back(half[i].face);
    out.edgeForward.push_back(half[i].forward);
  }
  out.faceOffsets.push_back(uint32_t(out.edgeFaces.size()));
  return out;
}

DisjointSets::DisjointSets(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }

uint32_t DisjointSets::find(uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

void DisjointSets::unite(uint32_t a, uint32_t b) {
  a = find(a);
  b = find(b);
  if (a != b) parent[std::max(a, b)] = std::min(a, b);
}

uint32_t triangleComponents(const SurfaceMesh& mesh, const SurfaceEdges& edges, std::vector<uint32_t>& outComponent) {
  DisjointSets sets(mesh.triangles.size());
  for (size_t e = 0; e < edges.edges.size(); ++e) {
    for (uint32_t k = edges.faceOffsets[e] + 1; k < edges.faceOffsets[e + 1]; ++k) {
      sets.unite(edges.edgeFaces[edges.faceOffsets[e]], edges.edgeFaces[k]);
    }
  }
  outComponent.assign(mesh.triangles.size(), 0);
  std::vector<uint32_t> label(mesh.triangles.size(), UINT32_MAX);
  uint32_t count = 0;
  for (uint32_t f = 0; f < mesh.triangles.size(); ++f) {
    const uint32_t root = sets.find(f);
    if (label[root] == UINT32_MAX) label[root] = count++;
    outComponent[f] = label[root];
  }
  return count;
}

}  // namespace tetlab
