// Elastic constraint families of PBD/XPBD with their material compliances
// (docs/solvers.md "Material mapping"):
//
//   edge distance   alpha = 1 / k_e,  k_e = 6 E V_e / L^2   (edgeSpringStiffness)
//   tet volume      alpha = 1 / (K V0),  K = lambda + 2 mu / 3 (bulk modulus)
//   NH deviatoric   alpha = 1 / (mu_nh V0)                   (Macklin & Mueller 2021 Eq. 6)
//   NH hydrostatic  alpha = 1 / (lambda_nh V0)               (Macklin & Mueller 2021 Eq. 8)
//                   (the pair is solved jointly, XPBD only; PBD uses strain + volume instead)
//   strain stretch  alpha = 1 / (s_i E V0)                   (Mueller et al. 2014, anisotropic scale s_i)
//   strain shear    alpha = 1 / (s_ij mu V0)
//
// Each alpha is the inverse of the second derivative of the constraint's
// energy 1/2 C^2 / alpha, chosen so that the energy is the material's at
// small strain. Within a tet the constraints run Gauss-Seidel, F recomputed
// after each projection.
#include <cmath>

#include "core/cpu/constraints_projection.h"
#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/constraints_distance.clh"
#include "shaders/cl/common/constraints_tet.clh"
#include "shaders/cl/common/neo_hookean.clh"

