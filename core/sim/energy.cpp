#include "core/sim/energy.h"

#include <cmath>

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/constraints_tet.clh"
#include "shaders/cl/common/neo_hookean.clh"

namespace tetlab {
namespace {

clm::Mat3 toMat3(const glm::mat3& m) { return clm::mat3_cols(m[0], m[1], m[2]); }

}  // namespace

double computeElasticEnergy(const SimModel& model, const SolverSettings& settings, const State& state) {
  const ConstraintToggles& on = settings.step.constraints;
  const PositionBasedConstraintParams& pb = settings.positionBased;
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
      if (on.tetVolume) {
        const double K = double(lame.lambda) + 2.0 * double(lame.mu) / 3.0;
        const double c = clm::mat3_det_minus_one_of_g(clm::mat3_minus_identity(F));
        elastic += 0.5 * K * V0 * c * c;
      }
      if (on.strainBased) {
        clm::Mat3 dCdF;
        for (int i = 0; i < 3; ++i) {
          const double c = clm::strain_stretch_constraint(F, i, &dCdF);
          elastic += 0.5 * V0 * double(material.youngsModulus) * double(pb.stretchScale[i]) * c * c;
        }
        static constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
        for (int p = 0; p < 3; ++p) {
          const double c = clm::strain_shear_constraint(F, kPairs[p][0], kPairs[p][1], &dCdF);
          elastic += 0.5 * V0 * double(lame.mu) * double(pb.shearScale[p]) * c * c;
        }
      }
    }
  }
  if (on.edges) {
    for (uint32_t e = 0; e < model.edgeCount(); ++e) {
      const glm::uvec2 edge = model.edges[e];
      const Material& material = model.materials[model.vertexBody[edge.x]];
      const double k = edgeSpringStiffness(material.youngsModulus, model.edgeVolume[e], model.restLength[e]);
      const double stretch = double(glm::length(glm::vec3(state.x[edge.x]) - glm::vec3(state.x[edge.y]))) -
                             double(model.restLength[e]);
      elastic += 0.5 * k * stretch * stretch;
    }
  }
  return elastic;
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
  report.elastic = computeElasticEnergy(model, settings, state);
  return report;
}

}  // namespace tetlab
