#include "core/model/cloth_membrane.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "core/model/material.h"

namespace tetlab {

MembraneModuli membraneModuli(const Material& m) {
  // The same clamp as lameFromYoungPoisson: nu < 0.5 keeps lambda_h finite.
  const double nu = std::clamp(double(m.poissonRatio), 0.0, 0.4995);
  const double Eh = double(m.youngsModulus) * double(m.thickness);
  return {float(Eh / (2.0 * (1.0 + nu))), float(Eh * nu / (1.0 - nu * nu))};
}

glm::vec4 membraneDmInv(glm::dvec3 p0, glm::dvec3 p1, glm::dvec3 p2) {
  const glm::dvec3 e1 = p1 - p0, e2 = p2 - p0;
  const glm::dvec3 t1 = glm::normalize(e1);
  const glm::dvec3 t2 = glm::normalize(e2 - t1 * glm::dot(e2, t1));
  // Dm = [[e1.t1, e2.t1], [0, e2.t2]] (columns: the rest edges in the frame).
  const double a = glm::dot(e1, t1), b = glm::dot(e2, t1), d = glm::dot(e2, t2);
  // Inverse of the upper-triangular Dm: [[1/a, -b/(a d)], [0, 1/d]].
  return glm::vec4(float(1.0 / a), 0.0f, float(-b / (a * d)), float(1.0 / d));
}

void collectMembranes(SimModel& model) {
  const size_t n = model.clothTriangles.size();
  model.membranes.resize(n);
  model.membraneDmInv.resize(n);
  model.membraneArea.resize(n);
  for (size_t t = 0; t < n; ++t) {
    const glm::uvec3 tri = model.clothTriangles[t];
    model.membranes[t] = glm::uvec4(tri, model.clothTriangleBody[t]);
    model.membraneDmInv[t] = membraneDmInv(glm::dvec3(model.restPositions[tri.x]), glm::dvec3(model.restPositions[tri.y]),
                                           glm::dvec3(model.restPositions[tri.z]));
    model.membraneArea[t] = model.clothTriangleArea[t];
  }
}

bool clothMembraneOn(const SimModel& model, bool membraneToggle) { return membraneToggle && !model.membranes.empty(); }

}  // namespace tetlab
