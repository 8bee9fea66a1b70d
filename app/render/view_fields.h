#pragma once
// Scalar fields the view colours the body by, computed on the CPU from
// (model, state). Pure functions on plain arrays, no GL, so the maths is
// unit-tested against analytic deformations; the renderer only uploads the
// result as a vertex attribute.
//
//   per tet    F = Ds Dm^-1                    (Sifakis & Barbic 2012, Eq. 4.1 / 4.2)
//              strain   |E|_F,  E = (F^T F - I) / 2       (Green-Lagrange strain)
//              volume   |det F - 1|
//              stress   von Mises of sigma = P F^T / J    (P: stable Neo-Hookean first Piola)
//   per vertex speed    |v|
//              error    max(|l - L| over incident edges, collider penetration depth)
//   categories vertex / tet graph colour index
//
//   per cloth triangle (a sheet has no tets)
//              strain   |E|_F of the membrane's Green strain, from the triangle's metric
//              volume   |A / A0 - 1| (its area change)
//              stress   0 (no membrane stress measure yet)
//
// Per-tet fields reach vertices (and so the smooth render surface) as the
// rest-volume weighted average of the incident tets; a sheet's vertices take
// the rest-area weighted average of their triangles. Per-element values are
// stored tets first, then the cloth triangles (SimModel::clothTriangles order).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "app/render/view_modes.h"
#include "core/mesh/embedding.h"
#include "core/model/material.h"
#include "core/model/sim_model.h"
#include "core/sim/colliders.h"

namespace tetlab {

// ---- element maths ----

// F = [x1-x0, x2-x0, x3-x0] DmInv for tet t at positions x (xyz used).
glm::mat3 deformationGradient(const SimModel& model, std::span<const glm::vec4> x, uint32_t tet);
// Green-Lagrange strain E = (F^T F - I) / 2.
glm::mat3 greenStrain(const glm::mat3& F);
// sqrt(sum_ij E_ij^2).
float frobeniusNorm(const glm::mat3& A);
// |E|_F of cloth triangle `triangle`'s membrane Green strain: with the edge
// vectors' metric G = [e_i . e_j] now and G0 at rest, E = Dm^-T (G - G0) Dm^-1 / 2
// in any orthonormal rest frame, so |E|_F^2 = tr((G0^-1 (G - G0))^2) / 4.
float clothMembraneStrain(const SimModel& model, std::span<const glm::vec4> x, uint32_t triangle);
// First Piola-Kirchhoff stress of the stable Neo-Hookean energy in
// shaders/cl/common/neo_hookean.clh: P = dpsi/dF = mu F + lambda (J - gamma) dJ/dF,
// dJ/dF = cof(F) (Smith et al. 2018, Eq. 14 without the log term; gamma = 1 + mu / lambda). [Pa]
glm::mat3 neoHookeanPiola(const glm::mat3& F, NeoHookeanParameters params);
// Cauchy stress sigma = P F^T / J. [Pa]; zero for J <= 0 (inverted: no meaningful Cauchy stress).
glm::mat3 cauchyStress(const glm::mat3& F, NeoHookeanParameters params);
// sqrt(3/2 s:s), s = sigma - tr(sigma)/3 I. [Pa]
float vonMises(const glm::mat3& sigma);

// ---- fields over a whole model ----

struct FieldInputs {
  const SimModel* model = nullptr;
  std::span<const glm::vec4> x;            // current positions (State::x)
  std::span<const glm::vec4> v;            // current velocities (State::v); may be empty unless speed is asked
  const Colliders* colliders = nullptr;    // for the penetration part of the constraint error; may be null
};

struct ScalarField {
  ColorField field = ColorField::kNone;
  FieldDomain domain = FieldDomain::kNone;
  std::vector<float> values;  // per vertex or per tet (model order), by domain
  float min = 0.0f;           // over the finite values; 0 when empty
  float max = 0.0f;
};

// Fills out for the field (reusing out's storage; no allocation once sized).
// Non-finite inputs give non-finite values, which are excluded from min/max.
void computeField(ColorField field, const FieldInputs& in, ScalarField& out);

// Per-element values (tets, then cloth triangles) -> per vertex, weighted by
// the tets' rest volumes (a sheet's vertices: its triangles' rest areas).
// Vertices in no element get 0.
void averageTetsToVertices(const SimModel& model, std::span<const float> perTet, std::vector<float>& outPerVertex);

// Graph colour index of every vertex (from vertexColorOrder/vertexColors) and every tet
// (from tetColors); as float so they travel the same path as magnitudes.
void vertexColorIndices(const SimModel& model, std::vector<float>& outPerVertex);
void tetColorIndices(const SimModel& model, std::vector<float>& outPerTet);

// Per-sim-vertex values -> per render vertex through the embedding weights
// (x_render's own interpolation, so a field follows the surface exactly).
void sampleAtEmbedding(const SurfaceEmbedding& embedding, std::span<const float> perSimVertex,
                       std::vector<float>& outPerRenderVertex);

}  // namespace tetlab
