// Ear clipping (Meisters' two-ears theorem: every simple polygon with n > 3
// has two non-overlapping ears). O(n^2) per polygon, fine for OBJ n-gons,
// which rarely have more than a few dozen corners.
#include "core/mesh/polygon_triangulation.h"

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

namespace tetlab {
namespace {

double cross2(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

bool pointInTriangle(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c) {
  return cross2(a, b, p) >= 0.0 && cross2(b, c, p) >= 0.0 && cross2(c, a, p) >= 0.0;
}

void fan(size_t n, std::vector<glm::uvec3>& out) {
  for (uint32_t i = 1; i + 1 < n; ++i) out.push_back({0u, i, i + 1});
}

}  // namespace

void triangulatePolygon(const std::vector<glm::dvec3>& corners, std::vector<glm::uvec3>& outTriangles) {
  const size_t n = corners.size();
  if (n < 3) return;
  if (n == 3) {
    outTriangles.push_back({0u, 1u, 2u});
    return;
  }
  // Newell's normal is robust for non-planar and concave polygons.
  glm::dvec3 normal(0.0);
  for (size_t i = 0; i < n; ++i) {
    const glm::dvec3& a = corners[i];
    const glm::dvec3& b = corners[(i + 1) % n];
    normal += glm::dvec3((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y));
  }
  const double len = glm::length(normal);
  if (!(len > 0.0)) {
    fan(n, outTriangles);  // zero-area polygon: the degenerate triangles are dropped later
    return;
  }
  normal /= len;
  // Orthonormal frame (u, v, normal) with u x v = normal, so the polygon's
  // winding is counter-clockwise in 2D.
  const glm::dvec3 helper = std::fabs(normal.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
  const glm::dvec3 u = glm::normalize(glm::cross(helper, normal));
  const glm::dvec3 v = glm::cross(normal, u);
  std::vector<glm::dvec2> p(n);
  for (size_t i = 0; i < n; ++i) p[i] = {glm::dot(corners[i], u), glm::dot(corners[i], v)};

  std::vector<uint32_t> ring(n);
  for (size_t i = 0; i < n; ++i) ring[i] = uint32_t(i);
  std::vector<glm::uvec3> tris;
  while (ring.size() > 3) {
    bool clipped = false;
    const size_t m = ring.size();
    for (size_t i = 0; i < m && !clipped; ++i) {
      const uint32_t ia = ring[(i + m - 1) % m], ib = ring[i], ic = ring[(i + 1) % m];
      if (cross2(p[ia], p[ib], p[ic]) <= 0.0) continue;  // reflex or flat corner: not an ear
      bool empty = true;
      for (size_t j = 0; j < m && empty; ++j) {
        const uint32_t q = ring[j];
        if (q == ia || q == ib || q == ic) continue;
        if (pointInTriangle(p[q], p[ia], p[ib], p[ic])) empty = false;
      }
      if (!empty) continue;
      tris.push_back({ia, ib, ic});
      ring.erase(ring.begin() + long(i));
      clipped = true;
    }
    if (!clipped) {
      fan(n, outTriangles);
      return;
    }
  }
  tris.push_back({ring[0], ring[1], ring[2]});
  outTriangles.insert(outTriangles.end(), tris.begin(), tris.end());
}

}  // namespace tetlab
