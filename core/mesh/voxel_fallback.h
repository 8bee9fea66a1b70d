#pragma once
// Volumetric fallback for surfaces TetGen cannot take (open, self-intersecting,
// non-manifold, triangle soup): mark the grid cells whose centre is inside by
// the generalized winding number, then split every inside cube into six tets.
//
//   cube corners (bit 0 = +x, bit 1 = +y, bit 2 = +z)     6 tets, one per axis order (a, b, c):
//        6-------7                                        (0, e_a, e_a + e_b, 7)
//       /|      /|                                        all share the main diagonal 0-7, and
//      4-------5 |                                        every face is cut by the diagonal from
//      | 2-----|-3                                        its lowest to its highest corner, so
//      |/      |/                                         neighbouring cubes agree: the lattice
//      0-------1                                          is conforming (Kuhn/Freudenthal split).
#include <atomic>
#include <cstddef>
#include <functional>

#include "core/mesh/tet_mesh.h"
#include "core/mesh/tet_target.h"
#include "core/result.h"

namespace tetlab {

struct VoxelOptions {
  int resolution = 0;           // cells along the longest bounding-box axis; 0 = derive from targetTets
  int targetTets = kDefaultTargetTets;  // used when resolution == 0 (about 6 tets per inside cell)
  double insideThreshold = 0.5; // |winding number| at a cell centre above this means inside
};

struct VoxelReport {
  int resolution = 0;
  size_t insideCells = 0;
  double cellSize = 0.0;        // in mesh units
};

// Limits that keep a mistaken resolution from eating the machine.
inline constexpr int kMaxVoxelResolution = 256;
inline constexpr int kMinVoxelResolution = 2;

// progress (may be empty) receives 0..1; cancel (may be null) aborts with an Error.
Result<TetMesh> voxelTetrahedralize(const SurfaceMesh& surface, const VoxelOptions& options,
                                    VoxelReport* outReport = nullptr,
                                    const std::function<void(float)>& progress = {},
                                    const std::atomic<bool>* cancel = nullptr);

}  // namespace tetlab
