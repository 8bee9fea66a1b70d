#include "core/sim/sdf_grid.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include <glm/common.hpp>

#include "core/mesh/surface_checks.h"
#include "core/mesh/triangle_distance.h"
#include "core/mesh/winding_number.h"

namespace tetlab {

Result<SdfGrid> sampleSdfGrid(const SurfaceMesh& mesh, int resolution, const std::string& what) {
  if (mesh.triangles.empty()) return Error{what + ": the mesh has no triangles, so it cannot be a collider"};
  SurfaceCheckOptions options;
  options.checkSelfIntersections = false;
  const SurfaceCheckReport check = checkSurface(mesh, options);
  if (!check.watertight())
    return Error{what + ": the surface has " + std::to_string(check.boundaryEdges) +
                 " boundary edges (holes), so it has no inside; a mesh collider needs a closed surface (close the "
                 "holes, or use it as a body, which the mesh pipeline repairs)"};
  resolution = std::clamp(resolution, kSdfMinResolution, kSdfMaxResolution);
  const glm::vec3 lo(check.boundsMin), hi(check.boundsMax);
  const glm::vec3 extent = hi - lo;
  const float longest = std::max({extent.x, extent.y, extent.z});
  if (!(longest > 0.0f)) return Error{what + ": the mesh has no extent"};
  // longest + 2 margins spans resolution - 1 cells.
  SdfGrid grid;
  grid.cell = longest / (float(resolution - 1) - 2.0f * kSdfMarginCells);
  grid.origin = lo - glm::vec3(kSdfMarginCells * grid.cell);
  for (int a = 0; a < 3; ++a)
    grid.dims[a] = uint32_t(std::ceil(extent[a] / grid.cell + 2.0f * kSdfMarginCells)) + 1u;
  grid.phi.resize(size_t(grid.dims.x) * grid.dims.y * grid.dims.z);

  const TriangleDistance distance(mesh);
  const FastWindingNumber winding(mesh);
  // Slabs of k on the cores the machine has: every node is independent.
  const unsigned workers = std::max(1u, std::min(std::thread::hardware_concurrency(), grid.dims.z));
  auto fill = [&](unsigned w) {
    for (uint32_t k = w; k < grid.dims.z; k += workers)
      for (uint32_t j = 0; j < grid.dims.y; ++j)
        for (uint32_t i = 0; i < grid.dims.x; ++i) {
          const glm::dvec3 q = glm::dvec3(grid.origin) + double(grid.cell) * glm::dvec3(i, j, k);
          const double d = distance.distance(q);
          grid.phi[(size_t(k) * grid.dims.y + j) * grid.dims.x + i] = float(winding.evaluate(q) > 0.5 ? -d : d);
        }
  };
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(fill, w);
  fill(0);
  for (std::thread& t : threads) t.join();
  return grid;
}

}  // namespace tetlab
