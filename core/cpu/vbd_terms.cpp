#include "core/cpu/vbd_terms.h"

#include <algorithm>
#include <cmath>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/vbd_initial_guess.clh"

#include "core/model/body_constants.h"
#include "core/sim/held_bodies.h"

namespace tetlab {

void VbdMaterialCache::refresh(const SimModel& model, SpringChoice now) {
  if (current(model, now)) return;
  stamp.take(model.materials);
  springs = now;
  packNeoHookeanBodies(model, bodies);
  packEdgeStiffness(model, springs, edgeStiffness);
  packDmInvColumns(model, dmInv);
}

static_assert(kBodyFree == VBD_PINS_FREE && kBodyHeld == VBD_PINS_HELD && kBodySwings == VBD_PINS_SWING);

glm::vec3 vbdInitialGuess(VbdInitialGuess mode, float h, glm::vec3 gravity, glm::vec3 x, glm::vec3 v,
                          glm::vec3 vLast, bool haveHistory, uint8_t pins, glm::vec3 pivot) {
  return clm::vbd_initial_guess(uint32_t(mode), h, gravity, glm::length(gravity), x, v, vLast, haveHistory ? 1 : 0,
                                int(pins), pivot);
}

float chebyshevOmega(int n, float rho, float previousOmega) {
  if (n <= 1) return 1.0f;
  if (n == 2) return 2.0f / (2.0f - rho * rho);
  return 4.0f / (4.0f - rho * rho * previousOmega);
}

bool chebyshevOverRelaxes(int n, int iterations) { return n >= 2 && n < iterations; }

void vbdAddTets(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                VbdVertexSystem& sys) {
  clm::vbd_add_tets(i, state.x.data(), model.tets.data(), cache.dmInv.data(),
                    model.restVolume.data(), model.tetBody.data(), model.vertexTets.offsets.data(),
                    model.vertexTets.items.data(), cache.bodies.data(), &sys);
}

uint32_t vbdAddSprings(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                       HessianSafeguard safeguard, VbdVertexSystem& sys) {
  return clm::vbd_add_springs(i, int(safeguard), state.x.data(), model.edges.data(), model.restLength.data(),
                              cache.edgeStiffness.data(), model.vertexEdges.offsets.data(),
                              model.vertexEdges.items.data(), &sys);
}

uint32_t vbdAddAnchorSprings(const State& state, uint32_t i, HessianSafeguard safeguard, VbdVertexSystem& sys) {
  const AnchorSprings& sp = state.springs;
  if (sp.empty() || sp.vertexSprings.offsets.size() != state.x.size() + 1) return 0;
  return clm::vbd_add_anchor_springs(i, int(safeguard), state.x.data(), sp.vertexSprings.offsets.data(),
                                     sp.vertexSprings.items.data(), sp.anchor.data(), sp.stiffness.data(), &sys);
}

uint32_t vbdAddMembranes(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                         HessianSafeguard safeguard, VbdVertexSystem& sys) {
  return clm::vbd_add_membranes(i, int(safeguard), state.x.data(), model.membranes.data(), model.membraneDmInv.data(),
                                model.membraneArea.data(), model.vertexMembranes.offsets.data(),
                                model.vertexMembranes.items.data(), cache.bodies.data(), &sys);
}

void vbdAddHinges(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                  VbdVertexSystem& sys) {
  clm::vbd_add_hinges(i, state.x.data(), model.hinges.data(), model.hingeWeights.data(), model.hingeRest.data(),
                      model.hingeBody.data(), model.vertexHinges.offsets.data(), model.vertexHinges.items.data(), cache.bodies.data(), &sys);
}

void VbdContactSnapshot::reset(const SimModel& model) {
  colorOf.assign(model.vertexCount(), 0u);
  x.assign(model.vertexCount(), glm::vec4(0.0f));
  for (uint32_t c = 0; c < model.vertexColors.count(); ++c)
    for (uint32_t k = model.vertexColors.begin(c); k < model.vertexColors.end(c); ++k)
      colorOf[model.vertexColorOrder[k]] = c;
}

void VbdContactSnapshot::take(const SimModel& model, const State& state, uint32_t c) {
  for (uint32_t k = model.vertexColors.begin(c); k < model.vertexColors.end(c); ++k) {
    const uint32_t i = model.vertexColorOrder[k];
    x[i] = state.x[i];
  }
}

bool vbdAddBodyContacts(const State& state, const VbdContactSnapshot& snapshot, uint32_t c, uint32_t i,
                        float stiffnessOverH2, float yEps, VbdVertexSystem& sys, const float* lambda,
                        const float* c0) {
  const BodyContacts& bc = state.bodyContacts;
  return clm::vbd_add_body_contacts(i, c, stiffnessOverH2, yEps, state.x.data(), state.xPrev.data(),
                                    snapshot.x.data(), snapshot.colorOf.data(), bc.ids.data(), bc.normal.data(),
                                    bc.weights.data(), bc.vertexCount.data(), bc.vertexItems.data(), lambda, c0,
                                    &sys) != 0;
}

float bodyContactPenetration(const State& state) {
  const BodyContacts& bc = state.bodyContacts;
  float worst = 0.0f;
  for (size_t s = 0; s < bc.ids.size(); ++s) {
    const glm::uvec4 id = bc.ids[s];
    if (id.x == kNoContact) continue;
    const float C = clm::body_contact_gap(positionOf(state, id.x), positionOf(state, id.y), positionOf(state, id.z),
                                          positionOf(state, id.w), glm::vec3(bc.normal[s]), glm::vec3(bc.weights[s]),
                                          bc.normal[s].w);
    worst = std::max(worst, -C);
  }
  return worst;
}

void AttachmentLookup::rebuild(const Attachment& attachment, uint32_t vertexCount) {
  slotOfVertex.assign(vertexCount, -1);
  if (!attachment.active) return;
  for (size_t s = 0; s < attachment.vertices.size() && s < attachment.weights.size(); ++s)
    if (attachment.vertices[s] < vertexCount) slotOfVertex[attachment.vertices[s]] = int32_t(s);
}

glm::vec3 attachmentOffset(const Attachment& attachment, const State& state) {
  return clm::vbd_attachment_offset(state.x.data(), attachment.vertices.data(), attachment.weights.data(),
                                    uint32_t(std::min(attachment.vertices.size(), attachment.weights.size())),
                                    attachment.target);
}

}  // namespace tetlab
