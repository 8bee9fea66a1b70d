#pragma once
// Sliver removal after TetGen. TetGen 1.5's -q bounds the radius-edge ratio,
// which a sliver (four nearly coplanar corners, edges all of similar length)
// passes, and with -Y it may not touch the boundary: on the simplified scans
// most of its worst tets have all four corners on the surface (bunny at 2,000
// tets: 62 of 73 below 6V/Lmax^3 = 0.05). Its -O optimisation and -o/ angle
// bound moved the minimum little. This pass raises the worst tets by local
// moves that keep the surface, after Klingner & Shewchuk, "Aggressive
// Tetrahedral Mesh Improvement" (IMR 2007), Sec. 3: 2-3 and 3-2 flips of
// interior faces and edges, and smoothing of interior vertices, each kept only
// when it raises the least quality of the tets it replaces. A flat tet with two
// faces on the surface is removed (a 2-2 change of the surface, of a volume
// under quality x Lmax^3 / 6).
#include <cstddef>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

struct TetImproveOptions {
  double goal = 0.15;              // tets below this 6V/Lmax^3 are worked on
  double hullSliverQuality = 0.02;  // a tet with two surface faces below this is removed
  int maxPasses = 30;
  bool keepSurface = false;  // no surface vertex moves and no hull sliver goes (the deformer maps onto them)
};

struct TetImproveReport {
  double minQualityBefore = 0.0, minQualityAfter = 0.0;  // 6V/Lmax^3 over all tets
  size_t flips23 = 0, flips32 = 0, smoothed = 0, hullSliversRemoved = 0;
  int passes = 0;
  size_t changes() const { return flips23 + flips32 + smoothed + hullSliversRemoved; }
};

// Signed 6V/Lmax^3 of one tet: 1/sqrt(2) for a regular tet, <= 0 when inverted.
double tetQuality(const TetMesh& mesh, const glm::uvec4& tet);
double minTetQuality(const TetMesh& mesh);

// Needs every tet positively oriented (cleanTetMesh); keeps them so.
TetImproveReport improveTetQuality(TetMesh& mesh, const TetImproveOptions& options = {});

}  // namespace tetlab
