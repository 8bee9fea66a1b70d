// Winding-number voxelization + Kuhn split (see voxel_fallback.h).
// The resolution for a target tet count comes from a coarse 16^3 estimate of
// the inside volume: tets ~= 6 * V / h^3, so h = cbrt(6 V / target).
#include "core/mesh/voxel_fallback.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/mesh/winding_number.h"

namespace tetlab {
namespace {

struct Grid {
  glm::dvec3 origin{0.0};
  double h = 1.0;
  glm::ivec3 dims{1};
  size_t cellCount() const { return size_t(dims.x) * size_t(dims.y) * size_t(dims.z); }
  // Samples sit a tiny, irregular offset from the exact cell centre: the
  // winding number jumps on the surface itself, and axis-aligned input (a
  // flat sheet at z = 0, a face on a cell-centre plane) would otherwise be
  // sampled exactly on it.
  glm::dvec3 cellCentre(int x, int y, int z) const {
    return origin + h * (glm::dvec3(x, y, z) + 0.5 + glm::dvec3(kSampleJitter, 0.7 * kSampleJitter, 0.3 * kSampleJitter));
  }
  static constexpr double kSampleJitter = 1e-4;
};

// A grid of cubes of side L / resolution, centred on the bounding box.
Grid makeGrid(const glm::dvec3& lo, const glm::dvec3& hi, int resolution) {
  const glm::dvec3 extent = hi - lo;
  const double longest = std::max({extent.x, extent.y, extent.z});
  Grid g;
  g.h = longest / resolution;
  for (int k = 0; k < 3; ++k) g.dims[k] = std::max(1, int(std::ceil(extent[k] / g.h - 1e-9)));
  g.origin = 0.5 * (lo + hi) - 0.5 * g.h * glm::dvec3(g.dims);
  return g;
}

size_t countInside(const FastWindingNumber& wn, const Grid& g, double threshold) {
  size_t count = 0;
  for (int z = 0; z < g.dims.z; ++z)
    for (int y = 0; y < g.dims.y; ++y)
      for (int x = 0; x < g.dims.x; ++x) count += std::fabs(wn.evaluate(g.cellCentre(x, y, z))) > threshold;
  return count;
}

// Corner offsets of the six Kuhn tets, oriented positively.
std::array<std::array<int, 4>, 6> kuhnTets() {
  const int axisBit[3] = {1, 2, 4};
  std::array<std::array<int, 4>, 6> tets{};
  int perm[3] = {0, 1, 2};
  int i = 0;
  do {
    const int a = axisBit[perm[0]], b = axisBit[perm[1]];
    std::array<int, 4> t = {0, a, a | b, 7};
    auto corner = [](int bits) { return glm::dvec3(bits & 1, (bits >> 1) & 1, (bits >> 2) & 1); };
    const glm::dvec3 p0 = corner(t[0]);
    if (glm::dot(corner(t[1]) - p0, glm::cross(corner(t[2]) - p0, corner(t[3]) - p0)) < 0.0) std::swap(t[2], t[3]);
    tets[size_t(i++)] = t;
  } while (std::next_permutation(perm, perm + 3));
  return tets;
}

}  // namespace

Result<TetMesh> voxelTetrahedralize(const SurfaceMesh& surface, const VoxelOptions& options, VoxelReport* outReport,
                                    const std::function<void(float)>& progress, const std::atomic<bool>* cancel) {
  if (surface.triangles.empty()) return Error{"voxel fallback: the surface has no triangles"};
  glm::dvec3 lo(surface.positions[surface.triangles[0].x]), hi = lo;
  for (const glm::uvec3& t : surface.triangles)
    for (int k = 0; k < 3; ++k) {
      lo = glm::min(lo, glm::dvec3(surface.positions[t[k]]));
      hi = glm::max(hi, glm::dvec3(surface.positions[t[k]]));
    }
  const glm::dvec3 extent = hi - lo;
  const double longest = std::max({extent.x, extent.y, extent.z});
  if (!(longest > 0.0)) return Error{"voxel fallback: the surface has no extent"};

  const FastWindingNumber wn(surface);
  int resolution = options.resolution;
  if (resolution <= 0) {
    const int target = std::max(options.targetTets, 6);
    double volume = 0.0;
    for (int r : {16, 48}) {  // a thin part may fall between the centres of the coarser grid
      const Grid coarse = makeGrid(lo, hi, r);
      volume = double(countInside(wn, coarse, options.insideThreshold)) * coarse.h * coarse.h * coarse.h;
      if (volume > 0.0) break;
    }
    if (!(volume > 0.0)) {
      return Error{"voxel fallback: no point inside the surface was found even on a 48-cell grid; the surface "
                   "encloses no volume (flat, or an open sheet)"};
    }
    const double h = std::cbrt(6.0 * volume / target);
    resolution = int(std::ceil(longest / h));
  }
  resolution = std::clamp(resolution, kMinVoxelResolution, kMaxVoxelResolution);
  const Grid g = makeGrid(lo, hi, resolution);

  std::vector<uint8_t> inside(g.cellCount(), 0);
  size_t insideCount = 0;
  for (int z = 0; z < g.dims.z; ++z) {
    if (cancel && cancel->load()) return Error{"tetrahedralization cancelled"};
    for (int y = 0; y < g.dims.y; ++y)
      for (int x = 0; x < g.dims.x; ++x) {
        const bool in = std::fabs(wn.evaluate(g.cellCentre(x, y, z))) > options.insideThreshold;
        inside[(size_t(z) * g.dims.y + y) * g.dims.x + x] = in;
        insideCount += in;
      }
    if (progress) progress(float(z + 1) / float(g.dims.z));
  }
  if (outReport) *outReport = {resolution, insideCount, g.h};
  if (insideCount == 0) {
    return Error{"voxel fallback: no cell centre is inside the surface at resolution " + std::to_string(resolution) +
                 "; the surface encloses no volume at this resolution (raise it, or close the surface)"};
  }

  // Only corners of inside cells become vertices, so none is unused.
  const glm::ivec3 nd = g.dims + 1;
  std::vector<uint32_t> nodeId(size_t(nd.x) * nd.y * nd.z, UINT32_MAX);
  TetMesh mesh;
  mesh.tets.reserve(insideCount * 6);
  const auto tets = kuhnTets();
  for (int z = 0; z < g.dims.z; ++z)
    for (int y = 0; y < g.dims.y; ++y)
      for (int x = 0; x < g.dims.x; ++x) {
        if (!inside[(size_t(z) * g.dims.y + y) * g.dims.x + x]) continue;
        uint32_t corner[8];
        for (int bits = 0; bits < 8; ++bits) {
          const int cx = x + (bits & 1), cy = y + ((bits >> 1) & 1), cz = z + ((bits >> 2) & 1);
          uint32_t& id = nodeId[(size_t(cz) * nd.y + cy) * nd.x + cx];
          if (id == UINT32_MAX) {
            id = uint32_t(mesh.positions.size());
            mesh.positions.push_back(glm::vec3(g.origin + g.h * glm::dvec3(cx, cy, cz)));
          }
          corner[bits] = id;
        }
        for (const auto& t : tets) mesh.tets.push_back({corner[t[0]], corner[t[1]], corner[t[2]], corner[t[3]]});
      }
  return mesh;
}

}  // namespace tetlab
