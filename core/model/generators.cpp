// Lattice-based generators. One routine emits the tets of a structured cube
// lattice; each generator then maps lattice points to space and the tets are
// re-oriented from the mapped positions (so any orientation-reversing map or
// mirrored split is handled in one place).
//
// The sphere and torus mirror the Kuhn split per octant/quadrant so that each
// cube's cutting diagonal passes through the corner nearest the centre. Why: a
// cube at the ball's surface has 7 corners on the sphere; a tet not touching
// the inner corner would be 4 nearly coplanar surface points (a sliver). Mirror
// images share their faces exactly, so the split still conforms, provided the
// mirror planes are lattice planes (even cell counts; odd ones are rounded up).
#include "core/model/generators.h"

#include "core/model/splitmix64.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace tetlab {
namespace {

constexpr float kPi = 3.14159265358979323846f;

// Corner b of a unit cube has offset (b & 1, (b >> 1) & 1, (b >> 2) & 1).
constexpr std::array<std::array<uint32_t, 4>, 6> kKuhnTets = {{
    {0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}}};
// 5-tet split; the odd-parity cube uses the complementary corner set.
constexpr std::array<std::array<uint32_t, 4>, 5> kFiveTetsEven = {{
    {1, 2, 4, 7}, {0, 1, 2, 4}, {3, 1, 2, 7}, {5, 1, 4, 7}, {6, 2, 4, 7}}};
constexpr std::array<std::array<uint32_t, 4>, 5> kFiveTetsOdd = {{
    {0, 3, 5, 6}, {1, 0, 3, 5}, {2, 0, 3, 6}, {4, 0, 5, 6}, {7, 3, 5, 6}}};

struct LatticeSpec {
  glm::uvec3 cells{1u};
  bool periodicX = false;  // vertex i = cells.x wraps to i = 0
  CubeSplit split = CubeSplit::Six;
  // Per cell: which axes the split is mirrored along (bit a = mirror axis a).
  std::function<uint32_t(glm::uvec3 cell)> mirror;
};

glm::uvec3 vertexDims(const LatticeSpec& spec) {
  return {spec.periodicX ? spec.cells.x : spec.cells.x + 1, spec.cells.y + 1, spec.cells.z + 1};
}

uint32_t vertexIndex(const LatticeSpec& spec, glm::uvec3 p) {
  const glm::uvec3 dims = vertexDims(spec);
  const uint32_t i = spec.periodicX ? p.x % spec.cells.x : p.x;
  return i + dims.x * (p.y + dims.y * p.z);
}

std::vector<glm::uvec4> latticeTets(const LatticeSpec& spec) {
  std::vector<glm::uvec4> tets;
  const size_t cellCount = size_t(spec.cells.x) * spec.cells.y * spec.cells.z;
  tets.reserve(cellCount * (spec.split == CubeSplit::Six ? 6 : 5));
  for (uint32_t k = 0; k < spec.cells.z; ++k)
    for (uint32_t j = 0; j < spec.cells.y; ++j)
      for (uint32_t i = 0; i < spec.cells.x; ++i) {
        const glm::uvec3 cell{i, j, k};
        const uint32_t flip = spec.mirror ? spec.mirror(cell) : 0u;
        auto corner = [&](uint32_t b) {
          const uint32_t m = b ^ flip;
          return vertexIndex(spec, cell + glm::uvec3{m & 1u, (m >> 1) & 1u, (m >> 2) & 1u});
        };
        auto emit = [&](const std::array<uint32_t, 4>& t) {
          tets.push_back({corner(t[0]), corner(t[1]), corner(t[2]), corner(t[3])});
        };
        if (spec.split == CubeSplit::Six) {
          for (const auto& t : kKuhnTets) emit(t);
        } else {
          for (const auto& t : ((i + j + k) % 2 == 0 ? kFiveTetsEven : kFiveTetsOdd)) emit(t);
        }
      }
  return tets;
}

// Swap two corners of every negatively oriented tet (TetMesh contract).
void orientPositive(TetMesh& mesh) {
  for (glm::uvec4& t : mesh.tets) {
    const glm::dvec3 p0 = mesh.positions[t.x];
    const double det = glm::dot(glm::dvec3(mesh.positions[t.y]) - p0,
                                glm::cross(glm::dvec3(mesh.positions[t.z]) - p0, glm::dvec3(mesh.positions[t.w]) - p0));
    if (det < 0.0) std::swap(t.z, t.w);
  }
}

TetMesh mapLattice(const LatticeSpec& spec, const std::function<glm::vec3(glm::uvec3)>& place) {
  TetMesh mesh;
  const glm::uvec3 dims = vertexDims(spec);
  mesh.positions.resize(size_t(dims.x) * dims.y * dims.z);
  for (uint32_t k = 0; k < dims.z; ++k)
    for (uint32_t j = 0; j < dims.y; ++j)
      for (uint32_t i = 0; i < dims.x; ++i) mesh.positions[vertexIndex(spec, {i, j, k})] = place({i, j, k});
  mesh.tets = latticeTets(spec);
  orientPositive(mesh);
  return mesh;
}

// Radial map of the cube/square [-1,1]^n onto the ball/disc: max-norm shells
// become spheres (|result| = max |p_i|).
glm::vec3 cubeToBall(glm::vec3 p) {
  const float r = std::max({std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
  const float len = glm::length(p);
  return len > 0.0f ? p * (r / len) : p;
}

uint32_t roundUpEven(uint32_t n) { return std::max(2u, n + (n & 1u)); }

}  // namespace

TetMesh makeBoxTetMesh(glm::vec3 minCorner, glm::vec3 size, glm::uvec3 cells, CubeSplit split) {
  LatticeSpec spec;
  spec.cells = glm::max(cells, glm::uvec3(1u));
  spec.split = split == CubeSplit::Five ? CubeSplit::Five : CubeSplit::Six;
  if (split == CubeSplit::SixSymmetric) {
    const glm::uvec3 c = spec.cells;
    spec.mirror = [c](glm::uvec3 cell) {
      uint32_t m = 0;
      for (int a = 0; a < 3; ++a)
        if (c[a] % 2 == 0 && cell[a] < c[a] / 2) m |= 1u << a;
      return m;
    };
  }
  const glm::vec3 cellSize = size / glm::vec3(spec.cells);
  return mapLattice(spec, [&](glm::uvec3 p) { return minCorner + glm::vec3(p) * cellSize; });
}

TetMesh makeSphereTetMesh(glm::vec3 center, float radius, uint32_t cellsAcross) {
  const uint32_t n = roundUpEven(cellsAcross);
  const uint32_t half = n / 2;
  LatticeSpec spec;
  spec.cells = glm::uvec3(n);
  spec.mirror = [half](glm::uvec3 c) {
    // Mirror along each axis on the negative side, so the Kuhn diagonal runs
    // away from the centre in every octant.
    return (c.x < half ? 1u : 0u) | (c.y < half ? 2u : 0u) | (c.z < half ? 4u : 0u);
  };
  return mapLattice(spec, [&](glm::uvec3 p) {
    const glm::vec3 q = glm::vec3(p) / float(half) - 1.0f;  // [-1, 1]^3
    return center + radius * cubeToBall(q);
  });
}

TetMesh makeTorusTetMesh(glm::vec3 center, float majorRadius, float minorRadius, uint32_t ringSegments,
                         uint32_t cellsAcross) {
  const uint32_t n = roundUpEven(cellsAcross);
  const uint32_t half = n / 2;
  LatticeSpec spec;
  spec.cells = {std::max(3u, ringSegments), n, n};
  spec.periodicX = true;
  spec.mirror = [half](glm::uvec3 c) { return (c.y < half ? 2u : 0u) | (c.z < half ? 4u : 0u); };
  const float segments = float(spec.cells.x);
  return mapLattice(spec, [&](glm::uvec3 p) {
    const glm::vec3 q{0.0f, float(p.y) / float(half) - 1.0f, float(p.z) / float(half) - 1.0f};
    const glm::vec3 d = cubeToBall(q);  // disc point in (y, z)
    const float theta = 2.0f * kPi * float(p.x) / segments;
    const float rho = majorRadius + minorRadius * d.y;
    return center + glm::vec3(rho * std::cos(theta), minorRadius * d.z, rho * std::sin(theta));
  });
}

SurfaceMesh makeClothPatch(glm::vec3 minCorner, glm::vec2 size, glm::uvec2 cells) {
  cells = glm::max(cells, glm::uvec2(1u));
  SurfaceMesh m;
  const uint32_t nx = cells.x + 1;
  for (uint32_t j = 0; j <= cells.y; ++j)
    for (uint32_t i = 0; i <= cells.x; ++i)
      m.positions.emplace_back(minCorner.x + size.x * float(i) / float(cells.x), minCorner.y,
                               minCorner.z + size.y * float(j) / float(cells.y));
  for (uint32_t j = 0; j < cells.y; ++j)
    for (uint32_t i = 0; i < cells.x; ++i) {
      const uint32_t a = i + nx * j, b = a + 1, c = a + nx, d = c + 1;  // a b along +x, c d one row on (+z)
      // Counter-clockwise from +y: x cross z points to -y, so go a -> c -> b.
      if ((i + j) % 2 == 0) {
        m.triangles.emplace_back(a, c, d);
        m.triangles.emplace_back(a, d, b);
      } else {
        m.triangles.emplace_back(a, c, b);
        m.triangles.emplace_back(b, c, d);
      }
    }
  return m;
}

std::vector<std::vector<glm::vec3>> makeHair(glm::vec3 center, float radius, uint32_t strands, uint32_t points,
                                             float length, float capDegrees, float jitter, uint64_t seed) {
  return makeHair(center, radius, strands, points, length, capDegrees, jitter, seed, 0.0f, 0.05f);
}

std::vector<std::vector<glm::vec3>> makeHair(glm::vec3 center, float radius, uint32_t strands, uint32_t points,
                                             float length, float capDegrees, float jitter, uint64_t seed,
                                             float curlRadius, float curlTurn) {
  std::vector<std::vector<glm::vec3>> out;
  if (strands == 0 || points < 2) return out;
  SplitMix64 rng(seed);
  constexpr double kPi = 3.14159265358979;
  const double minCos = std::cos(double(capDegrees) * kPi / 180.0);
  const double golden = kPi * (3.0 - std::sqrt(5.0));
  // A helix of radius a advancing p per turn has arc length sqrt(a^2 + (p / 2 pi)^2) per
  // radian: each segment turns dTheta and advances the axis by p dTheta / 2 pi.
  const bool curl = curlRadius > 0.0f && curlTurn > 0.0f;
  const double a = curl ? double(curlRadius) : 0.0, pitch = curl ? double(curlTurn) / (2.0 * kPi) : 1.0;
  const double perRadian = std::sqrt(a * a + pitch * pitch);
  const double dTheta = double(length) / double(points - 1) / perRadian;
  const float axialStep = float(pitch * dTheta);
  for (uint32_t s = 0; s < strands; ++s) {
    // Equal-area spacing in cos(theta) over the cap, golden-angle turns in phi.
    const double cosTheta = 1.0 - (1.0 - minCos) * (double(s) + 0.5) / double(strands);
    const double sinTheta = std::sqrt(std::max(0.0, 1.0 - cosTheta * cosTheta));
    const double phi = golden * double(s);
    glm::vec3 dir(float(sinTheta * std::cos(phi)), float(cosTheta), float(sinTheta * std::sin(phi)));
    // A frame (u, w) across the path, carried along it (projected on each new normal plane).
    glm::vec3 u = glm::normalize(glm::cross(dir, std::fabs(dir.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0)));
    const double phase = curl ? kPi * double(rng.symmetric()) : 0.0;
    const glm::vec3 root = center + radius * dir;
    glm::vec3 axis = root;
    auto offset = [&](double theta) {
      const glm::vec3 w = glm::cross(dir, u);
      return float(a) * (float(std::cos(theta + phase)) * u + float(std::sin(theta + phase)) * w);
    };
    const glm::vec3 start = offset(0.0);  // the helix starts at the root
    std::vector<glm::vec3> line{root};
    for (uint32_t k = 1; k < points; ++k) {
      if (jitter > 0.0f) {
        dir = glm::normalize(dir + jitter * glm::vec3(rng.symmetric(), rng.symmetric(), rng.symmetric()));
        u = glm::normalize(u - glm::dot(u, dir) * dir);
      }
      axis += axialStep * dir;
      line.push_back(curl ? axis + offset(dTheta * double(k)) - start : axis);
    }
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace tetlab
