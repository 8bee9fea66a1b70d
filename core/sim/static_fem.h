#pragma once
// The converged static answer of linear elasticity on a tet mesh: the
// yardstick the cantilever test and the conformance suite hold the solvers
// to, on the SAME mesh they simulate (so a gap between a solver and this is
// the solver's, not the mesh's).
//
//   K u = f,   K = sum_t V_t B_t^T C B_t   (constant-strain tets)
//              f = m_i g                    (the model's lumped masses)
//              u_i = 0 on pinned vertices
//
// solved by Jacobi-preconditioned conjugate gradients in double precision.
// Each tet uses the small-strain Lame parameters of its body's material
// (psi = mu eps:eps + lambda/2 tr(eps)^2), which is what the stable
// Neo-Hookean energy linearises to (core/model/material.h).
#include <vector>

#include <glm/vec3.hpp>

#include "core/model/sim_model.h"

namespace tetlab {

struct StaticFemResult {
  std::vector<glm::dvec3> u;  // displacement per vertex [m]
  int iterations = 0;         // CG iterations used
  bool converged = false;     // relative residual |r| / |f| below 1e-12
};

// `pinned` vertices stay at rest; `gravity` loads every other vertex.
StaticFemResult solveStaticFem(const SimModel& model, const std::vector<uint32_t>& pinned, glm::dvec3 gravity);

// Mass-weighted mean of a displacement field [m].
glm::dvec3 meanDisplacement(const SimModel& model, const std::vector<glm::dvec3>& u);

}  // namespace tetlab
