#include "core/cpu/vbd_terms.h"

#include <algorithm>
#include <cmath>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/neo_hookean_derivatives.clh"
#include "shaders/cl/common/vbd_contact.clh"
#include "shaders/cl/common/vbd_spring.clh"
#include "shaders/cl/common/vbd_initial_guess.clh"

namespace tetlab {

namespace {

clm::Mat3 toClm(const glm::mat3& m) { return clm::mat3_cols(m[0], m[1], m[2]); }

glm::vec3 displacementOf(const State& state, uint32_t j) { return positionOf(state, j) - glm::vec3(state.xPrev[j]); }

}  // namespace

void VbdMaterialCache::refresh(const SimModel& model) {
  const size_t bodies = model.materials.size();
  bodyNeoHookean.resize(bodies);
  bodyDamping.resize(bodies);
  for (size_t b = 0; b < bodies; ++b) {
    bodyNeoHookean[b] = neoHookeanFromMaterial(model.materials[b]);
    bodyDamping[b] = model.materials[b].damping;
  }
  edgeStiffness.resize(model.edgeCount());
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const Material& m = model.materials[model.vertexBody[model.edges[e].x]];
    const float volume = e < model.edgeVolume.size() ? model.edgeVolume[e] : 0.0f;
    edgeStiffness[e] = edgeSpringStiffness(m.youngsModulus, volume, model.restLength[e]);
  }
}

glm::vec3 vbdInitialGuess(VbdInitialGuess mode, float h, glm::vec3 gravity, glm::vec3 x, glm::vec3 v,
                          glm::vec3 vLast, bool haveHistory) {
  return clm::vbd_initial_guess(uint32_t(mode), h, gravity, glm::length(gravity), x, v, vLast, haveHistory ? 1 : 0);
}

float chebyshevOmega(int n, float rho, float previousOmega) {
  if (n <= 1) return 1.0f;
  if (n == 2) return 2.0f / (2.0f - rho * rho);
  return 4.0f / (4.0f - rho * rho * previousOmega);
}

bool chebyshevOverRelaxes(int n, int iterations) { return n >= 2 && n < iterations; }

void vbdAddInertia(float mass, float h, glm::vec3 x, glm::vec3 y, VbdVertexSystem& sys) {
  const float mOverH2 = mass / (h * h);
  sys.f -= (x - y) * mOverH2;
  sys.H = clm::sym3_add(sys.H, clm::sym3_scaled_identity(mOverH2));
}

void vbdAddTets(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i, float h,
                VbdVertexSystem& sys) {
  for (uint32_t k = model.vertexTets.offsets[i]; k < model.vertexTets.offsets[i + 1]; ++k) {
    const uint32_t item = model.vertexTets.items[k];
    const uint32_t t = item >> 2u;
    const int corner = int(item & 3u);
    const glm::uvec4 tet = model.tets[t];
    const clm::Mat3 DmInv = toClm(model.DmInv[t]);
    const clm::Mat3 F = clm::tet_deformation_gradient(positionOf(state, tet.x), positionOf(state, tet.y),
                                                      positionOf(state, tet.z), positionOf(state, tet.w), DmInv);
    const uint32_t body = model.tetBody[t];
    const NeoHookeanParameters& nh = cache.bodyNeoHookean[body];
    glm::vec3 gradient;
    clm::Sym3 block;
    const glm::vec3 b = clm::nh_corner_weights(DmInv, corner);
    clm::nh_vertex_gradient_hessian(F, b, nh.mu, nh.lambda, model.restVolume[t], &gradient, &block);
    sys.f -= gradient;
    sys.H = clm::sym3_add(sys.H, block);
    // Rayleigh damping D = k_d K (VBD Sec. 3.2): force -(k_d/h) sum_j H_ij (x_j - x_j^t) over the
    // element's corners (the full row, so rigid motion is not damped), Hessian (k_d/h) H_ii.
    const float kdOverH = cache.bodyDamping[body] / h;
    if (kdOverH > 0.0f) {
      const clm::Mat3 dF = clm::tet_deformation_gradient(displacementOf(state, tet.x), displacementOf(state, tet.y),
                                                         displacementOf(state, tet.z), displacementOf(state, tet.w), DmInv);
      sys.f -= clm::nh_vertex_hessian_apply(F, dF, b, nh.mu, nh.lambda, model.restVolume[t]) * kdOverH;
      sys.H = clm::sym3_add(sys.H, clm::sym3_scale(block, kdOverH));
    }
  }
}

