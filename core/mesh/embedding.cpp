// Point location in a tet mesh with a uniform grid over tet bounding boxes.
// A point's own cell lists every tet whose box covers it, so containment is
// one lookup; a point in no tet searches rings of cells outward until no
// closer tet can exist (a ring r cells away is at least (r-1) h away).
#include "core/mesh/embedding.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>

#include "core/mesh/triangle_distance.h"

namespace tetlab {
namespace {

// Points this far outside (in barycentric weight) still count as inside:
// rounding on shared faces must not send a point to the nearest-tet search.
constexpr double kInsideTolerance = 1e-6;

struct TetGrid {
  glm::dvec3 origin{0.0};
  double h = 1.0;
  glm::ivec3 dims{1};
  std::vector<uint32_t> offsets, items;
  std::vector<glm::dvec3> boxLo, boxHi;  // per tet

  glm::ivec3 cellOf(const glm::dvec3& p) const {
    glm::ivec3 c;
    for (int k = 0; k < 3; ++k) c[k] = std::clamp(int(std::floor((p[k] - origin[k]) / h)), 0, dims[k] - 1);
    return c;
  }
  size_t index(const glm::ivec3& c) const { return (size_t(c.z) * dims.y + c.y) * dims.x + c.x; }
};

TetGrid buildGrid(const TetMesh& mesh) {
  TetGrid g;
  glm::dvec3 lo(mesh.positions[0]), hi = lo;
  for (const glm::vec3& p : mesh.positions) {
    lo = glm::min(lo, glm::dvec3(p));
    hi = glm::max(hi, glm::dvec3(p));
  }
  const glm::dvec3 extent = glm::max(hi - lo, glm::dvec3(1e-30));
  // About one tet per cell on average; at most 128 cells per axis.
  const double volume = extent.x * extent.y * extent.z;
  g.h = std::max({std::cbrt(volume / double(std::max<size_t>(mesh.tets.size(), 1))), extent.x / 128.0,
                  extent.y / 128.0, extent.z / 128.0});
  for (int k = 0; k < 3; ++k) g.dims[k] = std::max(1, int(std::ceil(extent[k] / g.h)));
  g.origin = lo;
  const size_t cells = size_t(g.dims.x) * g.dims.y * g.dims.z;
  g.offsets.assign(cells + 1, 0);
  std::vector<glm::ivec3> cLo(mesh.tets.size()), cHi(mesh.tets.size());
  g.boxLo.resize(mesh.tets.size());
  g.boxHi.resize(mesh.tets.size());
  for (size_t t = 0; t < mesh.tets.size(); ++t) {
    glm::dvec3 a(mesh.positions[mesh.tets[t].x]), b = a;
    for (int k = 1; k < 4; ++k) {
      a = glm::min(a, glm::dvec3(mesh.positions[mesh.tets[t][k]]));
      b = glm::max(b, glm::dvec3(mesh.positions[mesh.tets[t][k]]));
    }
    g.boxLo[t] = a;
    g.boxHi[t] = b;
    cLo[t] = g.cellOf(a);
    cHi[t] = g.cellOf(b);
    for (int z = cLo[t].z; z <= cHi[t].z; ++z)
      for (int y = cLo[t].y; y <= cHi[t].y; ++y)
        for (int x = cLo[t].x; x <= cHi[t].x; ++x) ++g.offsets[g.index({x, y, z}) + 1];
  }
  for (size_t c = 0; c < cells; ++c) g.offsets[c + 1] += g.offsets[c];
  g.items.resize(g.offsets.back());
  std::vector<uint32_t> fill(g.offsets.begin(), g.offsets.end() - 1);
  for (size_t t = 0; t < mesh.tets.size(); ++t)
    for (int z = cLo[t].z; z <= cHi[t].z; ++z)
      for (int y = cLo[t].y; y <= cHi[t].y; ++y)
        for (int x = cLo[t].x; x <= cHi[t].x; ++x) g.items[fill[g.index({x, y, z})]++] = uint32_t(t);
  return g;
}

// Barycentric weights of p in tet t (unclamped): solve [p1-p0 p2-p0 p3-p0] l = p - p0.
glm::dvec4 barycentric(const TetMesh& mesh, uint32_t t, const glm::dvec3& p) {
  const glm::uvec4 v = mesh.tets[t];
  const glm::dvec3 p0(mesh.positions[v.x]);
  const glm::dmat3 D(glm::dvec3(mesh.positions[v.y]) - p0, glm::dvec3(mesh.positions[v.z]) - p0,
                     glm::dvec3(mesh.positions[v.w]) - p0);
  const double det = glm::determinant(D);
  if (!(std::fabs(det) > 0.0)) return glm::dvec4(-1e30);
  const glm::dvec3 l = glm::inverse(D) * (p - p0);
  return {1.0 - l.x - l.y - l.z, l.x, l.y, l.z};
}

double distanceToTet(const TetMesh& mesh, uint32_t t, const glm::dvec3& p) {
  const glm::uvec4 v = mesh.tets[t];
  const glm::dvec3 q[4] = {glm::dvec3(mesh.positions[v.x]), glm::dvec3(mesh.positions[v.y]),
                           glm::dvec3(mesh.positions[v.z]), glm::dvec3(mesh.positions[v.w])};
  double best = std::numeric_limits<double>::max();
  const int faces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  for (const auto& f : faces) best = std::min(best, glm::length(p - closestPointOnTriangle(p, q[f[0]], q[f[1]], q[f[2]])));
  return best;
}

}  // namespace

Result<SurfaceEmbedding> embedPoints(const TetMesh& mesh, std::span<const glm::vec3> points) {
  if (mesh.tets.empty() || mesh.positions.empty()) return Error{"cannot embed a surface in an empty tet mesh"};
  const TetGrid g = buildGrid(mesh);
  // A tet spans several cells: stamp it per point so it is measured once.
  std::vector<uint32_t> visited(mesh.tets.size(), UINT32_MAX);
  SurfaceEmbedding out;
  out.vertices.resize(points.size());
  out.weights.resize(points.size());
  out.tet.resize(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const glm::dvec3 p(points[i]);
    const glm::ivec3 c = g.cellOf(p);
    uint32_t bestTet = UINT32_MAX;
    double bestMin = -std::numeric_limits<double>::max();
    glm::dvec4 bestW(0.0);
    for (uint32_t k = g.offsets[g.index(c)]; k < g.offsets[g.index(c) + 1]; ++k) {
      const glm::dvec4 w = barycentric(mesh, g.items[k], p);
      const double m = std::min(std::min(w.x, w.y), std::min(w.z, w.w));
      if (m > bestMin) {
        bestMin = m;
        bestTet = g.items[k];
        bestW = w;
      }
    }
    if (bestTet == UINT32_MAX || bestMin < -kInsideTolerance) {
      // Outside every tet: nearest tet by true distance, rings of cells outward.
      double bestDist = std::numeric_limits<double>::max();
      const int maxRing = std::max({g.dims.x, g.dims.y, g.dims.z});
      for (int r = 0; r <= maxRing; ++r) {
        if (bestTet != UINT32_MAX && (r - 1) * g.h > bestDist) break;
        const glm::ivec3 lo = glm::max(c - r, glm::ivec3(0)), hi = glm::min(c + r, g.dims - 1);
        for (int z = lo.z; z <= hi.z; ++z)
          for (int y = lo.y; y <= hi.y; ++y)
            for (int x = lo.x; x <= hi.x; ++x) {
              if (std::max({std::abs(x - c.x), std::abs(y - c.y), std::abs(z - c.z)}) != r) continue;
              const size_t cell = g.index({x, y, z});
              for (uint32_t k = g.offsets[cell]; k < g.offsets[cell + 1]; ++k) {
                const uint32_t t = g.items[k];
                if (visited[t] == uint32_t(i)) continue;
                visited[t] = uint32_t(i);
                // The box distance bounds the tet distance from below: skip far tets cheaply.
                const glm::dvec3 gap = glm::max(glm::max(g.boxLo[t] - p, p - g.boxHi[t]), glm::dvec3(0.0));
                if (glm::dot(gap, gap) >= bestDist * bestDist) continue;
                const double d = distanceToTet(mesh, t, p);
                if (d < bestDist) {
                  bestDist = d;
                  bestTet = t;
                }
              }
            }
      }
      bestW = barycentric(mesh, bestTet, p);
      ++out.outsideVertices;
      out.maxOutsideDistance = std::max(out.maxOutsideDistance, bestDist);
    }
    out.tet[i] = bestTet;
    out.vertices[i] = mesh.tets[bestTet];
    out.weights[i] = glm::vec4(bestW);
  }
  return out;
}

void applyEmbedding(const SurfaceEmbedding& e, std::span<const glm::vec3> x, std::span<glm::vec3> out) {
  const size_t n = std::min(out.size(), e.vertices.size());
  for (size_t i = 0; i < n; ++i) {
    const glm::uvec4 v = e.vertices[i];
    const glm::vec4 w = e.weights[i];
    out[i] = w.x * x[v.x] + w.y * x[v.y] + w.z * x[v.z] + w.w * x[v.w];
  }
}

void applyEmbedding(const SurfaceEmbedding& e, std::span<const glm::vec4> x, std::span<glm::vec3> out) {
  const size_t n = std::min(out.size(), e.vertices.size());
  for (size_t i = 0; i < n; ++i) {
    const glm::uvec4 v = e.vertices[i];
    const glm::vec4 w = e.weights[i];
    out[i] = w.x * glm::vec3(x[v.x]) + w.y * glm::vec3(x[v.y]) + w.z * glm::vec3(x[v.z]) + w.w * glm::vec3(x[v.w]);
  }
}

void computeVertexNormals(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles,
                          std::vector<glm::vec3>& outNormals) {
  outNormals.assign(positions.size(), glm::vec3(0.0f));
  for (const glm::uvec3& t : triangles) {
    // The cross product's length is twice the area: area weighting for free.
    const glm::vec3 n = glm::cross(positions[t.y] - positions[t.x], positions[t.z] - positions[t.x]);
    outNormals[t.x] += n;
    outNormals[t.y] += n;
    outNormals[t.z] += n;
  }
  for (glm::vec3& n : outNormals) {
    const float len = glm::length(n);
    n = len > 0.0f ? n / len : glm::vec3(0.0f);
  }
}

}  // namespace tetlab