namespace tetlab {
namespace {

clm::Mat3 toMat3(const glm::mat3& m) { return clm::mat3_cols(m[0], m[1], m[2]); }

struct TetView {
  uint32_t ids[4];
  clm::Mat3 DmInv;
  clm::Mat3 F(const State& state) const {
    return clm::tet_deformation_gradient(glm::vec3(state.x[ids[0]]), glm::vec3(state.x[ids[1]]),
                                         glm::vec3(state.x[ids[2]]), glm::vec3(state.x[ids[3]]), DmInv);
  }
};

void projectTetConstraint(ProjectionContext& ctx, const TetView& tet, float C, const clm::Mat3& dCdF, float alpha,
                          float* lambda, float gammaD) {
  glm::vec3 g[4];
  clm::tet_gradients_from_dF(dCdF, tet.DmInv, &g[0], &g[1], &g[2], &g[3]);
  projectScalar(ctx, 4, tet.ids, g, C, alpha, lambda, gammaD, 1.0f, 0.0f, clm::mat3_det(tet.DmInv));
}

void projectOneTet(ProjectionContext& ctx, uint32_t t);

}  // namespace

void projectTetRange(ProjectionContext& ctx, uint32_t begin, uint32_t end) {
  const SimModel& model = *ctx.model;
  // Jacobi (PBD): each tet solves its own constraints one after another
  // (Gauss-Seidel inside the element) from the iteration's common positions;
  // its net corner moves go to jacobiDelta as ONE contribution per corner, and
  // the corners are put back so the next tet starts from the same positions.
  std::vector<glm::vec4>* jacobi = ctx.jacobiDelta;
  ctx.jacobiDelta = nullptr;
  std::vector<glm::vec4>& X = ctx.state->x;
  for (uint32_t t = begin; t < end; ++t) {
    const glm::uvec4 ids = model.tets[t];
    const glm::vec4 saved[4] = {X[ids.x], X[ids.y], X[ids.z], X[ids.w]};
    projectOneTet(ctx, t);
    if (jacobi) {
      for (int c = 0; c < 4; ++c) {
        const glm::vec3 d = glm::vec3(X[ids[c]]) - glm::vec3(saved[c]);
        if (d != glm::vec3(0.0f)) (*jacobi)[ids[c]] += glm::vec4(d, 1.0f);
        X[ids[c]] = saved[c];
      }
    }
  }
  ctx.jacobiDelta = jacobi;
}

namespace {

void projectOneTet(ProjectionContext& ctx, uint32_t t) {
  const SimModel& model = *ctx.model;
  const State& state = *ctx.state;
  const PositionBasedConstraintParams& pb = ctx.settings->positionBased;
  float* lambda = ctx.state->lambda.data();
  const LambdaLayout& L = ctx.layout;
  {
    const glm::uvec4 ids = model.tets[t];
    const TetView tet{{ids.x, ids.y, ids.z, ids.w}, toMat3(model.DmInv[t])};
    const BodyConstants& B = ctx.bodies[model.tetBody[t]];
    const float V0 = model.restVolume[t];
    // Rayleigh damping through XPBD Eq. 26: gammaD = alphaTilde betaTilde / h = k_d / h.
    const float gammaD = ctx.damping ? B.damping / ctx.h : 0.0f;
    clm::Mat3 dCdF;
    if (ctx.families.tetVolume) {
      const float C = clm::tet_volume_constraint(tet.F(state), &dCdF);
      projectTetConstraint(ctx, tet, C, dCdF, 1.0f / (B.bulk * V0), lambda + L.tetVolume + t, gammaD);
    }
    if (ctx.families.neoHookean) {
      // Deviatoric and hydrostatic solved as one 2x2 block (xpbd_update.clh).
      const clm::Mat3 F = tet.F(state);
      clm::Mat3 dCdF_H;
      const float CD = clm::nh_deviatoric_constraint(F, &dCdF);
      const float CH = clm::nh_hydrostatic_constraint(F, clm::nh_gamma(B.nhMu, B.nhLambda), &dCdF_H);
      glm::vec3 gD[4], gH[4];
      clm::tet_gradients_from_dF(dCdF, tet.DmInv, &gD[0], &gD[1], &gD[2], &gD[3]);
      clm::tet_gradients_from_dF(dCdF_H, tet.DmInv, &gH[0], &gH[1], &gH[2], &gH[3]);
      projectPairXpbd(ctx, 4, tet.ids, gD, gH, CD, CH, 1.0f / (B.nhMu * V0), 1.0f / (B.nhLambda * V0),
                      lambda + L.nhDeviatoric + t, lambda + L.nhHydrostatic + t, gammaD);
    }
    if (ctx.families.strainBased) {
      float* strainLambda = lambda + L.strain + 6 * t;
      for (int i = 0; i < 3; ++i) {
        if (!(pb.stretchScale[i] > 0.0f)) continue;  // zero stiffness: no constraint
        const float C = clm::strain_stretch_constraint(tet.F(state), i, &dCdF);
        projectTetConstraint(ctx, tet, C, dCdF, 1.0f / (pb.stretchScale[i] * B.youngs * V0), strainLambda + i,
                             gammaD);
      }
      static constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
      for (int p = 0; p < 3; ++p) {
        if (!(pb.shearScale[p] > 0.0f)) continue;
        const float C = clm::strain_shear_constraint(tet.F(state), kPairs[p][0], kPairs[p][1], &dCdF);
        projectTetConstraint(ctx, tet, C, dCdF, 1.0f / (pb.shearScale[p] * B.mu * V0), strainLambda + 3 + p,
                             gammaD);
      }
    }
  }
}

}  // namespace

void projectEdgeRange(ProjectionContext& ctx, uint32_t begin, uint32_t end) {
  const SimModel& model = *ctx.model;
  State& state = *ctx.state;
  float* lambda = state.lambda.data() + ctx.layout.edges;
  for (uint32_t e = begin; e < end; ++e) {
    const uint32_t ids[2] = {model.edges[e].x, model.edges[e].y};
    const BodyConstants& B = ctx.bodies[model.vertexBody[ids[0]]];
    const float L = model.restLength[e];
    glm::vec3 g[2];
    const float C = clm::distance_constraint(glm::vec3(state.x[ids[0]]), glm::vec3(state.x[ids[1]]), L, &g[0]);
    g[1] = -g[0];
    const float k = edgeSpringStiffness(B.youngs, model.edgeVolume[e], L);
    const float gammaD = ctx.damping ? B.damping / ctx.h : 0.0f;
    projectScalar(ctx, 2, ids, g, C, 1.0f / k, lambda + e, gammaD, L);
  }
}

}  // namespace tetlab
