#include "core/sim/energy.h"

#include <cmath>

#include "core/cpu/constraints_setup.h"
#include "core/model/body_constants.h"
#include "core/model/cloth_membrane.h"
#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/cloth_bending.clh"
#include "shaders/cl/common/cloth_membrane.clh"
#include "shaders/cl/common/constraints_tet.clh"
#include "shaders/cl/common/neo_hookean.clh"
#include "shaders/cl/common/xpbd_update.clh"

namespace tetlab {
namespace {

clm::Mat3 toMat3(const glm::mat3& m) { return clm::mat3_cols(m[0], m[1], m[2]); }

// XPBD's compliant zero-at-rest constraints, read with the last substep's
// multipliers; `lambda` is null when they are not measured.
struct CompliantProbe {
  const float* lambda = nullptr;
  LambdaLayout layout;
  float invH2 = 0.0f;  // 1 / h^2 of the substep the multipliers belong to
  float complianceScale = 1.0f;
  EnergyReport* out = nullptr;

  // Adds the constraint of material energy `shape` = 1/2 stiffness C^2 (its part
  // of `elastic`) and material compliance 1 / stiffness.
  void add(uint32_t slot, double shape, float C, float stiffness) const {
    if (!lambda) return;
    float converged = 0.0f, carried = 0.0f;
    clm::xpbd_compliant_energies(C, complianceScale / stiffness, lambda[slot], invH2, &converged, &carried);
    out->compliantShape += shape;
    out->compliantConverged += double(converged);
    out->compliantCarried += double(carried);
  }
};

CompliantProbe compliantProbe(const SimModel& model, const SolverSettings& settings, const State& state,
                              EnergyReport& out) {
  CompliantProbe probe;
  probe.out = &out;
  if (settings.solver != SolverKind::Xpbd) return probe;
  const ConstraintToggles& on = settings.step.constraints;
  if (!(anyEdgeSprings(model, springChoice(on)) || on.tetVolume || on.strainBased || clothBendingOn(model, on.bending) ||
        clothMembraneOn(model, on.membrane)))
    return probe;
  probe.layout = lambdaLayout(model);
  const float h = settings.step.dt / float(std::max(settings.step.substeps, 1));
  // Hard elastic constraints (complianceScale 0) carry no energy by either measure.
  if (state.lambda.size() != probe.layout.size || !(h > 0.0f) || !(settings.xpbd.complianceScale > 0.0f))
    return probe;
  probe.lambda = state.lambda.data();
  probe.invH2 = 1.0f / (h * h);
  probe.complianceScale = settings.xpbd.complianceScale;
  out.compliantMeasured = true;
  return probe;
}

void addElasticEnergy(const SimModel& model, const SolverSettings& settings, const State& state, EnergyReport& out) {
  const ConstraintToggles& on = settings.step.constraints;
  const PositionBasedConstraintParams& pb = settings.positionBased;
  const glm::mat3 strainFrame = strainMaterialFrame(pb.materialAxis);
  const CompliantProbe probe = compliantProbe(model, settings, state, out);
  double elastic = 0.0;
  if (on.neoHookean || on.tetVolume || on.strainBased) {
    for (uint32_t t = 0; t < model.tetCount(); ++t) {
      const glm::uvec4 tet = model.tets[t];
      const Material& material = model.materials[model.tetBody[t]];
      const clm::Mat3 F = clm::tet_deformation_gradient(glm::vec3(state.x[tet.x]), glm::vec3(state.x[tet.y]),
                                                         glm::vec3(state.x[tet.z]), glm::vec3(state.x[tet.w]),
                                                         toMat3(model.DmInv[t]));
      const double V0 = model.restVolume[t];
      if (on.neoHookean) {
        const NeoHookeanParameters nh = neoHookeanFromMaterial(material);
        elastic += V0 * double(clm::nh_energy_density(F, nh.mu, nh.lambda));
      }
      const LameParameters lame = lameFromYoungPoisson(material.youngsModulus, material.poissonRatio);
      const clm::PbTetModuli k = clm::pb_tet_moduli(lame.mu, lame.lambda, on.strainBased ? 1u : 0u);
      if (on.tetVolume && k.volume > 0.0f) {
        const double c = clm::mat3_det_minus_one_of_g(clm::mat3_minus_identity(F));
        const double e = 0.5 * double(k.volume) * V0 * c * c;
        elastic += e;
        probe.add(probe.layout.tetVolume + t, e, float(c), float(double(k.volume) * V0));
      }
      if (on.strainBased) {
        clm::Mat3 dCdF;
        // The material frame the projection uses (pb_tet_constraints): F_m = F R.
        const clm::Mat3 Fm = strainFrameIsIdentity(pb.materialAxis) ? F : clm::mat3_mul(F, toMat3(strainFrame));
        for (int i = 0; i < 3; ++i) {
          const double c = clm::strain_stretch_constraint(Fm, i, pb.restScale[i], &dCdF);
          const double ks = V0 * double(k.stretch) * double(pb.stretchScale[i]);
          elastic += 0.5 * ks * c * c;
          probe.add(probe.layout.strain + 6 * t + uint32_t(i), 0.5 * ks * c * c, float(c), float(ks));
        }
        static constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
        for (int p = 0; p < 3; ++p) {
          const double c = clm::strain_shear_constraint(Fm, kPairs[p][0], kPairs[p][1], &dCdF);
          const double ksh = V0 * double(k.shear) * double(pb.shearScale[p]);
          elastic += 0.5 * ksh * c * c;
          probe.add(probe.layout.strain + 6 * t + 3 + uint32_t(p), 0.5 * ksh * c * c, float(c), float(ksh));
        }
      }
    }
  }
  if (anyEdgeSprings(model, springChoice(on))) {
    for (uint32_t e = 0; e < model.edgeCount(); ++e) {
      const glm::uvec2 edge = model.edges[e];
      const float modulus = edgeSpringModulus(model, model.vertexBody[edge.x], springChoice(on));
      if (!(modulus > 0.0f)) continue;
      const double k = edgeSpringStiffness(modulus, model.edgeVolume[e], model.restLength[e]);
      const double stretch = double(glm::length(glm::vec3(state.x[edge.x]) - glm::vec3(state.x[edge.y]))) -
                             double(model.restLength[e]);
      elastic += 0.5 * k * stretch * stretch;
      probe.add(probe.layout.edges + e, 0.5 * k * stretch * stretch, float(stretch), float(k));
    }
  }
  if (clothMembraneOn(model, on.membrane)) {
    // W = A (mu_h |E|^2 + lambda_h / 2 tr(E)^2) (cloth_membrane.h) as the sum of
    // XPBD's three strain constraints' energies (membrane_strain_constraints).
    for (uint32_t m = 0; m < model.membraneCount(); ++m) {
      const glm::uvec4 id = model.membranes[m];
      const MembraneModuli mm = membraneModuli(model.materials[id.w]);
      const clm::Mat32 F = clm::membrane_F(glm::vec3(state.x[id.x]), glm::vec3(state.x[id.y]),
                                           glm::vec3(state.x[id.z]), model.membraneDmInv[m]);
      float C[3];
      clm::Mat32 G[3];
      clm::membrane_strain_constraints(F, C, G);
      for (int k = 0; k < 3; ++k) {
        const float stiffness = clm::membrane_constraint_stiffness(k, mm.muH, mm.lambdaH, model.membraneArea[m]);
        const double e = 0.5 * double(stiffness) * double(C[k]) * double(C[k]);
        elastic += e;
        probe.add(probe.layout.membranes + 3 * m + uint32_t(k), e, C[k], stiffness);
      }
    }
  }
  if (clothBendingOn(model, on.bending)) {
    for (uint32_t h = 0; h < model.hingeCount(); ++h) {
      const double D = bodyBendingStiffness(model, model.hingeBody[h]);
      if (!(D > 0.0)) continue;
      const glm::uvec4 id = model.hinges[h];
      const glm::vec3 v = clm::hinge_residual(glm::vec3(state.x[id.x]), glm::vec3(state.x[id.y]),
                                              glm::vec3(state.x[id.z]), glm::vec3(state.x[id.w]),
                                              model.hingeWeights[h], model.hingeRest[h]);
      for (int d = 0; d < 3; ++d) {
        const double e = 0.5 * D * double(v[d]) * double(v[d]);
        elastic += e;
        probe.add(probe.layout.hinges + 3 * h + uint32_t(d), e, v[d], float(D));
      }
    }
  }
  // Anchor springs: sum k_j/2 (l_j - L)^2 over the live sub-springs (anchor_springs.h).
  if (!state.springs.empty()) {
    std::vector<glm::vec4> subX;
    gatherSpringPositions(state.springs, state.x, subX);
    elastic += anchorSpringEnergy(state.springs, subX);
  }
  out.elastic = elastic;
}

}  // namespace

double computeElasticEnergy(const SimModel& model, const SolverSettings& settings, const State& state) {
  EnergyReport report;
  addElasticEnergy(model, settings, state, report);
  return report.elastic;
}

EnergyReport computeEnergy(const SimModel& model, const SolverSettings& settings, const State& state) {
  EnergyReport report;
  const glm::dvec3 g = settings.step.gravity;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const double m = model.mass[i];
    const glm::dvec3 v = glm::vec3(state.v[i]);
    report.kinetic += 0.5 * m * glm::dot(v, v);
    report.potential -= m * glm::dot(g, glm::dvec3(glm::vec3(state.x[i])));
  }
  addElasticEnergy(model, settings, state, report);
  return report;
}

}  // namespace tetlab
