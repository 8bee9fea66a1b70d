#pragma once
// Unsigned distance from a point to a triangle surface: the closest point on
// each triangle (Ericson, "Real-Time Collision Detection" Sec. 5.1.5, by the
// Voronoi regions of the corners and edges), over a bounding-volume
// hierarchy of the triangles' boxes searched nearest box first, so a query
// visits a few leaves instead of every triangle. Used to sample signed
// distance fields (core/sim/sdf_grid.h); the sign comes from the winding
// number (winding_number.h).
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

// Closest point to q on triangle (a, b, c); degenerate triangles give a point on them.
glm::dvec3 closestPointOnTriangle(const glm::dvec3& q, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c);

class TriangleDistance {
 public:
  explicit TriangleDistance(const SurfaceMesh& mesh);
  // Distance from q to the nearest triangle [mesh units]; infinity for a mesh without triangles.
  double distance(const glm::dvec3& q) const;

 private:
  struct Node {
    glm::dvec3 lo{0.0}, hi{0.0};
    uint32_t first = 0, count = 0;  // leaf: triangles order_[first .. first + count); inner: count == 0
    uint32_t left = 0, right = 0;
  };
  uint32_t build(uint32_t first, uint32_t count);
  void search(uint32_t node, const glm::dvec3& q, double& best2) const;

  std::vector<glm::dvec3> a_, b_, c_;
  std::vector<uint32_t> order_;
  std::vector<Node> nodes_;
};

}  // namespace tetlab
