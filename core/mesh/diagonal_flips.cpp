#include "core/mesh/diagonal_flips.h"

#include <algorithm>
#include <limits>
#include <set>
#include <vector>

#include "core/mesh/self_intersection.h"
#include "core/mesh/surface_topology.h"

namespace tetlab {
namespace {

size_t crossingPairs(const SurfaceMesh& mesh, std::vector<glm::uvec2>* pairs = nullptr) {
  const SelfIntersectionReport r = findSelfIntersections(mesh, pairs ? std::numeric_limits<size_t>::max() : 0);
  if (pairs) *pairs = r.examplePairs;
  return r.intersectingPairs;
}

// Triangles t = (a, b, c) and u across the edge a -> b of t, walked b -> a by u
// (consistently oriented) with third corner d: the quad a, d, b, c. The flip
// replaces the diagonal a-b by c-d: (c, a, d) and (d, b, c), same orientation.
// False when u does not walk the edge backwards or c-d is already an edge.
bool flipEdge(SurfaceMesh& mesh, uint32_t t, uint32_t u, uint32_t a, uint32_t b, const SurfaceEdges& edges) {
  const glm::uvec3 T = mesh.triangles[t], U = mesh.triangles[u];
  uint32_t c = UINT32_MAX, d = UINT32_MAX;
  for (int k = 0; k < 3; ++k) {
    if (T[k] == a && T[(k + 1) % 3] == b) c = T[(k + 2) % 3];
    if (U[k] == b && U[(k + 1) % 3] == a) d = U[(k + 2) % 3];
  }
  if (c == UINT32_MAX || d == UINT32_MAX || c == d) return false;
  const glm::uvec2 key(std::min(c, d), std::max(c, d));
  if (std::binary_search(edges.edges.begin(), edges.edges.end(), key,
                         [](const glm::uvec2& x, const glm::uvec2& y) { return x.x != y.x ? x.x < y.x : x.y < y.y; }))
    return false;  // the new diagonal exists already: the flip would make a non-manifold edge
  mesh.triangles[t] = {c, a, d};
  mesh.triangles[u] = {d, b, c};
  return true;
}

}  // namespace

DiagonalFlipReport flipCrossingDiagonals(SurfaceMesh& mesh) {
  DiagonalFlipReport report;
  std::vector<glm::uvec2> pairs;
  report.crossingBefore = report.crossingAfter = crossingPairs(mesh, &pairs);
  size_t tries = 0;
  bool improved = true;
  while (report.crossingAfter > 0 && improved && tries < kMaxDiagonalFlipTries) {
    improved = false;
    const SurfaceEdges edges = buildSurfaceEdges(mesh);
    std::set<uint32_t> involved;
    for (const glm::uvec2& p : pairs) {
      involved.insert(p.x);
      involved.insert(p.y);
    }
    // Each two-face edge of an involved triangle, once.
    for (size_t e = 0; e < edges.edges.size() && !improved && tries < kMaxDiagonalFlipTries; ++e) {
      if (edges.faceCount(e) != 2) continue;
      const uint32_t f0 = edges.edgeFaces[edges.faceOffsets[e]], f1 = edges.edgeFaces[edges.faceOffsets[e] + 1];
      if (!involved.count(f0) && !involved.count(f1)) continue;
      // f0 walks the edge lo -> hi when edgeForward says so; flipEdge wants t's direction a -> b.
      const bool forward0 = edges.edgeForward[edges.faceOffsets[e]] != 0;
      const glm::uvec2 edge = edges.edges[e];
      const uint32_t a = forward0 ? edge.x : edge.y, b = forward0 ? edge.y : edge.x;
      SurfaceMesh trial = mesh;
      if (!flipEdge(trial, f0, f1, a, b, edges)) continue;
      ++tries;
      std::vector<glm::uvec2> trialPairs;
      const size_t after = crossingPairs(trial, &trialPairs);
      if (after < report.crossingAfter) {
        mesh = std::move(trial);
        pairs = std::move(trialPairs);
        report.crossingAfter = after;
        ++report.flipped;
        improved = true;
      }
    }
  }
  return report;
}

}  // namespace tetlab
