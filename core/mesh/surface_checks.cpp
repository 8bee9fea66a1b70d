// Surface checks and orientation repair on top of the sorted edge table
// (surface_topology.h). Everything is O(n log n) except the nesting test of
// the orientation fix, which is O(components x triangles) and therefore only
// run for up to kMaxNestingComponents closed components.
#include "core/mesh/surface_checks.h"

#include <algorithm>
#include <cmath>
#include <deque>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/mesh/self_intersection.h"
#include "core/mesh/surface_topology.h"
#include "core/mesh/winding_number.h"

namespace tetlab {
namespace {

constexpr size_t kMaxNestingComponents = 64;

int cornerOf(const glm::uvec3& t, uint32_t v) { return t.x == v ? 0 : (t.y == v ? 1 : 2); }

size_t countNonManifoldVertices(const SurfaceMesh& mesh, const SurfaceEdges& edges) {
  // Corners around a vertex joined through shared edges form its fans; a
  // manifold vertex has exactly one.
  DisjointSets corners(mesh.triangles.size() * 3);
  for (size_t e = 0; e < edges.edges.size(); ++e) {
    const uint32_t f0 = edges.edgeFaces[edges.faceOffsets[e]];
    for (uint32_t k = edges.faceOffsets[e] + 1; k < edges.faceOffsets[e + 1]; ++k) {
      const uint32_t f1 = edges.edgeFaces[k];
      for (uint32_t v : {edges.edges[e].x, edges.edges[e].y}) {
        corners.unite(f0 * 3 + cornerOf(mesh.triangles[f0], v), f1 * 3 + cornerOf(mesh.triangles[f1], v));
      }
    }
  }
  std::vector<uint32_t> firstRoot(mesh.positions.size(), UINT32_MAX);
  std::vector<uint8_t> bad(mesh.positions.size(), 0);
  for (uint32_t f = 0; f < mesh.triangles.size(); ++f) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = mesh.triangles[f][k];
      const uint32_t root = corners.find(f * 3 + k);
      if (firstRoot[v] == UINT32_MAX) firstRoot[v] = root;
      else if (firstRoot[v] != root) bad[v] = 1;
    }
  }
  return size_t(std::count(bad.begin(), bad.end(), uint8_t(1)));
}

}  // namespace

double signedVolume(const SurfaceMesh& mesh) {
  double sum = 0.0;
  for (const glm::uvec3& t : mesh.triangles) {
    const glm::dvec3 a(mesh.positions[t.x]), b(mesh.positions[t.y]), c(mesh.positions[t.z]);
    sum += glm::dot(a, glm::cross(b, c));
  }
  return sum / 6.0;
}

double SurfaceCheckReport::boundsDiagonal() const { return glm::length(boundsMax - boundsMin); }

double SurfaceCheckReport::relativeVolume() const {
  const double d = boundsDiagonal();
  return d > 0.0 ? std::fabs(signedVolume) / (d * d * d) : 0.0;
}

std::vector<std::string> SurfaceCheckReport::problems() const {
  std::vector<std::string> out;
  if (triangles == 0) out.push_back("the surface has no triangles");
  if (boundaryEdges > 0) out.push_back("not watertight: " + std::to_string(boundaryEdges) + " boundary (hole) edges");
  if (nonManifoldEdges > 0) out.push_back("non-manifold: " + std::to_string(nonManifoldEdges) + " edges with more than two faces");
  if (nonManifoldVertices > 0) out.push_back("non-manifold: " + std::to_string(nonManifoldVertices) + " bow-tie vertices");
  if (inconsistentEdges > 0) out.push_back("inconsistent orientation across " + std::to_string(inconsistentEdges) + " edges");
  if (selfIntersectingPairs > 0)
    out.push_back("self-intersecting: " + std::to_string(selfIntersectingPairs) + " triangle pairs cross");
  if (watertight() && triangles > 0 && signedVolume < 0.0) out.push_back("faces point inward (negative volume)");
  return out;
}

SurfaceCheckReport checkSurface(const SurfaceMesh& mesh, const SurfaceCheckOptions& options) {
  SurfaceCheckReport r;
  r.vertices = mesh.positions.size();
  r.triangles = mesh.triangles.size();
  if (!mesh.positions.empty()) {
    r.boundsMin = r.boundsMax = glm::dvec3(mesh.positions[0]);
    for (const glm::vec3& p : mesh.positions) {
      r.boundsMin = glm::min(r.boundsMin, glm::dvec3(p));
      r.boundsMax = glm::max(r.boundsMax, glm::dvec3(p));
    }
  }
  if (mesh.triangles.empty()) return r;
  const SurfaceEdges edges = buildSurfaceEdges(mesh);
  r.edges = edges.edges.size();
  for (size_t e = 0; e < edges.edges.size(); ++e) {
    const uint32_t n = edges.faceCount(e);
    if (n == 1) ++r.boundaryEdges;
    if (n > 2) ++r.nonManifoldEdges;
    if (n == 2) {
      const uint32_t k = edges.faceOffsets[e];
      if (edges.edgeForward[k] == edges.edgeForward[k + 1]) ++r.inconsistentEdges;
    }
  }
  r.nonManifoldVertices = countNonManifoldVertices(mesh, edges);
  std::vector<uint32_t> component;
  r.components = triangleComponents(mesh, edges, component);
  r.signedVolume = signedVolume(mesh);
  if (options.checkSelfIntersections) {
    SelfIntersectionReport si = findSelfIntersections(mesh);
    r.selfIntersectionChecked = true;
    r.selfIntersectingPairs = si.intersectingPairs;
    r.selfIntersectionExamples = std::move(si.examplePairs);
  }
  return r;
}

