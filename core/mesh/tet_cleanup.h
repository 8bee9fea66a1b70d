#pragma once
// Post-processing every tet mesh goes through, whichever path made it:
// positive orientation (a flipped tet gets negative volume and, in a peer,
// became massless and fell through the floor), no degenerate tets, no unused
// vertices. Degeneracy is relative to each tet's own size, never an absolute
// epsilon (absolute epsilons create scale-dependent dead zones).
#include <cstddef>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

struct TetCleanupReport {
  size_t reoriented = 0;             // tets whose two corners were swapped
  size_t degenerateDropped = 0;      // 6 |volume| / (longest edge)^3 < kMinTetQuality
  size_t invalidDropped = 0;         // repeated or out-of-range corners
  size_t unusedVerticesRemoved = 0;
};

// Scale-free flatness 6 |V| / Lmax^3 (a regular tet has 1/sqrt(2) ~= 0.707).
// Below 1e-5 a float inverse rest shape matrix loses most of its digits; the
// same bound as ModelBuildOptions::minTetQuality, so cleaned meshes always
// pass the model builder.
inline constexpr double kMinTetQuality = 1e-5;

// Signed volume (1/6) (p1-p0) . ((p2-p0) x (p3-p0)) in double.
double tetSignedVolume(const TetMesh& mesh, const glm::uvec4& tet);

TetCleanupReport cleanTetMesh(TetMesh& mesh);

}  // namespace tetlab
