#pragma once
// The cloth membrane: St. Venant-Kirchhoff in plane stress on every cloth
// triangle, the continuum model behind the sheet's stretch and shear (Volino,
// Magnenat-Thalmann and Faure 2009, "A simple approach to nonlinear tensile
// stiffness for accurate cloth simulation", Sec. 3; the cloth
// examples of the VBD paper, Chen et al. 2024, use the same energy). Per triangle of rest area A:
//
//   F = [x1 - x0, x2 - x0] DmInv      3x2 deformation gradient
//   E = 1/2 (F^T F - I)               2x2 Green strain
//   W = A (mu_h |E|_F^2 + lambda_h / 2 tr(E)^2)
//   mu_h = E_Y h / (2 (1 + nu)),  lambda_h = E_Y nu h / (1 - nu^2)   [N/m]
//
// lambda_h is the plane-stress Lame parameter (the sheet is free to thin), so
// a strip pulled along one axis has the stiffness E_Y h per width and
// contracts sideways by nu: the material's own E and nu, which an edge-spring
// net cannot give (its Poisson ratio is fixed at 1/3, material.h).
//
// DmInv is the inverse of the rest edges written in the triangle's own 2D
// frame (t1 along x1 - x0, t2 in the plane), so the rest shape may be curved
// in space; it is stored column-major in a vec4 (m00, m10, m01, m11).
// Element math (gradients, Hessian blocks, XPBD constraints):
// shaders/cl/common/cloth_membrane.clh.
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/model/sim_model.h"

namespace tetlab {

struct Material;

// (mu_h, lambda_h) [N/m] of a cloth material (above).
struct MembraneModuli {
  float muH;
  float lambdaH;
};
MembraneModuli membraneModuli(const Material& material);

// DmInv of a rest triangle (above); the caller has refused degenerate ones.
glm::vec4 membraneDmInv(glm::dvec3 p0, glm::dvec3 p1, glm::dvec3 p2);

// Fills model.membranes / membraneDmInv / membraneArea from the cloth
// triangles, one membrane per triangle, in the triangles' order (the builder
// then sorts them by colour).
void collectMembranes(SimModel& model);

// Whether the membrane acts: the "membrane" toggle and a cloth in the model.
bool clothMembraneOn(const SimModel& model, bool membraneToggle);

}  // namespace tetlab
