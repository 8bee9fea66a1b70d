// Surface clean-up with hashing instead of pairwise comparisons, so a
// 100k-triangle scan welds in milliseconds.
#include "core/mesh/surface_repair.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <glm/geometric.hpp>

namespace tetlab {
namespace {

struct CellKey {
  int64_t x, y, z;
  bool operator==(const CellKey&) const = default;
};

struct CellKeyHash {
  size_t operator()(const CellKey& k) const {
    // Teschner et al. 2003 spatial hash primes.
    return size_t(uint64_t(k.x) * 73856093u ^ uint64_t(k.y) * 19349663u ^ uint64_t(k.z) * 83492791u);
  }
};

uint64_t triangleKey(glm::uvec3 t) {
  std::array<uint32_t, 3> s = {t.x, t.y, t.z};
  std::sort(s.begin(), s.end());
  // 21 bits per index covers 2M vertices; beyond that collisions are resolved below.
  return (uint64_t(s[0]) << 42) ^ (uint64_t(s[1]) << 21) ^ uint64_t(s[2]);
}

std::array<uint32_t, 3> sortedCorners(glm::uvec3 t) {
  std::array<uint32_t, 3> s = {t.x, t.y, t.z};
  std::sort(s.begin(), s.end());
  return s;
}

}  // namespace

size_t weldVertices(SurfaceMesh& mesh, double weldDistance) {
  const size_t n = mesh.positions.size();
  if (n == 0) return 0;
  std::vector<uint32_t> remap(n);
  std::vector<glm::vec3> kept;
  kept.reserve(n);
  size_t merged = 0;

  if (!(weldDistance > 0.0)) {
    struct ExactHash {
      size_t operator()(const glm::vec3& p) const {
        return std::hash<float>()(p.x) * 31u ^ std::hash<float>()(p.y) * 17u ^ std::hash<float>()(p.z);
      }
    };
    std::unordered_map<glm::vec3, uint32_t, ExactHash> seen;
    seen.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      auto [it, inserted] = seen.try_emplace(mesh.positions[i], uint32_t(kept.size()));
      if (inserted) kept.push_back(mesh.positions[i]);
      else ++merged;
      remap[i] = it->second;
    }
  } else {
    glm::dvec3 lo(mesh.positions[0]);
    for (const glm::vec3& p : mesh.positions) lo = glm::min(lo, glm::dvec3(p));
    const double inv = 1.0 / weldDistance;
    const double d2 = weldDistance * weldDistance;
    std::unordered_map<CellKey, std::vector<uint32_t>, CellKeyHash> grid;
    grid.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      const glm::dvec3 p(mesh.positions[i]);
      const glm::dvec3 c = glm::floor((p - lo) * inv);
      const CellKey key{int64_t(c.x), int64_t(c.y), int64_t(c.z)};
      uint32_t found = UINT32_MAX;
      double best = d2;
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            auto it = grid.find({key.x + dx, key.y + dy, key.z + dz});
            if (it == grid.end()) continue;
            for (uint32_t k : it->second) {
              const glm::dvec3 q(kept[k]);
              const double dist2 = glm::dot(p - q, p - q);
              if (dist2 <= best) {
                best = dist2;
                found = k;
              }
            }
          }
      if (found == UINT32_MAX) {
        found = uint32_t(kept.size());
        kept.push_back(mesh.positions[i]);
        grid[key].push_back(found);
      } else {
        ++merged;
      }
      remap[i] = found;
    }
  }
  for (glm::uvec3& t : mesh.triangles) t = {remap[t.x], remap[t.y], remap[t.z]};
  mesh.positions = std::move(kept);
  return merged;
}

void dropDegenerateAndDuplicateTriangles(SurfaceMesh& mesh, SurfaceRepairCounts& counts) {
  std::vector<glm::uvec3> out;
  out.reserve(mesh.triangles.size());
  std::unordered_map<uint64_t, std::vector<uint32_t>> seen;  // key -> indices into out
  seen.reserve(mesh.triangles.size());
  for (const glm::uvec3& t : mesh.triangles) {
    if (t.x == t.y || t.y == t.z || t.z == t.x) {
      ++counts.degenerateFacesDropped;
      continue;
    }
    const glm::dvec3 a(mesh.positions[t.x]), b(mesh.positions[t.y]), c(mesh.positions[t.z]);
    const double twiceArea = glm::length(glm::cross(b - a, c - a));
    const double longest2 = std::max({glm::dot(b - a, b - a), glm::dot(c - b, c - b), glm::dot(a - c, a - c)});
    if (!(twiceArea > 2.0 * kDegenerateAreaRelative * longest2)) {
      ++counts.degenerateFacesDropped;
      continue;
    }
    auto& bucket = seen[triangleKey(t)];
    bool duplicate = false;
    for (uint32_t k : bucket) duplicate = duplicate || sortedCorners(out[k]) == sortedCorners(t);
    if (duplicate) {
      ++counts.duplicateFacesDropped;
      continue;
    }
    bucket.push_back(uint32_t(out.size()));
    out.push_back(t);
  }
  mesh.triangles = std::move(out);
}

size_t removeUnreferencedVertices(SurfaceMesh& mesh) {
  // Keeps the surviving vertices in their original order.
  std::vector<uint32_t> remap(mesh.positions.size(), UINT32_MAX);
  for (const glm::uvec3& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) remap[t[k]] = 0;
  std::vector<glm::vec3> kept;
  kept.reserve(mesh.positions.size());
  for (size_t i = 0; i < remap.size(); ++i) {
    if (remap[i] == UINT32_MAX) continue;
    remap[i] = uint32_t(kept.size());
    kept.push_back(mesh.positions[i]);
  }
  for (glm::uvec3& t : mesh.triangles) t = {remap[t.x], remap[t.y], remap[t.z]};
  const size_t removed = mesh.positions.size() - kept.size();
  mesh.positions = std::move(kept);
  return removed;
}

SurfaceRepairCounts repairSurface(SurfaceMesh& mesh, double weldDistance) {
  SurfaceRepairCounts counts;
  counts.weldedVertices = weldVertices(mesh, weldDistance);
  dropDegenerateAndDuplicateTriangles(mesh, counts);
  counts.unreferencedVerticesRemoved = removeUnreferencedVertices(mesh);
  return counts;
}

}  // namespace tetlab
