#pragma once
// Quadric-error edge collapse (Garland & Heckbert 1997, "Surface
// Simplification Using Quadric Error Metrics") for closed manifold surfaces.
// Why it is here: TetGen keeps every surface triangle, so a 100k-triangle
// scan would become a 300k-tet simulation mesh. We simplify the surface that
// TetGen sees to match the target tet count and draw the original surface
// through the embedding instead.
//
// Each collapse is checked before it is done: the link condition (Dey et al.
// 1999) keeps the surface manifold, no remaining triangle may flip, the worst
// triangle shape around the edge may not get worse, and the surface may not
// move by more than 0.5% of the bounding-box diagonal. A refused collapse is
// offered again when its neighbourhood changes, so thin regions (the sliver
// fans at a UV sphere's poles) do not stall and push all the error elsewhere.
#include <cstddef>

#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

struct SimplifyReport {
  size_t trianglesBefore = 0;
  size_t trianglesAfter = 0;
  size_t collapses = 0;
  size_t rejectedCollapses = 0;   // candidates refused by the link, flip or sliver checks
};

// Collapses edges, cheapest quadric error first, until at most
// targetTriangles remain or no valid collapse is left (then it stops short). The input must be
// closed and manifold (Error otherwise).
Result<SurfaceMesh> simplifySurface(const SurfaceMesh& surface, size_t targetTriangles,
                                    SimplifyReport* outReport = nullptr);

}  // namespace tetlab
