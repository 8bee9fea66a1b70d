#include "core/model/body_constants.h"

#include "core/model/cloth_bending.h"

namespace tetlab {

bool packNeoHookeanBodies(const SimModel& model, std::vector<glm::vec4>& out) {
  bool damped = false;
  out.resize(model.materials.size());
  for (size_t b = 0; b < out.size(); ++b) {
    const Material& m = model.materials[b];
    const NeoHookeanParameters nh = neoHookeanFromMaterial(m);
    out[b] = glm::vec4(nh.mu, nh.lambda, m.damping, bodyBendingStiffness(model, uint32_t(b)));
    damped = damped || m.damping > 0.0f;
  }
  return damped;
}

void packDmInvColumns(const SimModel& model, std::vector<glm::vec4>& out) {
  // glm::mat3 is column-major: DmInv[t][c] is column c.
  out.resize(3 * size_t(model.tetCount()));
  for (uint32_t t = 0; t < model.tetCount(); ++t)
    for (int c = 0; c < 3; ++c) out[3 * size_t(t) + size_t(c)] = glm::vec4(model.DmInv[t][c], 0.0f);
}

bool edgeSpringsOn(const SimModel& model, uint32_t body, bool solidEdges) {
  return solidEdges || model.isCloth(body) || model.isStrand(body);
}

bool anyEdgeSprings(const SimModel& model, bool solidEdges) {
  return model.edgeCount() > 0 && (solidEdges || model.hasCloth() || model.hasStrands());
}

float edgeSpringModulus(const SimModel& model, uint32_t body, bool solidEdges) {
  if (!edgeSpringsOn(model, body, solidEdges)) return 0.0f;
  const Material& m = model.materials[body];
  if (model.isCloth(body)) return clothEdgeModulus(m);
  if (model.isStrand(body)) return strandAxialStiffness(m);
  return m.youngsModulus;
}

void packEdgeStiffness(const SimModel& model, bool solidEdges, std::vector<float>& out) {
  out.resize(model.edgeCount());
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const float modulus = edgeSpringModulus(model, model.vertexBody[model.edges[e].x], solidEdges);
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
