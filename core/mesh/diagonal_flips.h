#pragma once
// Undoing bad diagonals. A non-planar quad (or n-gon) can be split along either
// diagonal; the two splits bound the tetrahedron of its four corners between
// them, so a nearby part of the surface that passes through that tetrahedron
// crosses one split and not the other. Ear clipping cannot know which, and a
// valid closed polygon mesh then reaches the pipeline self-intersecting (and
// goes to the voxel fallback). flipCrossingDiagonals tries, for every
// triangle in a crossing pair, the other diagonal of the quad it forms with
// each edge neighbour, and keeps a flip only when the surface's crossing
// count falls, until none is left or no flip helps.
#include <cstddef>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

// Candidate flips tried at most, so a badly broken surface (thousands of
// crossings no flip can mend) costs bounded time.
inline constexpr size_t kMaxDiagonalFlipTries = 256;

struct DiagonalFlipReport {
  size_t flipped = 0;        // diagonals changed
  size_t crossingBefore = 0, crossingAfter = 0;  // crossing triangle pairs
};

// Edits `mesh` in place (same vertices, same triangle count, orientation kept).
DiagonalFlipReport flipCrossingDiagonals(SurfaceMesh& mesh);

}  // namespace tetlab