uint32_t vbdAddSprings(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                       float h, HessianSafeguard safeguard, VbdVertexSystem& sys) {
  uint32_t triggers = 0;
  const glm::vec3 xi = positionOf(state, i);
  const float kdOverH = cache.bodyDamping[model.vertexBody[i]] / h;
  for (uint32_t k = model.vertexEdges.offsets[i]; k < model.vertexEdges.offsets[i + 1]; ++k) {
    const uint32_t item = model.vertexEdges.items[k];
    const uint32_t e = item >> 1u;
    const glm::uvec2 edge = model.edges[e];
    const uint32_t other = (item & 1u) ? edge.x : edge.y;
    glm::vec3 gradient;
    clm::Sym3 block;
    int triggered = 0;
    clm::vbd_spring_gradient_hessian(xi - positionOf(state, other), cache.edgeStiffness[e], model.restLength[e],
                                     int(safeguard), &gradient, &block, &triggered);
    triggers += uint32_t(triggered);
    sys.f -= gradient;
    sys.H = clm::sym3_add(sys.H, block);
    // Rayleigh damping with the spring's (safeguarded, so dissipative) block: the
    // full element row is H_aa (delta_a - delta_b), zero for a rigid translation.
    if (kdOverH > 0.0f) {
      sys.f -= clm::sym3_mul_vec(block, displacementOf(state, i) - displacementOf(state, other)) * kdOverH;
      sys.H = clm::sym3_add(sys.H, clm::sym3_scale(block, kdOverH));
    }
  }
  return triggers;
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
  int active = 0;
  const uint32_t count = bc.vertexCount[i];
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t item = bc.vertexItems[size_t(i) * kMaxContactsPerVertex + k];
    const uint32_t slot = item >> 2u;
    const glm::uvec4 id = bc.ids[slot];
    const glm::vec4 xp = snapshot.partner(state, id.x, c), xa = snapshot.partner(state, id.y, c),
                    xb = snapshot.partner(state, id.z, c), xc = snapshot.partner(state, id.w, c);
    const glm::vec4 n = bc.normal[slot], w = bc.weights[slot];
    // sum of |coeff| over the contact's free vertices of colour c (vbd_add_body_contact)
    float together = 0.0f;
    if (snapshot.colorOf[id.x] == c && xp.w > 0.0f) together += 1.0f;
    if (snapshot.colorOf[id.y] == c && xa.w > 0.0f) together += std::fabs(w.x);
    if (snapshot.colorOf[id.z] == c && xb.w > 0.0f) together += std::fabs(w.y);
    if (snapshot.colorOf[id.w] == c && xc.w > 0.0f) together += std::fabs(w.z);
    active |= clm::vbd_add_body_contact(
        glm::vec3(xp), glm::vec3(xa), glm::vec3(xb), glm::vec3(xc), glm::vec3(xp) - glm::vec3(state.xPrev[id.x]),
        glm::vec3(xa) - glm::vec3(state.xPrev[id.y]), glm::vec3(xb) - glm::vec3(state.xPrev[id.z]),
        glm::vec3(xc) - glm::vec3(state.xPrev[id.w]), xp.w, xa.w, xb.w, xc.w, glm::vec3(n), glm::vec3(w), n.w, w.w,
        item & 3u, together, stiffnessOverH2, yEps, lambda ? lambda[slot] : 0.0f, c0 ? c0[slot] : 0.0f, &sys.f,
        &sys.H);
  }
  return active != 0;
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
  glm::vec3 sum(0.0f);
  for (size_t s = 0; s < attachment.vertices.size() && s < attachment.weights.size(); ++s)
    sum += positionOf(state, attachment.vertices[s]) * attachment.weights[s];
  return sum - attachment.target;
}

bool vbdSolveVertex(const VbdVertexSystem& sys, HessianSafeguard safeguard, float determinantThreshold,
                    glm::vec3& outDx) {
  const float threshold = safeguard == HessianSafeguard::DeterminantThreshold ? determinantThreshold : 0.0f;
  outDx = glm::vec3(0.0f);
  return clm::sym3_solve(sys.H, sys.f, threshold, &outDx) != 0;
}

}  // namespace tetlab
