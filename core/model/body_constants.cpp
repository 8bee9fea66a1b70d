#include "core/model/body_constants.h"

#include <algorithm>

#include "core/model/cloth_bending.h"
#include "core/model/cloth_membrane.h"

namespace tetlab {

bool packNeoHookeanBodies(const SimModel& model, std::vector<glm::vec4>& out) {
  bool damped = false;
  out.resize(model.materials.size());
  for (size_t b = 0; b < out.size(); ++b) {
    const Material& m = model.materials[b];
    out[b] = glm::vec4(bodyElasticPair(model, uint32_t(b)), m.damping, bodyBendingStiffness(model, uint32_t(b)));
    damped = damped || m.damping > 0.0f;
  }
  return damped;
}

glm::vec2 bodyElasticPair(const SimModel& model, uint32_t body) {
  const Material& m = model.materials[body];
  if (model.isCloth(body)) {
    const MembraneModuli mm = membraneModuli(m);
    return {mm.muH, mm.lambdaH};
  }
  const NeoHookeanParameters nh = neoHookeanFromMaterial(m);
  return {nh.mu, nh.lambda};
}

void packDmInvColumns(const SimModel& model, std::vector<glm::vec4>& out) {
  // glm::mat3 is column-major: DmInv[t][c] is column c.
  out.resize(3 * size_t(model.tetCount()));
  for (uint32_t t = 0; t < model.tetCount(); ++t)
    for (int c = 0; c < 3; ++c) out[3 * size_t(t) + size_t(c)] = glm::vec4(model.DmInv[t][c], 0.0f);
}

bool edgeSpringsOn(const SimModel& model, uint32_t body, SpringChoice springs) {
  if (model.isStrand(body)) return true;
  if (model.isCloth(body)) return !springs.clothMembrane;
  return springs.solidEdges;
}

bool anyEdgeSprings(const SimModel& model, SpringChoice springs) {
  if (model.edgeCount() == 0) return false;
  // Hand-built models may list no kinds: their bodies are solids (isCloth/isStrand false).
  const size_t bodies = std::max<size_t>({model.bodyKind.size(), model.materials.size(), 1});
  for (uint32_t b = 0; b < bodies; ++b)
    if (edgeSpringsOn(model, b, springs)) return true;
  return false;
}

float edgeSpringModulus(const SimModel& model, uint32_t body, SpringChoice springs) {
  if (!edgeSpringsOn(model, body, springs)) return 0.0f;
  const Material& m = model.materials[body];
  if (model.isCloth(body)) return clothEdgeModulus(m);
  if (model.isStrand(body)) return strandAxialStiffness(m);
  return m.youngsModulus;
}

void packEdgeStiffness(const SimModel& model, SpringChoice springs, std::vector<float>& out) {
  out.resize(model.edgeCount());
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const float modulus = edgeSpringModulus(model, model.vertexBody[model.edges[e].x], springs);
    const float volume = e < model.edgeVolume.size() ? model.edgeVolume[e] : 0.0f;
    out[e] = edgeSpringStiffness(modulus, volume, model.restLength[e]);
  }
}

bool clothBendingOn(const SimModel& model, bool bendingToggle) { return bendingToggle && model.hingeCount() > 0; }

float bodyBendingStiffness(const SimModel& model, uint32_t body) {
  if (model.isCloth(body)) return clothBendingStiffness(model.materials[body]);
  if (model.isStrand(body)) return strandBendingStiffness(model.materials[body]);
  return 0.0f;
}

}  // namespace tetlab
