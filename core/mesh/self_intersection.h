#pragma once
// Finds pairs of surface triangles that cut through each other. TetGen fails
// (throws 3) or crashes on such input, so the pipeline checks first and takes
// the volumetric fallback instead.
#include <cstddef>
#include <vector>

#include <glm/vec2.hpp>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

struct SelfIntersectionReport {
  size_t intersectingPairs = 0;
  std::vector<glm::uvec2> examplePairs;  // the first few pairs (triangle indices)
};

// Candidate pairs come from a uniform grid over triangle bounding boxes
// (each pair tested once, in the lowest cell both boxes share). Triangles
// sharing an edge are not tested (they meet along it by construction);
// triangles sharing one vertex are tested on their opposite edges, so a fold
// through a shared vertex is found. Touching counts as intersecting.
SelfIntersectionReport findSelfIntersections(const SurfaceMesh& mesh, size_t maxExamples = 8);

// Exposed for tests: do the closed triangles (a0,a1,a2) and (b0,b1,b2) meet?
bool trianglesIntersect(const glm::dvec3& a0, const glm::dvec3& a1, const glm::dvec3& a2, const glm::dvec3& b0,
                        const glm::dvec3& b1, const glm::dvec3& b2);

}  // namespace tetlab
