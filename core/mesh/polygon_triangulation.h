#pragma once
// Splits one planar-ish polygon (an OBJ quad or n-gon) into triangles.
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace tetlab {

// Ear clipping in the plane of the polygon's Newell normal, so concave n-gons
// keep their shape; falls back to a fan when no ear can be found (a
// self-intersecting or badly non-planar polygon). Appends corner indices
// (0..n-1, in the polygon's winding) to outTriangles; n-2 triangles for n >= 3.
void triangulatePolygon(const std::vector<glm::dvec3>& corners, std::vector<glm::uvec3>& outTriangles);

}  // namespace tetlab
