#include "core/mesh/triangle_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/mesh/triangle_split.h"

namespace tetlab {
namespace {

constexpr uint32_t kLeafSize = 4;

// Squared distance from q to the box [lo, hi] (0 inside).
double boxDistance2(const glm::dvec3& q, const glm::dvec3& lo, const glm::dvec3& hi) {
  const glm::dvec3 d = glm::max(glm::max(lo - q, q - hi), glm::dvec3(0.0));
  return glm::dot(d, d);
}

}  // namespace

glm::dvec3 closestPointOnTriangle(const glm::dvec3& q, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
  // Regions in turn: corner a, corner b, edge ab, corner c, edge ac, edge bc, face.
  const glm::dvec3 ab = b - a, ac = c - a, ap = q - a;
  const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const glm::dvec3 bp = q - b;
  const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double denom = d1 - d3;
    return denom > 0.0 ? a + ab * (d1 / denom) : a;
  }
  const glm::dvec3 cp = q - c;
  const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double denom = d2 - d6;
    return denom > 0.0 ? a + ac * (d2 / denom) : a;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const double denom = (d4 - d3) + (d5 - d6);
    return denom > 0.0 ? b + (c - b) * ((d4 - d3) / denom) : b;
  }
  const double sum = va + vb + vc;
  if (!(sum > 0.0)) return a;  // degenerate (zero area): the corner regions above did not claim q
  return a + ab * (vb / sum) + ac * (vc / sum);
}

TriangleDistance::TriangleDistance(const SurfaceMesh& mesh) {
  for (const glm::uvec3& t : mesh.triangles) {
    a_.emplace_back(mesh.positions[t.x]);
    b_.emplace_back(mesh.positions[t.y]);
    c_.emplace_back(mesh.positions[t.z]);
  }
  order_.resize(a_.size());
  for (uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
  if (!order_.empty()) {
    nodes_.reserve(2 * order_.size() / kLeafSize + 2);
    build(0, uint32_t(order_.size()));
  }
}

uint32_t TriangleDistance::build(uint32_t first, uint32_t count) {
  const uint32_t index = uint32_t(nodes_.size());
  nodes_.emplace_back();
  glm::dvec3 lo(std::numeric_limits<double>::infinity()), hi(-std::numeric_limits<double>::infinity());
  glm::dvec3 clo = lo, chi = hi;  // box of the centroids (the split axis)
  for (uint32_t k = first; k < first + count; ++k) {
    const uint32_t t = order_[k];
    lo = glm::min(lo, glm::min(a_[t], glm::min(b_[t], c_[t])));
    hi = glm::max(hi, glm::max(a_[t], glm::max(b_[t], c_[t])));
    const glm::dvec3 centroid = (a_[t] + b_[t] + c_[t]) / 3.0;
    clo = glm::min(clo, centroid);
    chi = glm::max(chi, centroid);
  }
  nodes_[index].lo = lo;
  nodes_[index].hi = hi;
  if (count <= kLeafSize) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return index;
  }
  const uint32_t mid = splitAtCentroidMedian(order_, first, count, clo, chi, a_, b_, c_);
  const uint32_t left = build(first, mid - first);
  const uint32_t right = build(mid, first + count - mid);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

void TriangleDistance::search(uint32_t n, const glm::dvec3& q, double& best2) const {
  const Node& node = nodes_[n];
  if (node.count > 0) {
    for (uint32_t k = node.first; k < node.first + node.count; ++k) {
      const uint32_t t = order_[k];
      const glm::dvec3 d = q - closestPointOnTriangle(q, a_[t], b_[t], c_[t]);
      best2 = std::min(best2, glm::dot(d, d));
    }
    return;
  }
  const double dl = boxDistance2(q, nodes_[node.left].lo, nodes_[node.left].hi);
  const double dr = boxDistance2(q, nodes_[node.right].lo, nodes_[node.right].hi);
  const uint32_t nearFirst = dl <= dr ? node.left : node.right, farSecond = dl <= dr ? node.right : node.left;
  if (std::min(dl, dr) < best2) search(nearFirst, q, best2);
  if (std::max(dl, dr) < best2) search(farSecond, q, best2);
}

double TriangleDistance::distance(const glm::dvec3& q) const {
  if (nodes_.empty()) return std::numeric_limits<double>::infinity();
  double best2 = std::numeric_limits<double>::infinity();
  search(0, q, best2);
  return std::sqrt(best2);
}

}  // namespace tetlab
