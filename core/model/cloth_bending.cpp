#include "core/model/cloth_bending.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "core/model/material.h"
#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/cloth_bending.clh"

namespace tetlab {

float clothBendingStiffness(const Material& m) {
  if (m.bendingStiffness >= 0.0f) return m.bendingStiffness;
  const double h = m.thickness, nu = m.poissonRatio;
  return float(double(m.youngsModulus) * h * h * h / (12.0 * (1.0 - nu * nu)));  // Kirchhoff plate
}

float strandBendingStiffness(const Material& m) {
  if (m.bendingStiffness >= 0.0f) return m.bendingStiffness;
  const double d = m.thickness;
  return float(double(m.youngsModulus) * 3.14159265358979 * d * d * d * d / 64.0);  // E I of a round rod
}

namespace {

struct HalfHinge {
  uint64_t key;      // sorted edge (min << 32 | max)
  uint32_t triangle;
  uint32_t corner;   // index in the triangle of the corner opposite the edge
};

// The IQB weights of hinge (x0, x1; x2, x3) at rest, in double; false for a
// degenerate triangle (no height to divide by).
bool hingeWeights(const glm::dvec3& x0, const glm::dvec3& x1, const glm::dvec3& x2, const glm::dvec3& x3,
                  glm::dvec4& out) {
  const glm::dvec3 e = x1 - x0;
  const double L = glm::length(e);
  if (!(L > 0.0)) return false;
  const glm::dvec3 t = e / L;
  // Each opposite corner in its own triangle's plane: the hinge unfolded.
  const double p2 = glm::dot(x2 - x0, t), p3 = glm::dot(x3 - x0, t);
  const double h2 = glm::length((x2 - x0) - p2 * t), h3 = glm::length((x3 - x0) - p3 * t);
  if (!(h2 > 1e-9 * L) || !(h3 > 1e-9 * L)) return false;
  const double A0 = 0.5 * L * h2, A1 = 0.5 * L * h3;
  const double K2 = 1.0 / h2, K3 = 1.0 / h3;
  const double K1 = -(K2 * p2 + K3 * p3) / L;
  const double K0 = -(K1 + K2 + K3);
  const double s = L / std::sqrt(A0 + A1);  // sqrt(c_e), c_e = L^2 / (A0 + A1) (header)
  out = glm::dvec4(K0, K1, K2, K3) * s;
  return true;
}

}  // namespace

uint32_t collectClothHinges(SimModel& model) {
  model.hinges.clear();
  model.hingeWeights.clear();
  model.hingeRest.clear();
  model.hingeBody.clear();
  std::vector<HalfHinge> halves;
  halves.reserve(model.clothTriangles.size() * 3);
  for (uint32_t t = 0; t < model.clothTriangles.size(); ++t)
    for (uint32_t k = 0; k < 3; ++k) {
      uint32_t a = model.clothTriangles[t][(k + 1) % 3], b = model.clothTriangles[t][(k + 2) % 3];
      if (a > b) std::swap(a, b);
      halves.push_back({(uint64_t(a) << 32) | b, t, k});
    }
  std::sort(halves.begin(), halves.end(), [](const HalfHinge& l, const HalfHinge& r) {
    return l.key != r.key ? l.key < r.key : l.triangle < r.triangle;
  });
  uint32_t skipped = 0;
  for (size_t i = 0; i < halves.size();) {
    size_t j = i + 1;
    while (j < halves.size() && halves[j].key == halves[i].key) ++j;
    const size_t n = j - i;
    if (n == 2 && model.clothTriangleBody[halves[i].triangle] == model.clothTriangleBody[halves[i + 1].triangle]) {
      const HalfHinge& h0 = halves[i];
      const HalfHinge& h1 = halves[i + 1];
      const glm::uvec3 t0 = model.clothTriangles[h0.triangle];
      // The edge in triangle 0's winding, then the two opposite corners.
      const glm::uvec4 hinge{t0[(h0.corner + 1) % 3], t0[(h0.corner + 2) % 3], t0[h0.corner],
                             model.clothTriangles[h1.triangle][h1.corner]};
      glm::dvec4 k;
      if (hingeWeights(model.restPositions[hinge.x], model.restPositions[hinge.y], model.restPositions[hinge.z],
                       model.restPositions[hinge.w], k)) {
        model.hinges.push_back(hinge);
        model.hingeWeights.emplace_back(k);
        model.hingeRest.emplace_back(0.0f);  // the model's flat rest: the weights are its affine dependency
        model.hingeBody.push_back(model.clothTriangleBody[h0.triangle]);
      } else {
        ++skipped;
      }
    } else if (n > 2) {
      ++skipped;  // non-manifold edge: no single pair of sides to bend between
    }
    i = j;
  }
  return skipped;
}

uint32_t collectStrandHinges(SimModel& model) {
  // Per vertex, its strand segments (at most the first two kept, the count in full).
  const uint32_t n = model.vertexCount();
  std::vector<uint32_t> count(n, 0);
  std::vector<glm::uvec2> other(n, glm::uvec2(~0u));
  for (const glm::uvec2& s : model.strandSegments) {
    for (int e = 0; e < 2; ++e) {
      const uint32_t v = s[e], o = s[1 - e];
      if (count[v] < 2) other[v][count[v]] = o;
      ++count[v];
    }
  }
  uint32_t branches = 0;
  for (uint32_t v = 0; v < n; ++v) {
    if (count[v] > 2) ++branches;
    if (count[v] != 2 || model.vertexBody[other[v].x] != model.vertexBody[other[v].y]) continue;
    const glm::dvec3 x0 = model.restPositions[other[v].x], x1 = model.restPositions[v],
                     x2 = model.restPositions[other[v].y];
    const double l0 = glm::length(x0 - x1), l1 = glm::length(x2 - x1);
    if (!(l0 > 0.0) || !(l1 > 0.0)) continue;
    const double scale = 2.0 / (l0 + l1) * std::sqrt(0.5 * (l0 + l1));
    model.hinges.emplace_back(other[v].x, v, other[v].y, v);
    const glm::vec4 k(glm::dvec4(1.0 / l0, -(1.0 / l0 + 1.0 / l1), 1.0 / l1, 0.0) * scale);
    model.hingeWeights.push_back(k);
    // The rest curvature (times sqrt(ds)): the strand keeps the shape it was made with, curls included.
    // Evaluated in float as the solvers evaluate v, so the rest positions are exactly force-free (a
    // double r would leave v - r at the float rounding of k x, ~1e-5 here: a force that is a percent
    // of a thin rod's weight).
    const glm::vec3 r = clm::hinge_vector(model.restPositions[other[v].x], model.restPositions[v],
                                          model.restPositions[other[v].y], model.restPositions[v], k);
    model.hingeRest.emplace_back(r, 0.0f);
    model.hingeBody.push_back(model.vertexBody[v]);
  }
  return branches;
}

double clothBendingEnergy(const SimModel& model, const glm::vec4* x) {
  double energy = 0.0;
  for (uint32_t h = 0; h < model.hingeCount(); ++h) {
    const glm::uvec4 id = model.hinges[h];
    const glm::vec4 k = model.hingeWeights[h];
    glm::dvec3 v = -glm::dvec3(glm::vec3(model.hingeRest[h]));
    for (int j = 0; j < 4; ++j) v += double(k[j]) * glm::dvec3(x[id[j]]);
    const uint32_t b = model.hingeBody[h];
    const Material& m = model.materials[b];
    energy += 0.5 * double(model.isStrand(b) ? strandBendingStiffness(m) : clothBendingStiffness(m)) * glm::dot(v, v);
  }
  return energy;
}

}  // namespace tetlab
