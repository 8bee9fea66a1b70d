#pragma once
// Cleans a triangle soup into an indexed surface: weld coincident vertices,
// drop degenerate and duplicate triangles, remove unreferenced vertices.
// Each step counts what it changed so the loader can tell the user.
#include <cstddef>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

struct SurfaceRepairCounts {
  size_t weldedVertices = 0;           // vertices merged into an earlier one
  size_t degenerateFacesDropped = 0;   // repeated corner or zero area
  size_t duplicateFacesDropped = 0;    // same three vertices as an earlier face (either winding)
  size_t unreferencedVerticesRemoved = 0;
};

// Welds vertices closer than weldDistance (absolute, in mesh units) with a
// spatial hash of cell size weldDistance: O(n), not O(n^2). Vertices are
// visited in order; each maps to the nearest already-kept vertex within the
// distance, or is kept itself. weldDistance <= 0
// welds exactly equal positions only. Returns the number of merged vertices.
size_t weldVertices(SurfaceMesh& mesh, double weldDistance);

// Drops triangles with a repeated corner or an area below
// kDegenerateAreaRelative * (longest edge)^2, and triangles whose vertex set
// repeats an earlier triangle's (a doubled or back-to-back face).
void dropDegenerateAndDuplicateTriangles(SurfaceMesh& mesh, SurfaceRepairCounts& counts);

// Removes vertices no triangle uses, renumbering triangles. Returns the count.
size_t removeUnreferencedVertices(SurfaceMesh& mesh);

// All of the above in order; weldDistance as for weldVertices.
SurfaceRepairCounts repairSurface(SurfaceMesh& mesh, double weldDistance);

// Zero area up to single-precision rounding of the corner positions.
inline constexpr double kDegenerateAreaRelative = 1e-10;

}  // namespace tetlab
