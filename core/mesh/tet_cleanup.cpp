// Orientation, degeneracy and compaction of a tet mesh (see tet_cleanup.h).
#include "core/mesh/tet_cleanup.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>

namespace tetlab {

double tetSignedVolume(const TetMesh& mesh, const glm::uvec4& t) {
  const glm::dvec3 p0(mesh.positions[t.x]), p1(mesh.positions[t.y]), p2(mesh.positions[t.z]), p3(mesh.positions[t.w]);
  return glm::dot(p1 - p0, glm::cross(p2 - p0, p3 - p0)) / 6.0;
}

TetCleanupReport cleanTetMesh(TetMesh& mesh) {
  TetCleanupReport report;
  const size_t n = mesh.positions.size();
  std::vector<glm::uvec4> kept;
  kept.reserve(mesh.tets.size());
  for (glm::uvec4 t : mesh.tets) {
    const bool inRange = t.x < n && t.y < n && t.z < n && t.w < n;
    const bool distinct = t.x != t.y && t.x != t.z && t.x != t.w && t.y != t.z && t.y != t.w && t.z != t.w;
    if (!inRange || !distinct) {
      ++report.invalidDropped;
      continue;
    }
    double longest = 0.0;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        longest = std::max(longest, glm::length(glm::dvec3(mesh.positions[t[a]]) - glm::dvec3(mesh.positions[t[b]])));
    const double volume = tetSignedVolume(mesh, t);
    if (!(6.0 * std::fabs(volume) >= kMinTetQuality * longest * longest * longest) || longest == 0.0) {
      ++report.degenerateDropped;
      continue;
    }
    if (volume < 0.0) {
      std::swap(t.z, t.w);
      ++report.reoriented;
    }
    kept.push_back(t);
  }
  mesh.tets = std::move(kept);

  std::vector<uint32_t> remap(n, UINT32_MAX);
  for (const glm::uvec4& t : mesh.tets)
    for (int k = 0; k < 4; ++k) remap[t[k]] = 0;
  std::vector<glm::vec3> positions;
  positions.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (remap[i] == UINT32_MAX) continue;
    remap[i] = uint32_t(positions.size());
    positions.push_back(mesh.positions[i]);
  }
  report.unusedVerticesRemoved = n - positions.size();
  for (glm::uvec4& t : mesh.tets) t = {remap[t.x], remap[t.y], remap[t.z], remap[t.w]};
  mesh.positions = std::move(positions);
  return report;
}

}  // namespace tetlab
