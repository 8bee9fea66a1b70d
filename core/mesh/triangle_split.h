#pragma once
// The split both triangle hierarchies use (winding_number.h, triangle_distance.h):
// the triangles order[first, first + count) partitioned at their median along
// the widest axis of their centroids' box [lo, hi].
#include <algorithm>
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace tetlab {

// Returns the middle index: order[first, mid) lie on the low side, [mid, first + count) on the high side.
inline uint32_t splitAtCentroidMedian(std::vector<uint32_t>& order, uint32_t first, uint32_t count,
                                      const glm::dvec3& lo, const glm::dvec3& hi, const std::vector<glm::dvec3>& a,
                                      const std::vector<glm::dvec3>& b, const std::vector<glm::dvec3>& c) {
  const glm::dvec3 extent = hi - lo;
  const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
  const uint32_t mid = first + count / 2;
  // Sums of the corners order like the centroids (a third of them).
  std::nth_element(order.begin() + first, order.begin() + mid, order.begin() + first + count,
                   [&](uint32_t x, uint32_t y) {
                     return a[x][axis] + b[x][axis] + c[x][axis] < a[y][axis] + b[y][axis] + c[y][axis];
                   });
  return mid;
}

}  // namespace tetlab
