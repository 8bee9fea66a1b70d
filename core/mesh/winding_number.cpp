// Generalized winding number, exact and hierarchical (see winding_number.h).
#include "core/mesh/winding_number.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/mesh/triangle_split.h"

namespace tetlab {
namespace {

constexpr uint32_t kLeafSize = 8;

}  // namespace

double solidAngle(const glm::dvec3& q, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
  // Van Oosterom & Strackee 1983: tan(Omega/2) = det[a b c] /
  //   (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|), with corners relative to q.
  const glm::dvec3 ra = a - q, rb = b - q, rc = c - q;
  const double la = glm::length(ra), lb = glm::length(rb), lc = glm::length(rc);
  const double det = glm::dot(ra, glm::cross(rb, rc));
  const double den = la * lb * lc + glm::dot(ra, rb) * lc + glm::dot(rb, rc) * la + glm::dot(rc, ra) * lb;
  return 2.0 * std::atan2(det, den);
}

double windingNumberExact(const SurfaceMesh& mesh, const glm::dvec3& q, const std::vector<uint32_t>& triangles) {
  double sum = 0.0;
  auto add = [&](uint32_t f) {
    const glm::uvec3 t = mesh.triangles[f];
    sum += solidAngle(q, glm::dvec3(mesh.positions[t.x]), glm::dvec3(mesh.positions[t.y]),
                      glm::dvec3(mesh.positions[t.z]));
  };
  if (triangles.empty()) {
    for (uint32_t f = 0; f < mesh.triangles.size(); ++f) add(f);
  } else {
    for (uint32_t f : triangles) add(f);
  }
  return sum / (4.0 * std::numbers::pi);
}

FastWindingNumber::FastWindingNumber(const SurfaceMesh& mesh, double beta) : beta_(beta) {
  const size_t n = mesh.triangles.size();
  a_.resize(n);
  b_.resize(n);
  c_.resize(n);
  order_.resize(n);
  for (size_t f = 0; f < n; ++f) {
    const glm::uvec3 t = mesh.triangles[f];
    a_[f] = glm::dvec3(mesh.positions[t.x]);
    b_[f] = glm::dvec3(mesh.positions[t.y]);
    c_[f] = glm::dvec3(mesh.positions[t.z]);
    order_[f] = uint32_t(f);
  }
  nodes_.reserve(2 * n / kLeafSize + 2);
  if (n > 0) build(0, uint32_t(n));
}

uint32_t FastWindingNumber::build(uint32_t first, uint32_t count) {
  const uint32_t id = uint32_t(nodes_.size());
  nodes_.emplace_back();
  Node node;
  // Dipole data: area-weighted centroid and summed area vectors (Barill et al. 2018, Sec. 3.2).
  double areaSum = 0.0;
  glm::dvec3 centroidSum(0.0), cLo(1e300), cHi(-1e300);
  for (uint32_t i = first; i < first + count; ++i) {
    const uint32_t f = order_[i];
    const glm::dvec3 areaVector = 0.5 * glm::cross(b_[f] - a_[f], c_[f] - a_[f]);
    const double area = glm::length(areaVector);
    const glm::dvec3 centroid = (a_[f] + b_[f] + c_[f]) / 3.0;
    node.normal += areaVector;
    centroidSum += area * centroid;
    areaSum += area;
    cLo = glm::min(cLo, centroid);
    cHi = glm::max(cHi, centroid);
  }
  node.centre = areaSum > 0.0 ? centroidSum / areaSum : 0.5 * (cLo + cHi);
  for (uint32_t i = first; i < first + count; ++i) {
    const uint32_t f = order_[i];
    node.radius = std::max({node.radius, glm::length(a_[f] - node.centre), glm::length(b_[f] - node.centre),
                            glm::length(c_[f] - node.centre)});
  }
  if (count <= kLeafSize) {
    node.first = first;
    node.count = count;
    nodes_[id] = node;
    return id;
  }
  const uint32_t mid = splitAtCentroidMedian(order_, first, count, cLo, cHi, a_, b_, c_);
  node.left = build(first, mid - first);
  node.right = build(mid, first + count - mid);
  nodes_[id] = node;
  return id;
}

double FastWindingNumber::evaluate(const glm::dvec3& q) const {
  if (nodes_.empty()) return 0.0;
  double sum = 0.0;  // in steradians
  uint32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    const glm::dvec3 d = node.centre - q;
    const double dist = glm::length(d);
    if (dist > beta_ * node.radius) {
      // First-order far field: Omega ~= (p~ - q) . N / |p~ - q|^3 (Barill et al. 2018, Eq. 9, dipole term).
      sum += glm::dot(d, node.normal) / (dist * dist * dist);
      continue;
    }
    if (node.count > 0) {
      for (uint32_t i = node.first; i < node.first + node.count; ++i) {
        const uint32_t f = order_[i];
        sum += solidAngle(q, a_[f], b_[f], c_[f]);
      }
      continue;
    }
    stack[top++] = node.left;
    stack[top++] = node.right;
  }
  return sum / (4.0 * std::numbers::pi);
}

}  // namespace tetlab
