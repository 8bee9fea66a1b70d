// Host-side setup shared by the CPU and OpenCL position-based solvers
// (constraints_setup.h).
#include "core/cpu/constraints_setup.h"

#include <algorithm>

#include "core/cpu/strain_regions.h"
#include "core/model/body_constants.h"
#include "core/model/cloth_membrane.h"

namespace tetlab {

ProjectionFamilies projectionFamilies(ProjectionMode mode, const ConstraintToggles& t, const SimModel& model) {
  ProjectionFamilies f;
  f.edges = anyEdgeSprings(model, springChoice(t));
  f.hinges = clothBendingOn(model, t.bending);
  f.membranes = clothMembraneOn(model, t.membrane);
  f.tetVolume = t.tetVolume;
  f.strainBased = t.strainBased;
  f.tethers = t.tethers;
  f.collisions = t.collisions;
  f.bodyContacts = t.bodyContacts;
  if (mode == ProjectionMode::Xpbd) {
    f.neoHookean = t.neoHookean;
  } else if (t.neoHookean) {
    f.strainBased = true;  // PBD's zero-rest tet set of the same material (see header)
    f.tetVolume = true;
  }
  return f;
}

uint32_t pbFamilyBits(const ProjectionFamilies& f) {
  return (f.tetVolume ? PB_TET_VOLUME : 0u) | (f.neoHookean ? PB_NEO_HOOKEAN : 0u) |
         (f.strainBased ? PB_STRAIN : 0u) | (f.edges ? PB_EDGES : 0u) | (f.hinges ? PB_HINGES : 0u) |
         (f.membranes ? PB_MEMBRANES : 0u);
}

LambdaLayout lambdaLayout(const SimModel& model) {
  LambdaLayout l;
  const uint32_t T = model.tetCount();
  l.edges = 0;
  l.tetVolume = l.edges + model.edgeCount();
  l.nhDeviatoric = l.tetVolume + T;
  l.nhHydrostatic = l.nhDeviatoric + T;
  l.strain = l.nhHydrostatic + T;
  l.hinges = l.strain + 6 * T;
  l.membranes = l.hinges + 3 * model.hingeCount();
  l.attachment = l.membranes + 3 * model.membraneCount();
  l.size = l.attachment + 1;
  return l;
}

void packBodies(const SimModel& model, SpringChoice edgeSprings, std::vector<glm::vec4>& out) {
  out.clear();
  for (uint32_t b = 0; b < model.materials.size(); ++b) {
    const Material& m = model.materials[b];
    const LameParameters lame = lameFromYoungPoisson(m.youngsModulus, m.poissonRatio);
    const glm::vec2 pair = bodyElasticPair(model, b);  // NH for a solid's tets, (mu_h, lambda_h) for a cloth's membranes
    out.emplace_back(0.0f, lame.mu, lame.lambda, pair.x);  // pb_body_load (x unused)
    out.emplace_back(pair.y, edgeSpringModulus(model, b, edgeSprings), bodyBendingStiffness(model, b), 0.0f);
  }
  static_assert(PB_BODY_FLOAT4S == 2u, "packBodies writes two float4 per body");
}

clm::PbParams makePbParams(const SimModel& model, const SolverSettings& settings, ProjectionMode mode, float h) {
  clm::PbParams p{};
  const bool xpbd = mode == ProjectionMode::Xpbd;
  p.h = h;
  p.xpbd = xpbd ? 1u : 0u;
  p.complianceScale = std::max(0.0f, settings.xpbd.complianceScale);
  const float n = float(std::max(1, settings.step.iterations));
  const float f = std::max(settings.pbd.referenceRate, 1e-3f);
  switch (settings.pbd.mapping) {  // pbd_params.h
    case PbdStiffnessMapping::MatchXpbd:
      p.pbdRate2 = 1.0f / (h * h);
      p.pbdExponent = 1.0f / n;
      break;
    case PbdStiffnessMapping::FrequencyIndependent:
      p.pbdRate2 = f * f;
      p.pbdExponent = f * h / n;
      break;
    case PbdStiffnessMapping::PerIteration:
      p.pbdRate2 = f * f;
      p.pbdExponent = 1.0f;
      break;
  }
  p.families = pbFamilyBits(projectionFamilies(mode, settings.step.constraints, model));
  const LambdaLayout L = lambdaLayout(model);
  p.lambdaEdges = L.edges;
  p.lambdaTetVolume = L.tetVolume;
  p.lambdaNhDeviatoric = L.nhDeviatoric;
  p.lambdaNhHydrostatic = L.nhHydrostatic;
  p.lambdaStrain = L.strain;
  p.lambdaAttachment = L.attachment;
  p.lambdaHinges = L.hinges;
  p.lambdaMembranes = L.membranes;
  p.jacobiOmega = settings.pbd.jacobiOmega;
  const PositionBasedConstraintParams& pb = settings.positionBased;
  p.strain = makePbStrain(pb.stretchScale, pb.shearScale, pb.restScale, pb.materialAxis, 1.0f);
  return p;
}

bool packAttachment(const Attachment& m, clm::PbAttachment& out) {
  const size_t n = std::min(m.vertices.size(), m.weights.size());
  if (!m.active || n == 0 || n > PB_ATTACHMENT_MAX || !(m.stiffness > 0.0f)) return false;
  out = clm::PbAttachment{};
  for (size_t k = 0; k < n; ++k) {
    out.ids[k] = m.vertices[k];
    out.weights[k] = m.weights[k];
  }
  out.target[0] = m.target.x;
  out.target[1] = m.target.y;
  out.target[2] = m.target.z;
  out.stiffness = m.stiffness;
  out.maxForce = m.maxForce;
  out.count = uint32_t(n);
  return true;
}

}  // namespace tetlab
