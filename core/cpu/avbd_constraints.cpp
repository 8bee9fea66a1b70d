#include "core/cpu/avbd_constraints.h"

#include <algorithm>
#include <cmath>


#include "core/model/body_constants.h"
#include "core/model/cloth_membrane.h"
#include "core/sim/collider_records.h"

namespace tetlab {

namespace {

constexpr uint32_t kContactRows = AVBD_CONTACT_ROWS;  // contact rows per vertex (K)

}  // namespace

clm::AvbdStepParams avbdStepParams(const SimModel& model, const SolverSettings& settings, const AvbdLayout& layout,
                                   float h) {
  const AvbdParams& p = settings.avbd;
  const ConstraintToggles& on = settings.step.constraints;
  const float gLength = glm::length(settings.step.gravity);
  clm::AvbdStepParams k{};
  k.colliderCount = colliderRecordCount(settings.colliders);
  k.alpha = p.alpha;
  k.gamma = p.gamma;
  k.beta = p.beta;
  k.kStart = p.kStart;
  k.kStartInertia = p.kStartInertia;
  k.kMax = p.kMax;
  k.h = h;
  k.contactCap = p.hardContacts ? p.kMax : std::min(p.kMax, p.primal.contactStiffness);
  k.contactThickness = p.primal.contactThickness;
  k.gh2 = gLength * h * h;
  k.bodyStiffnessOverH2 = p.primal.bodyContactStiffness / (h * h);
  k.bodyYEps = p.primal.frictionEpsilon * h;
  k.gravity[0] = settings.step.gravity.x;
  k.gravity[1] = settings.step.gravity.y;
  k.gravity[2] = settings.step.gravity.z;
  k.gravityLength = gLength;
  k.determinantThreshold = p.primal.determinantThreshold;
  k.hardContacts = p.hardContacts ? 1u : 0u;
  k.hardPins = p.hardPins ? 1u : 0u;
  k.hardAttachment = p.hardAttachment ? 1u : 0u;
  k.hardEdges = p.hardEdges ? 1u : 0u;
  k.terms = (on.neoHookean ? VBD_TERM_NEO_HOOKEAN : 0u) | (anyEdgeSprings(model, springChoice(on)) ? VBD_TERM_EDGES : 0u) |
            (on.collisions ? VBD_TERM_COLLISIONS : 0u) | (p.friction ? VBD_TERM_FRICTION : 0u) |
            (on.bodyContacts ? VBD_TERM_BODY_CONTACTS : 0u) | (clothBendingOn(model, on.bending) ? VBD_TERM_BENDING : 0u) |
         (clothMembraneOn(model, on.membrane) ? VBD_TERM_MEMBRANE : 0u);
  k.safeguard = int(p.primal.safeguard);
  k.mouseRow = layout.mouse;
  k.pinRow = layout.pins;
  k.contactRow = layout.contacts;
  k.bodyRow = layout.bodyContacts;
  return k;
}

AvbdLayout AvbdLayout::make(const SimModel& model) {
  AvbdLayout l;
  l.contactsPerVertex = kContactRows;
  l.edges = 0;
  l.mouse = model.edgeCount();
  l.pins = l.mouse + 3;
  l.contacts = l.pins + 3 * model.vertexCount();
  l.bodyContacts = l.contacts + 3 * kContactRows * model.vertexCount();
  l.size = l.bodyContacts + uint32_t(model.surfaceVertices.size());
  return l;
}

void AvbdConstraints::reset(const SimModel& model, State& state, const AvbdParams& params) {
  const uint32_t n = model.vertexCount();
  layout_ = AvbdLayout::make(model);
  state.lambda.assign(layout_.size, 0.0f);  // Eq. 10
  state.penalty.assign(layout_.size, params.kStart);
  bodyIds_.assign(model.surfaceVertices.size(), glm::uvec4(kNoContact));
  bodyC0_.assign(model.surfaceVertices.size(), 0.0f);
  bodyContactsActive_ = false;
  edgeC0_.assign(model.edgeCount(), 0.0f);
  pins_.assign(2 * size_t(n), glm::vec4(0.0f));
  for (uint32_t i = 0; i < n && i < state.x.size(); ++i)  // as avbd_reset_vertices
    pins_[2 * size_t(i)] = glm::vec4(glm::vec3(state.x[i]), state.x[i].w > 0.0f ? 0.0f : 1.0f);
  clm::AvbdContactFrame none{};
  none.collider = -1;
  contacts_.assign(size_t(kContactRows) * n, none);
  mouseVertices_.clear();
  mouseActive_ = false;
}

void AvbdConstraints::beginSubstep(const SimModel& model, const SolverSettings& settings,
                                   const VbdMaterialCache& cache, float h, State& state) {
  const AvbdParams& p = settings.avbd;
  const uint32_t n = model.vertexCount();
  if (state.lambda.size() != layout_.size || state.penalty.size() != layout_.size || pins_.size() != 2 * size_t(n))
    reset(model, state, p);
  attachment_.rebuild(state.mouse, n);
  params_ = avbdStepParams(model, settings, layout_, h);
  packColliders(settings.colliders, colliders_);
  float* lambda = state.lambda.data();
  float* penalty = state.penalty.data();

  // Edges: stabilisation offset and warm start.
  for (uint32_t e = 0; e < model.edgeCount(); ++e)
    clm::avbd_begin_edge(e, state.x.data(), state.xPrev.data(), model.edges.data(), model.restLength.data(),
                         model.mass.data(), cache.edgeStiffness.data(), &params_, edgeC0_.data(), lambda, penalty);

  // Mouse: a new drag (or another vertex set) starts from fresh multipliers.
  const Attachment& mouse = state.mouse;
  mouse_.stiffness = mouse.stiffness;
  mouse_.maxForce = mouse.maxForce;
  mouse_.active = mouse.active ? 1u : 0u;
  mouse_.same = mouse.active && mouseActive_ && mouse.vertices == mouseVertices_ ? 1u : 0u;
  float heaviest = 0.0f;
  for (uint32_t v : mouse.vertices)
    if (v < n) heaviest = std::fmax(heaviest, clm::avbd_mass_of(state.x[v], model.mass[v]));
  clm::avbd_begin_mouse_rows(&params_, &mouse_, heaviest, lambda, penalty);
  mouseActive_ = mouse.active;
  mouseVertices_ = mouse.vertices;
  if (mouse.active)
    mouseC0_ = clm::vbd_attachment_offset(state.xPrev.data(), mouse.vertices.data(), mouse.weights.data(),
                                          uint32_t(std::min(mouse.vertices.size(), mouse.weights.size())),
                                          mouse.target);

  // Pins: the target is where the vertex was when it got pinned.
  for (uint32_t i = 0; i < n; ++i)
    clm::avbd_begin_pin(i, state.x.data(), state.xPrev.data(), model.mass.data(), &params_, pins_.data(), lambda,
                        penalty);

  for (uint32_t i = 0; i < n; ++i) beginContacts(model, settings, h, state, i);

  // Body contacts: stabilisation offset at x^t (Eq. 18) and the multiplier's warm
  // start (Eq. 19) while the slot keeps the same vertex and triangle.
  const BodyContacts& bc = state.bodyContacts;
  bodyContactsActive_ = settings.step.constraints.bodyContacts && bc.active > 0 && bc.ids.size() == bodyIds_.size() &&
                        bc.vertexCount.size() == n && bc.vertexItems.size() == size_t(n) * kMaxContactsPerVertex;
  for (uint32_t slot = 0; slot < bodyIds_.size(); ++slot)
    clm::avbd_begin_body_slot(slot, bodyContactsActive_ ? 1u : 0u, bc.ids.data(), bc.normal.data(),
                              bc.weights.data(), state.xPrev.data(), bodyIds_.data(), bodyC0_.data(), lambda,
                              &params_);
}

// Contacts of vertex i: every collider within the distance the vertex can cover
// this substep at x^t (twice |v| h + |g| h^2, for margin), the K deepest, each
// its own row (Eq. 15). A row keeps the warm-started multipliers (Eq. 19) of the
// row its collider had last substep; a collider new to the vertex starts cold.
void AvbdConstraints::beginContacts(const SimModel& model, const SolverSettings& settings, float h, State& state,
                                    uint32_t i) {
  const AvbdParams& p = settings.avbd;
  clm::AvbdContactPick picks[kContactRows];
  int count = 0;
  if (settings.step.constraints.collisions && (state.x[i].w > 0.0f || hardPinned(state, i))) {
    const float margin =
        2.0f * (glm::length(glm::vec3(state.v[i])) * h + glm::length(settings.step.gravity) * h * h);
    count = clm::avbd_pick_contacts(colliders_.data.data(), colliders_.count(), glm::vec3(state.xPrev[i]),
                                    p.primal.contactThickness, margin, picks);
  }

  const float start = std::fmin(clm::avbd_row_start(&params_, clm::avbd_mass_of(state.x[i], model.mass[i])),
                                params_.contactCap);
  clm::avbd_assign_contact_rows(i, picks, count, start, &params_, contacts_.data(), state.lambda.data(),
                                state.penalty.data());
}

uint32_t AvbdConstraints::addVertexTerms(const SimModel& model, const SolverSettings& settings,
                                         const VbdMaterialCache& cache, float h, const State& state, uint32_t i,
                                         VbdVertexSystem& sys, bool& outInContact) const {
  const ConstraintToggles& on = settings.step.constraints;
  const float* lambda = state.lambda.data();
  const float* penalty = state.penalty.data();
  uint32_t triggers = 0;
  const glm::vec3 xi(state.x[i]);
  outInContact = false;
  if (anyEdgeSprings(model, springChoice(on)))
    triggers += clm::avbd_add_edge_rows(i, &params_, state.x.data(), model.edges.data(), model.restLength.data(),
                                        edgeC0_.data(), lambda, penalty, model.vertexEdges.offsets.data(),
                                        model.vertexEdges.items.data(), &sys);
  if (const int32_t slot = attachment_.slot(i); slot >= 0)
    clm::avbd_add_mouse_rows(attachmentOffset(state.mouse, state), state.mouse.weights[size_t(slot)], &mouse_,
                             &params_, mouseC0_, lambda, penalty, &sys);
  if (hardPinned(state, i))
    clm::avbd_add_pin_rows(xi, glm::vec3(pins_[2 * size_t(i)]), glm::vec3(pins_[2 * size_t(i) + 1]), &params_, i,
                           lambda, penalty, &sys);
  if (on.collisions)
    outInContact = clm::avbd_add_vertex_contacts(i, xi - glm::vec3(state.xPrev[i]), &params_, contacts_.data(), lambda,
                                                 penalty, &sys) != 0;
  return triggers;
}

void AvbdConstraints::updateDuals(const SimModel& model, const SolverSettings& settings,
                                  const VbdMaterialCache& cache, State& state) const {
  const ConstraintToggles& on = settings.step.constraints;
  float* lambda = state.lambda.data();
  float* penalty = state.penalty.data();
  if (anyEdgeSprings(model, springChoice(on)))
    for (uint32_t e = 0; e < model.edgeCount(); ++e)
      clm::avbd_dual_edge(e, state.x.data(), model.edges.data(), model.restLength.data(), edgeC0_.data(),
                          cache.edgeStiffness.data(), &params_, lambda, penalty);
  if (state.mouse.active)
    clm::avbd_dual_mouse_rows(attachmentOffset(state.mouse, state), &mouse_, &params_, mouseC0_, lambda, penalty);
  if (bodyContactsActive_) {
    const BodyContacts& bc = state.bodyContacts;
    for (uint32_t slot = 0; slot < bodyIds_.size(); ++slot)
      clm::avbd_dual_body_slot(slot, bc.ids.data(), bc.normal.data(), bc.weights.data(), state.x.data(),
                               bodyC0_.data(), &params_, lambda);
  }
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    clm::avbd_dual_vertex(i, state.x.data(), state.xPrev.data(), pins_.data(), contacts_.data(), &params_, lambda,
                          penalty);
}

float AvbdConstraints::maxHardViolation(const SimModel& model, const SolverSettings& settings,
                                        const State& state) const {
  const AvbdParams& p = settings.avbd;
  float worst = 0.0f;
  if (p.hardEdges)
    for (uint32_t e = 0; e < model.edgeCount(); ++e) {
      const glm::uvec2 ed = model.edges[e];
      if (!edgeSpringsOn(model, model.vertexBody[ed.x], springChoice(settings.step.constraints))) continue;
      worst = std::max(worst, std::fabs(glm::length(glm::vec3(state.x[ed.x]) - glm::vec3(state.x[ed.y])) -
                                        model.restLength[e]));
    }
  if (bodyContactsActive_) worst = std::max(worst, bodyContactPenetration(state));
  if (state.mouse.active && p.hardAttachment) worst = std::max(worst, glm::length(attachmentOffset(state.mouse, state)));
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    if (hardPinned(state, i))
      worst = std::max(worst, glm::length(glm::vec3(state.x[i]) - glm::vec3(pins_[2 * size_t(i)])));
    if (settings.step.constraints.collisions)
      forEachCollider(colliders_, glm::vec3(state.x[i]), [&](const ColliderSample& s) {
        worst = std::max(worst, p.primal.contactThickness - s.phi);
      });
  }
  return worst;
}

uint32_t AvbdConstraints::activeContacts() const {
  uint32_t count = 0;
  for (size_t i = 0; i + kContactRows <= contacts_.size(); i += kContactRows)
    count += std::any_of(&contacts_[i], &contacts_[i] + kContactRows,
                         [](const clm::AvbdContactFrame& c) { return c.collider >= 0; })
                 ? 1u : 0u;
  return count;
}

}  // namespace tetlab