OrientationFixReport fixOrientation(SurfaceMesh& mesh) {
  OrientationFixReport report;
  const size_t n = mesh.triangles.size();
  if (n == 0) return report;
  const SurfaceEdges edges = buildSurfaceEdges(mesh);
  // Per face: its three edge ids, to walk neighbours.
  std::vector<uint32_t> faceEdgeOffsets(n + 1, 0), faceEdges(edges.edgeFaces.size());
  for (uint32_t f : edges.edgeFaces) ++faceEdgeOffsets[f + 1];
  for (size_t f = 0; f < n; ++f) faceEdgeOffsets[f + 1] += faceEdgeOffsets[f];
  {
    std::vector<uint32_t> fill(faceEdgeOffsets.begin(), faceEdgeOffsets.end() - 1);
    for (size_t e = 0; e < edges.edges.size(); ++e)
      for (uint32_t k = edges.faceOffsets[e]; k < edges.faceOffsets[e + 1]; ++k) faceEdges[fill[edges.edgeFaces[k]]++] = uint32_t(e);
  }
  auto forwardOf = [&](size_t e, uint32_t f) {
    for (uint32_t k = edges.faceOffsets[e]; k < edges.faceOffsets[e + 1]; ++k)
      if (edges.edgeFaces[k] == f) return edges.edgeForward[k];
    return uint8_t(0);
  };

  // Breadth-first over two-face edges: a neighbour must walk the shared edge the other way.
  std::vector<uint8_t> flip(n, 0);
  std::vector<uint32_t> group(n, UINT32_MAX);
  std::vector<uint8_t> groupClosed;
  uint32_t groupCount = 0;
  std::deque<uint32_t> queue;
  for (uint32_t seed = 0; seed < n; ++seed) {
    if (group[seed] != UINT32_MAX) continue;
    const uint32_t g = groupCount++;
    bool closed = true, orientable = true;
    group[seed] = g;
    queue.push_back(seed);
    while (!queue.empty()) {
      const uint32_t f = queue.front();
      queue.pop_front();
      for (uint32_t k = faceEdgeOffsets[f]; k < faceEdgeOffsets[f + 1]; ++k) {
        const uint32_t e = faceEdges[k];
        if (edges.faceCount(e) != 2) {
          closed = false;
          continue;
        }
        const uint32_t o = edges.faceOffsets[e];
        const uint32_t other = edges.edgeFaces[o] == f ? edges.edgeFaces[o + 1] : edges.edgeFaces[o];
        const uint8_t wantOther = uint8_t(1 - (forwardOf(e, f) ^ flip[f]));  // effective direction of the neighbour
        const uint8_t needFlip = uint8_t(forwardOf(e, other) ^ wantOther);
        if (group[other] == UINT32_MAX) {
          group[other] = g;
          flip[other] = needFlip;
          queue.push_back(other);
        } else if (flip[other] != needFlip) {
          orientable = false;
        }
      }
    }
    groupClosed.push_back(closed && orientable ? 1 : 0);
    if (!orientable) ++report.nonOrientableComponents;
  }
  for (size_t f = 0; f < n; ++f)
    if (flip[f]) std::swap(mesh.triangles[f].y, mesh.triangles[f].z);

  // Outward: closed groups get positive volume unless nested inside an odd number of others.
  std::vector<std::vector<uint32_t>> members(groupCount);
  for (uint32_t f = 0; f < n; ++f) members[group[f]].push_back(f);
  std::vector<uint32_t> closedGroups;
  for (uint32_t g = 0; g < groupCount; ++g)
    if (groupClosed[g]) closedGroups.push_back(g);
  std::vector<uint8_t> turn(groupCount, 0);
  for (uint32_t g : closedGroups) {
    double volume = 0.0;
    size_t largest = members[g][0];
    double largestArea = -1.0;
    for (uint32_t f : members[g]) {
      const glm::uvec3 t = mesh.triangles[f];
      const glm::dvec3 a(mesh.positions[t.x]), b(mesh.positions[t.y]), c(mesh.positions[t.z]);
      volume += glm::dot(a, glm::cross(b, c)) / 6.0;
      const double area = glm::length(glm::cross(b - a, c - a));
      if (area > largestArea) {
        largestArea = area;
        largest = f;
      }
    }
    int depth = 0;
    if (closedGroups.size() <= kMaxNestingComponents) {
      const glm::uvec3 t = mesh.triangles[largest];
      const glm::dvec3 probe = (glm::dvec3(mesh.positions[t.x]) + glm::dvec3(mesh.positions[t.y]) +
                                glm::dvec3(mesh.positions[t.z])) / 3.0;
      for (uint32_t h : closedGroups) {
        if (h != g) depth += int(std::lround(std::fabs(windingNumberExact(mesh, probe, members[h]))));
      }
    }
    const bool wantPositive = depth % 2 == 0;
    if (volume != 0.0 && (volume > 0.0) != wantPositive) turn[g] = 1;
  }
  for (uint32_t g = 0; g < groupCount; ++g) {
    if (!turn[g]) continue;
    ++report.componentsFlippedOutward;
    for (uint32_t f : members[g]) {
      std::swap(mesh.triangles[f].y, mesh.triangles[f].z);
      flip[f] ^= 1;
    }
  }
  report.trianglesFlipped = size_t(std::count(flip.begin(), flip.end(), uint8_t(1)));
  return report;
}

}  // namespace tetlab
