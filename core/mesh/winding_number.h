#pragma once
// Generalized winding number of a triangle surface (Jacobson et al. 2013,
// "Robust Inside-Outside Segmentation using Generalized Winding Numbers"):
// w(q) = sum of signed solid angles / 4pi. It is 1 inside and 0 outside a
// closed outward surface, and degrades gracefully (a smooth value in between)
// for open surfaces, soups and self-intersections, which is exactly what the
// volumetric fallback needs.
//
// FastWindingNumber evaluates it hierarchically (Barill et al. 2018, "Fast
// Winding Numbers for Soups and Clouds"): a BVH whose far nodes are replaced
// by their first-order (dipole) term, so a query costs O(log n) instead of O(n).
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

// Signed solid angle of triangle (a, b, c) seen from q, in steradians
// (Van Oosterom & Strackee 1983). Positive when q sees the triangle clockwise,
// i.e. q is behind a counter-clockwise (outward) face.
double solidAngle(const glm::dvec3& q, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c);

// Exact sum over the given triangles (all when `triangles` is empty).
double windingNumberExact(const SurfaceMesh& mesh, const glm::dvec3& q, const std::vector<uint32_t>& triangles = {});

class FastWindingNumber {
 public:
  // beta: a node is "far" when |q - centre| > beta * radius (Barill et al. use 2).
  explicit FastWindingNumber(const SurfaceMesh& mesh, double beta = 2.0);
  double evaluate(const glm::dvec3& q) const;

 private:
  struct Node {
    glm::dvec3 centre{0.0};   // area-weighted centroid p~ (Barill Eq. 7)
    glm::dvec3 normal{0.0};   // sum of area-weighted normals (dipole strength)
    double radius = 0.0;      // max distance from centre to a corner in the node
    uint32_t first = 0, count = 0;  // leaf: range in order_; inner: count == 0
    uint32_t left = 0, right = 0;
  };
  uint32_t build(uint32_t first, uint32_t count);

  std::vector<glm::dvec3> a_, b_, c_;  // triangle corners, by triangle
  std::vector<uint32_t> order_;
  std::vector<Node> nodes_;
  double beta_;
};

}  // namespace tetlab
