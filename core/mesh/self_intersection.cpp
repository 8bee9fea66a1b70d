// Triangle-triangle intersection by segment/triangle tests: two
// non-coplanar triangles meet iff one of the six edges meets the other
// triangle (the intersection is a segment whose endpoints lie on edges).
// Coplanar pairs are decided in 2D. Orientation tests use doubles built from
// float input, which keeps the differences exact and the signs reliable for
// the inputs we see; an exact predicate is not worth its cost for a report.
#include "core/mesh/self_intersection.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace tetlab {
namespace {

double orient(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c, const glm::dvec3& d) {
  return glm::dot(b - a, glm::cross(c - a, d - a));
}

int sign(double x) { return (x > 0.0) - (x < 0.0); }

// 2D helpers on the plane that drops the dominant normal axis.
struct Plane2D {
  int u, v;
  glm::dvec2 project(const glm::dvec3& p) const { return {p[u], p[v]}; }
};

Plane2D dominantPlane(const glm::dvec3& n) {
  const glm::dvec3 a = glm::abs(n);
  if (a.x >= a.y && a.x >= a.z) return {1, 2};
  if (a.y >= a.z) return {2, 0};
  return {0, 1};
}

double cross2(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

bool onSegment2(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

bool segmentsIntersect2(const glm::dvec2& p, const glm::dvec2& q, const glm::dvec2& a, const glm::dvec2& b) {
  const int d1 = sign(cross2(a, b, p)), d2 = sign(cross2(a, b, q));
  const int d3 = sign(cross2(p, q, a)), d4 = sign(cross2(p, q, b));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 == 0 && onSegment2(p, a, b)) || (d2 == 0 && onSegment2(q, a, b)) || (d3 == 0 && onSegment2(a, p, q)) ||
         (d4 == 0 && onSegment2(b, p, q));
}

bool pointInTriangle2(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c) {
  const double s1 = cross2(a, b, p), s2 = cross2(b, c, p), s3 = cross2(c, a, p);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

bool segmentTriangleCoplanar(const glm::dvec3& p, const glm::dvec3& q, const glm::dvec3& a, const glm::dvec3& b,
                             const glm::dvec3& c) {
  const Plane2D pl = dominantPlane(glm::cross(b - a, c - a));
  const glm::dvec2 p2 = pl.project(p), q2 = pl.project(q), a2 = pl.project(a), b2 = pl.project(b), c2 = pl.project(c);
  return pointInTriangle2(p2, a2, b2, c2) || segmentsIntersect2(p2, q2, a2, b2) ||
         segmentsIntersect2(p2, q2, b2, c2) || segmentsIntersect2(p2, q2, c2, a2);
}

bool segmentTriangle(const glm::dvec3& p, const glm::dvec3& q, const glm::dvec3& a, const glm::dvec3& b,
                     const glm::dvec3& c) {
  const int sp = sign(orient(a, b, c, p)), sq = sign(orient(a, b, c, q));
  if (sp == sq && sp != 0) return false;
  if (sp == 0 && sq == 0) return segmentTriangleCoplanar(p, q, a, b, c);
  const int s1 = sign(orient(p, q, a, b)), s2 = sign(orient(p, q, b, c)), s3 = sign(orient(p, q, c, a));
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

}  // namespace

bool trianglesIntersect(const glm::dvec3& a0, const glm::dvec3& a1, const glm::dvec3& a2, const glm::dvec3& b0,
                        const glm::dvec3& b1, const glm::dvec3& b2) {
  if (segmentTriangle(a0, a1, b0, b1, b2) || segmentTriangle(a1, a2, b0, b1, b2) ||
      segmentTriangle(a2, a0, b0, b1, b2) || segmentTriangle(b0, b1, a0, a1, a2) ||
      segmentTriangle(b1, b2, a0, a1, a2) || segmentTriangle(b2, b0, a0, a1, a2)) {
    return true;
  }
  // Coplanar containment (no edge crossing): one triangle inside the other.
  if (sign(orient(a0, a1, a2, b0)) == 0 && sign(orient(a0, a1, a2, b1)) == 0 && sign(orient(a0, a1, a2, b2)) == 0) {
    const Plane2D pl = dominantPlane(glm::cross(a1 - a0, a2 - a0));
    return pointInTriangle2(pl.project(b0), pl.project(a0), pl.project(a1), pl.project(a2)) ||
           pointInTriangle2(pl.project(a0), pl.project(b0), pl.project(b1), pl.project(b2));
  }
  return false;
}

SelfIntersectionReport findSelfIntersections(const SurfaceMesh& mesh, size_t maxExamples) {
  SelfIntersectionReport report;
  const size_t n = mesh.triangles.size();
  if (n < 2) return report;

  std::vector<glm::dvec3> lo(n), hi(n);
  glm::dvec3 gLo(mesh.positions[mesh.triangles[0].x]), gHi = gLo;
  double sizeSum = 0.0;
  for (size_t f = 0; f < n; ++f) {
    const glm::uvec3 t = mesh.triangles[f];
    const glm::dvec3 a(mesh.positions[t.x]), b(mesh.positions[t.y]), c(mesh.positions[t.z]);
    lo[f] = glm::min(a, glm::min(b, c));
    hi[f] = glm::max(a, glm::max(b, c));
    gLo = glm::min(gLo, lo[f]);
    gHi = glm::max(gHi, hi[f]);
    const glm::dvec3 e = hi[f] - lo[f];
    sizeSum += std::max({e.x, e.y, e.z});
  }
  // Cells about the size of a mean triangle keep the per-cell lists short.
  const glm::dvec3 extent = glm::max(gHi - gLo, glm::dvec3(1e-30));
  const double cell = std::max(sizeSum / double(n), std::max({extent.x, extent.y, extent.z}) / 128.0);
  glm::ivec3 dims;
  for (int k = 0; k < 3; ++k) dims[k] = std::clamp(int(std::ceil(extent[k] / cell)), 1, 128);
  auto cellOf = [&](const glm::dvec3& p) {
    glm::ivec3 c;
    for (int k = 0; k < 3; ++k) c[k] = std::clamp(int((p[k] - gLo[k]) / extent[k] * dims[k]), 0, dims[k] - 1);
    return c;
  };
  std::vector<glm::ivec3> cLo(n), cHi(n);
  const size_t cellCount = size_t(dims.x) * dims.y * dims.z;
  std::vector<uint32_t> offsets(cellCount + 1, 0);
  auto index = [&](int x, int y, int z) { return (size_t(z) * dims.y + y) * dims.x + x; };
  for (size_t f = 0; f < n; ++f) {
    cLo[f] = cellOf(lo[f]);
    cHi[f] = cellOf(hi[f]);
    for (int z = cLo[f].z; z <= cHi[f].z; ++z)
      for (int y = cLo[f].y; y <= cHi[f].y; ++y)
        for (int x = cLo[f].x; x <= cHi[f].x; ++x) ++offsets[index(x, y, z) + 1];
  }
  for (size_t c = 0; c < cellCount; ++c) offsets[c + 1] += offsets[c];
  std::vector<uint32_t> items(offsets.back());
  std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (size_t f = 0; f < n; ++f)
    for (int z = cLo[f].z; z <= cHi[f].z; ++z)
      for (int y = cLo[f].y; y <= cHi[f].y; ++y)
        for (int x = cLo[f].x; x <= cHi[f].x; ++x) items[fill[index(x, y, z)]++] = uint32_t(f);

  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x) {
        const size_t c = index(x, y, z);
        for (uint32_t i = offsets[c]; i < offsets[c + 1]; ++i) {
          for (uint32_t j = i + 1; j < offsets[c + 1]; ++j) {
            const uint32_t fa = items[i], fb = items[j];
            // Test each pair only in the lowest cell both boxes cover.
            const glm::ivec3 first = glm::max(cLo[fa], cLo[fb]);
            if (first != glm::ivec3(x, y, z)) continue;
            if (glm::any(glm::greaterThan(lo[fa], hi[fb])) || glm::any(glm::greaterThan(lo[fb], hi[fa]))) continue;
            const glm::uvec3 ta = mesh.triangles[fa], tb = mesh.triangles[fb];
            int shared = 0, sa = -1, sb = -1;
            for (int p = 0; p < 3; ++p)
              for (int q = 0; q < 3; ++q)
                if (ta[p] == tb[q]) {
                  ++shared;
                  sa = p;
                  sb = q;
                }
            if (shared >= 2) continue;
            const glm::dvec3 a0(mesh.positions[ta.x]), a1(mesh.positions[ta.y]), a2(mesh.positions[ta.z]);
            const glm::dvec3 b0(mesh.positions[tb.x]), b1(mesh.positions[tb.y]), b2(mesh.positions[tb.z]);
            bool hit;
            if (shared == 1) {
              const glm::dvec3 A[3] = {a0, a1, a2}, B[3] = {b0, b1, b2};
              hit = segmentTriangle(A[(sa + 1) % 3], A[(sa + 2) % 3], b0, b1, b2) ||
                    segmentTriangle(B[(sb + 1) % 3], B[(sb + 2) % 3], a0, a1, a2);
            } else {
              hit = trianglesIntersect(a0, a1, a2, b0, b1, b2);
            }
            if (!hit) continue;
            ++report.intersectingPairs;
            if (report.examplePairs.size() < maxExamples) report.examplePairs.push_back({fa, fb});
          }
        }
      }
  return report;
}

}  // namespace tetlab
