// Elastic constraint families of PBD/XPBD: the CPU's loops over tets and
// edges around the per-element steps shared with the kernels
// (shaders/cl/common/pb_step.clh: pb_tet_constraints, pb_edge_constraint,
// with the material compliances documented there). Each element's corners are
// gathered into registers, projected, and stored back (Gauss-Seidel) or turned
// into Jacobi contributions.
#include "core/cpu/constraints_projection.h"
#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/pb_step.clh"

namespace tetlab {

namespace {

// The tet loop with the strain set of each tet from strainOf(t): one
// instantiation for the common case (every tet PbParams::strain, no per-tet
// look-up in the loop) and one for the deformer's regions.
template <class StrainOf>
void projectTets(ProjectionContext& ctx, uint32_t begin, uint32_t end, StrainOf strainOf) {
  const SimModel& model = *ctx.model;
  std::vector<glm::vec4>& X = ctx.state->x;
  float* lambda = ctx.state->lambda.data();
  // Jacobi (PBD): each tet solves its own constraints one after another
  // (Gauss-Seidel inside the element) from the iteration's common positions;
  // its net corner moves go to jacobiDelta as ONE contribution per corner,
  // and x is left as it was so the next tet starts from the same positions.
  std::vector<glm::vec4>* jacobi = ctx.jacobiDelta;
  for (uint32_t t = begin; t < end; ++t) {
    const glm::uvec4 ids = model.tets[t];
    glm::vec4 q[4];
    for (int k = 0; k < 4; ++k) q[k] = X[ids[k]];
    const glm::mat3& D = model.DmInv[t];
    clm::PbResiduals res{};
    clm::pb_tet_constraints(ctx.params, strainOf(t), t, q, clm::mat3_cols(D[0], D[1], D[2]),
                            clm::pb_body_load(ctx.bodies.data(), model.tetBody[t]), model.restVolume[t], lambda,
                            &res);
    addResiduals(ctx, res.r, res.n);
    for (int k = 0; k < 4; ++k) {
      if (!jacobi) {
        X[ids[k]] = q[k];
        continue;
      }
      const glm::vec4 d = clm::pb_jacobi_contribution(q[k], X[ids[k]]);
      if (d.w != 0.0f) (*jacobi)[ids[k]] += d;
    }
  }
}

}  // namespace

void projectTetRange(ProjectionContext& ctx, uint32_t begin, uint32_t end) {
  const StrainRegions* regions = ctx.strainRegions;
  if (!regions || regions->empty()) {
    const clm::PbStrain* all = &ctx.params.strain;
    projectTets(ctx, begin, end, [all](uint32_t) { return all; });
    return;
  }
  projectTets(ctx, begin, end, [&ctx, regions](uint32_t t) {
    const uint8_t set = t < regions->tetSet.size() ? regions->tetSet[t] : 0u;
    return set > 0 && set <= regions->sets.size() ? &regions->sets[set - 1] : &ctx.params.strain;
  });
}

void projectEdgeRange(ProjectionContext& ctx, uint32_t begin, uint32_t end) {
  const SimModel& model = *ctx.model;
  std::vector<glm::vec4>& X = ctx.state->x;
  float* lambda = ctx.state->lambda.data();
  std::vector<glm::vec4>* jacobi = ctx.jacobiDelta;
  for (uint32_t e = begin; e < end; ++e) {
    const glm::uvec2 ids = model.edges[e];
    glm::vec4 a = X[ids.x], b = X[ids.y];
    glm::vec4 delta[2] = {glm::vec4(0.0f), glm::vec4(0.0f)};
    clm::PbResiduals res{};
    clm::pb_edge_constraint(ctx.params, e, &a, &b, model.restLength[e],
                            model.edgeVolume[e], clm::pb_body_load(ctx.bodies.data(), model.vertexBody[ids.x]),
                            lambda, jacobi ? delta : nullptr, &res);
    addResiduals(ctx, res.r, res.n);
    if (jacobi) {
      if (delta[0].w != 0.0f) (*jacobi)[ids.x] += delta[0];
      if (delta[1].w != 0.0f) (*jacobi)[ids.y] += delta[1];
    } else {
      X[ids.x] = a;
      X[ids.y] = b;
    }
  }
}

void projectHingeRange(ProjectionContext& ctx, uint32_t begin, uint32_t end) {
  const SimModel& model = *ctx.model;
  std::vector<glm::vec4>& X = ctx.state->x;
  float* lambda = ctx.state->lambda.data();
  for (uint32_t h = begin; h < end; ++h) {
    const glm::uvec4 ids = model.hinges[h];
    glm::vec4 q[4];
    for (int k = 0; k < 4; ++k) q[k] = X[ids[k]];
    clm::PbResiduals res{};
    clm::pb_hinge_constraint(ctx.params, h, q, model.hingeWeights[h], model.hingeRest[h],
                             clm::pb_body_load(ctx.bodies.data(), model.hingeBody[h]).bending, lambda, &res);
    addResiduals(ctx, res.r, res.n);
    // A zero weight is no corner (a strand's hinge repeats its point there): its stale copy is not stored.
    for (int k = 0; k < 4; ++k)
      if (model.hingeWeights[h][k] != 0.0f) X[ids[k]] = q[k];
  }
}

void projectMembraneRange(ProjectionContext& ctx, uint32_t begin, uint32_t end) {
  const SimModel& model = *ctx.model;
  std::vector<glm::vec4>& X = ctx.state->x;
  float* lambda = ctx.state->lambda.data();
  for (uint32_t m = begin; m < end; ++m) {
    const glm::uvec4 ids = model.membranes[m];
    glm::vec4 q[3] = {X[ids.x], X[ids.y], X[ids.z]};
    clm::PbResiduals res{};
    clm::pb_membrane_constraint(ctx.params, m, q, model.membraneDmInv[m], model.membraneArea[m],
                                clm::pb_body_load(ctx.bodies.data(), ids.w), lambda, &res);
    addResiduals(ctx, res.r, res.n);
    for (int k = 0; k < 3; ++k) X[ids[k]] = q[k];
  }
}

}  // namespace tetlab
