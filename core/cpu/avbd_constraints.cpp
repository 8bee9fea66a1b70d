#include "core/cpu/avbd_constraints.h"

#include <algorithm>
#include <cmath>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/avbd_constraint.clh"
#include "shaders/cl/common/vbd_contact.clh"

#include "core/cpu/vbd_colliders.h"

namespace tetlab {

namespace {

constexpr float kUnbounded = AVBD_UNBOUNDED;
constexpr uint32_t kContactRows = AVBD_CONTACT_ROWS;  // contact rows per vertex (K)

// Deterministic tangent basis of a contact normal, so a persisting contact's
// friction multipliers stay expressed in the same directions.
void tangentBasis(glm::vec3 n, glm::vec3& t, glm::vec3& b) {
  const glm::vec3 axis = std::fabs(n.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 0.0f, 1.0f);
  t = glm::normalize(glm::cross(n, axis));
  b = glm::cross(n, t);
}

// Scalar row state held in State::lambda / State::penalty.
struct Row {
  float& lambda;
  float& k;
};
Row rowOf(State& s, uint32_t r) { return {s.lambda[r], s.penalty[r]}; }

void freshRow(State& s, uint32_t r, float kStart) {
  s.lambda[r] = 0.0f;
  s.penalty[r] = kStart;
}

// Warm start (Eq. 19) with the penalty kept in [kStartRow, kCap]; soft rows never carry lambda.
void warmRow(State& s, uint32_t r, const AvbdParams& p, bool hard, float kStartRow, float kCap) {
  Row row = rowOf(s, r);
  clm::avbd_warm_start_row(p.alpha, p.gamma, std::min(kStartRow, kCap), kCap, &row.lambda, &row.k);
  if (!hard) row.lambda = 0.0f;
}

float softCap(const AvbdParams& p, float stiffness) { return std::min(p.kMax, stiffness); }

float massOf(const SimModel& model, const State& state, uint32_t i) {
  return state.x[i].w > 0.0f ? 1.0f / state.x[i].w : model.mass[i];
}

// Initial / minimum penalty of a row whose heaviest vertex has mass m: the absolute
// k_start (Eq. 10) or kStartInertia m / h^2, whichever is larger, so the first
// iterations already remove a fixed fraction of a violation whatever the units.
float rowStart(const AvbdParams& p, float mass, float h) { return std::max(p.kStart, p.kStartInertia * mass / (h * h)); }

// Dual update of one contact's rows (normal, t, b) from row `base` on, dx = x - x^t
// (Eq. 11, 12, 16; the friction bound follows the normal force just updated, Sec. 3.3).
void updateContactDuals(const AvbdParams& p, const AvbdContact& c, uint32_t base, glm::vec3 dx, State& state) {
  if (c.collider < 0) return;
  const float cap = p.hardContacts ? p.kMax : softCap(p, p.primal.contactStiffness);
  const float Cn = glm::dot(c.n, dx) + c.phi0 - (p.hardContacts ? p.alpha * std::min(c.phi0, 0.0f) : 0.0f);
  Row normal = rowOf(state, base);
  clm::avbd_update_row(Cn, p.hardContacts ? 1 : 0, p.beta, cap, -kUnbounded, 0.0f, &normal.lambda, &normal.k);
  if (!(p.friction && c.mu > 0.0f)) return;
  const float Ct = glm::dot(c.t, dx), Cb = glm::dot(c.b, dx);
  Row rt = rowOf(state, base + 1), rb = rowOf(state, base + 2);
  if (p.hardContacts) {
    int clamped = 0;
    const glm::vec3 l = clm::avbd_clamp_length(glm::vec3(rt.k * Ct + rt.lambda, rb.k * Cb + rb.lambda, 0.0f),
                                               c.mu * std::fabs(normal.lambda), &clamped);
    rt.lambda = l.x;
    rb.lambda = l.y;
    if (clamped) return;
  }
  rt.k = std::min(rt.k + p.beta * std::fabs(Ct), cap);
  rb.k = std::min(rb.k + p.beta * std::fabs(Cb), cap);
}

}  // namespace

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
  pinTarget_.assign(n, glm::vec3(0.0f));
  pinKnown_.assign(n, 0);
  pinC0_.assign(n, glm::vec3(0.0f));
  for (uint32_t i = 0; i < n && i < state.x.size(); ++i)
    if (!(state.x[i].w > 0.0f)) {
      pinTarget_[i] = glm::vec3(state.x[i]);
      pinKnown_[i] = 1;
    }
  contacts_.assign(size_t(kContactRows) * n, AvbdContact{});
  mouseVertices_.clear();
  mouseActive_ = false;
}

void AvbdConstraints::beginSubstep(const SimModel& model, const SolverSettings& settings,
                                   const VbdMaterialCache& cache, float h, State& state) {
  const AvbdParams& p = settings.avbd;
  const uint32_t n = model.vertexCount();
  if (state.lambda.size() != layout_.size || state.penalty.size() != layout_.size || pinKnown_.size() != n)
    reset(model, state, p);
  attachment_.rebuild(state.mouse, n);

  // Edges: stabilisation offset and warm start.
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const glm::uvec2 ed = model.edges[e];
    edgeC0_[e] = glm::length(glm::vec3(state.xPrev[ed.x]) - glm::vec3(state.xPrev[ed.y])) - model.restLength[e];
    const float start = rowStart(p, std::max(massOf(model, state, ed.x), massOf(model, state, ed.y)), h);
    warmRow(state, layout_.edges + e, p, p.hardEdges, start, p.hardEdges ? p.kMax : softCap(p, cache.edgeStiffness[e]));
  }

  // Mouse: a new drag (or another vertex set) starts from fresh multipliers.
  const Attachment& mouse = state.mouse;
  const bool same = mouse.active && mouseActive_ && mouse.vertices == mouseVertices_;
  const float mouseCap = p.hardAttachment ? p.kMax : softCap(p, mouse.stiffness);
  float mouseMass = 0.0f;
  for (uint32_t v : mouse.vertices)
    if (v < n) mouseMass = std::max(mouseMass, massOf(model, state, v));
  const float mouseStart = std::min(rowStart(p, mouseMass, h), mouseCap);
  for (uint32_t r = 0; r < 3; ++r) {
    if (same)
      warmRow(state, layout_.mouse + r, p, p.hardAttachment, mouseStart, mouseCap);
    else
      freshRow(state, layout_.mouse + r, mouseStart);
  }
  mouseActive_ = mouse.active;
  mouseVertices_ = mouse.vertices;
  if (mouse.active) {
    glm::vec3 sum(0.0f);
    for (size_t s = 0; s < mouse.vertices.size() && s < mouse.weights.size(); ++s)
      sum += glm::vec3(state.xPrev[mouse.vertices[s]]) * mouse.weights[s];
    mouseC0_ = sum - mouse.target;
  }

  // Pins: the target is where the vertex was when it got pinned.
  for (uint32_t i = 0; i < n; ++i) {
    const bool pinned = !(state.x[i].w > 0.0f);
    const float start = rowStart(p, model.mass[i], h);
    if (pinned && !pinKnown_[i]) {
      pinTarget_[i] = glm::vec3(state.xPrev[i]);
      pinKnown_[i] = 1;
      for (uint32_t r = 0; r < 3; ++r) freshRow(state, layout_.pins + 3 * i + r, start);
    } else if (!pinned) {
      pinKnown_[i] = 0;
    } else {
      for (uint32_t r = 0; r < 3; ++r) warmRow(state, layout_.pins + 3 * i + r, p, true, start, p.kMax);
    }
    pinC0_[i] = glm::vec3(state.xPrev[i]) - pinTarget_[i];
  }

  for (uint32_t i = 0; i < n; ++i) beginContacts(model, settings, h, state, i);

  // Body contacts: stabilisation offset at x^t (Eq. 18) and the multiplier's warm
  // start (Eq. 19) while the slot keeps the same vertex and triangle.
  const BodyContacts& bc = state.bodyContacts;
  bodyStiffnessOverH2_ = p.primal.bodyContactStiffness / (h * h);
  bodyContactsActive_ = settings.step.constraints.bodyContacts && bc.active > 0 && bc.ids.size() == bodyIds_.size() &&
                        bc.vertexCount.size() == n && bc.vertexItems.size() == size_t(n) * kMaxContactsPerVertex;
  for (size_t slot = 0; slot < bodyIds_.size(); ++slot) {
    float& lambda = state.lambda[layout_.bodyContacts + slot];
    const glm::uvec4 id = bodyContactsActive_ ? bc.ids[slot] : glm::uvec4(kNoContact);
    if (id.x == kNoContact) {
      lambda = 0.0f;
      bodyC0_[slot] = 0.0f;
    } else {
      lambda = id == bodyIds_[slot] ? p.alpha * p.gamma * lambda : 0.0f;
      bodyC0_[slot] = clm::avbd_body_contact_c0(glm::vec3(state.xPrev[id.x]), glm::vec3(state.xPrev[id.y]),
                                                glm::vec3(state.xPrev[id.z]), glm::vec3(state.xPrev[id.w]),
                                                glm::vec3(bc.normal[slot]), glm::vec3(bc.weights[slot]),
                                                bc.normal[slot].w, p.alpha);
    }
    bodyIds_[slot] = id;
  }
}

// Contacts of vertex i: every collider within the distance the vertex can cover
// this substep at x^t (twice |v| h + |g| h^2, for margin), the K deepest, each
// its own row (Eq. 15). A row keeps the warm-started multipliers (Eq. 19) of the
// row its collider had last substep; a collider new to the vertex starts cold.
void AvbdConstraints::beginContacts(const SimModel& model, const SolverSettings& settings, float h, State& state,
                                    uint32_t i) {
  const AvbdParams& p = settings.avbd;
  AvbdContact* rows = &contacts_[size_t(kContactRows) * i];
  const uint32_t base = layout_.contacts + 3 * kContactRows * i;
  int previousIds[kContactRows];
  float previousLambda[3 * kContactRows], previousPenalty[3 * kContactRows];
  for (uint32_t k = 0; k < kContactRows; ++k) previousIds[k] = rows[k].collider;
  for (uint32_t r = 0; r < 3 * kContactRows; ++r) {
    previousLambda[r] = state.lambda[base + r];
    previousPenalty[r] = state.penalty[base + r];
  }

  clm::AvbdContactPick picks[kContactRows];
  int count = 0;
  if (settings.step.constraints.collisions && (state.x[i].w > 0.0f || hardPinned(p, state, i))) {
    const float margin =
        2.0f * (glm::length(glm::vec3(state.v[i])) * h + glm::length(settings.step.gravity) * h * h);
    forEachCollider(settings.colliders, glm::vec3(state.xPrev[i]), [&](const ColliderSample& s) {
      const float phi = s.phi - p.primal.contactThickness;
      if (phi < margin) count = clm::avbd_contact_keep({s.id, phi, s.normal, s.friction}, picks, count);
    });
  }

  const float cap = p.hardContacts ? p.kMax : softCap(p, p.primal.contactStiffness);
  const float start = std::min(rowStart(p, massOf(model, state, i), h), cap);
  for (uint32_t k = 0; k < kContactRows; ++k) {
    AvbdContact& c = rows[k];
    const uint32_t row = base + 3 * k;
    c.collider = int(k) < count ? picks[k].id : -1;
    const int from = clm::avbd_contact_previous_row(c.collider, previousIds);
    for (uint32_t r = 0; r < 3; ++r) {
      if (from < 0) {
        freshRow(state, row + r, start);
      } else {
        state.lambda[row + r] = previousLambda[3 * uint32_t(from) + r];
        state.penalty[row + r] = previousPenalty[3 * uint32_t(from) + r];
        warmRow(state, row + r, p, p.hardContacts, start, cap);
      }
    }
    if (c.collider < 0) continue;
    c.n = picks[k].n;
    c.phi0 = picks[k].phi0;
    c.mu = picks[k].mu;
    tangentBasis(c.n, c.t, c.b);
  }
}

float AvbdConstraints::edgeC(const SimModel& model, const State& state, uint32_t e, const AvbdParams& p) const {
  const glm::uvec2 ed = model.edges[e];
  const float C = glm::length(glm::vec3(state.x[ed.x]) - glm::vec3(state.x[ed.y])) - model.restLength[e];
  return p.hardEdges ? C - p.alpha * edgeC0_[e] : C;  // Eq. 18 for hard rows
}

uint32_t AvbdConstraints::addVertexTerms(const SimModel& model, const SolverSettings& settings,
                                         const VbdMaterialCache& cache, float h, const State& state, uint32_t i,
                                         VbdVertexSystem& sys, bool& outInContact) const {
  const AvbdParams& p = settings.avbd;
  const ConstraintToggles& on = settings.step.constraints;
  const int mode = int(p.primal.safeguard);
  uint32_t triggers = 0;
  const glm::vec3 xi(state.x[i]);
  const glm::vec3 xt(state.xPrev[i]);
  outInContact = false;

  if (on.edges) {
    const float kdOverH = cache.bodyDamping[model.vertexBody[i]] / h;
    for (uint32_t k = model.vertexEdges.offsets[i]; k < model.vertexEdges.offsets[i + 1]; ++k) {
      const uint32_t item = model.vertexEdges.items[k];
      const uint32_t e = item >> 1u;
      const glm::uvec2 ed = model.edges[e];
      const uint32_t other = (item & 1u) ? ed.x : ed.y;
      const uint32_t row = layout_.edges + e;
      const float C = edgeC(model, state, e, p);
      const float lambda = p.hardEdges ? state.lambda[row] : 0.0f;
      const float lambdaPlus = clm::avbd_force(state.penalty[row], C, lambda, -kUnbounded, kUnbounded);
      glm::vec3 f(0.0f);
      clm::Sym3 block = clm::sym3_zero();
      int triggered = 0;
      clm::avbd_distance_row(xi - glm::vec3(state.x[other]), state.penalty[row], lambdaPlus, mode, &f, &block,
                             &triggered);
      triggers += uint32_t(triggered);
      sys.f += f;
      sys.H = clm::sym3_add(sys.H, block);
      // A soft edge is a material spring and gets its Rayleigh damping (VBD Sec. 3.2); a hard one stores no energy.
      if (!p.hardEdges && kdOverH > 0.0f) {
        const glm::vec3 otherDisplacement = glm::vec3(state.x[other]) - glm::vec3(state.xPrev[other]);
        sys.f -= clm::sym3_mul_vec(block, (xi - xt) - otherDisplacement) * kdOverH;
        sys.H = clm::sym3_add(sys.H, clm::sym3_scale(block, kdOverH));
      }
    }
  }

  if (const int32_t slot = attachment_.slot(i); slot >= 0) {
    const Attachment& mouse = state.mouse;
    const float w = mouse.weights[size_t(slot)];
    glm::vec3 C = attachmentOffset(mouse, state);
    if (p.hardAttachment) C -= p.alpha * mouseC0_;
    glm::vec3 k, raw;
    for (int r = 0; r < 3; ++r) {
      k[r] = state.penalty[layout_.mouse + r];
      raw[r] = k[r] * C[r] + (p.hardAttachment ? state.lambda[layout_.mouse + r] : 0.0f);
    }
    int clamped = 0;
    const glm::vec3 lambdaPlus = clm::avbd_clamp_length(raw, mouse.maxForce, &clamped);
    const float secant = clamped ? mouse.maxForce / glm::length(raw) : 1.0f;  // Eq. 14 for a magnitude bound
    sys.f -= lambdaPlus * w;
    sys.H = clm::sym3_add(sys.H, clm::sym3_diagonal(k * (w * w * secant)));
  }

  if (hardPinned(p, state, i)) {
    const glm::vec3 C = xi - pinTarget_[i] - p.alpha * pinC0_[i];
    glm::vec3 k;
    for (int r = 0; r < 3; ++r) {
      const uint32_t row = layout_.pins + 3 * i + uint32_t(r);
      k[r] = state.penalty[row];
      sys.f[r] -= k[r] * C[r] + state.lambda[row];
    }
    sys.H = clm::sym3_add(sys.H, clm::sym3_diagonal(k));
  }

  for (uint32_t k = 0; on.collisions && k < kContactRows; ++k) {
    const AvbdContact& c = contacts_[size_t(kContactRows) * i + k];
    if (c.collider < 0) continue;
    const uint32_t row = layout_.contacts + 3 * (kContactRows * i + k);
    const glm::vec3 dx = xi - xt;
    // Normal row (Eq. 15 linearised about x^t, Eq. 18 on pre-existing penetration only).
    const float Cn = glm::dot(c.n, dx) + c.phi0 - (p.hardContacts ? p.alpha * std::min(c.phi0, 0.0f) : 0.0f);
    const float kN = state.penalty[row];
    const float lN = p.hardContacts ? state.lambda[row] : 0.0f;
    const float lambdaN = clm::avbd_force(kN, Cn, lN, -kUnbounded, 0.0f);
    sys.f -= c.n * lambdaN;
    sys.H = clm::sym3_add(sys.H, clm::sym3_outer(c.n, clm::avbd_hessian_stiffness(kN, Cn, lN, -kUnbounded, 0.0f)));
    outInContact = outInContact || lambdaN < 0.0f;
    // Friction rows, bounded by the Coulomb disk |lambda_tb| <= mu |lambda_n| (Sec. 3.3).
    if (p.friction && c.mu > 0.0f) {
      const float kT = state.penalty[row + 1], kB = state.penalty[row + 2];
      const float lT = p.hardContacts ? state.lambda[row + 1] : 0.0f;
      const float lB = p.hardContacts ? state.lambda[row + 2] : 0.0f;
      const glm::vec3 raw(kT * glm::dot(c.t, dx) + lT, kB * glm::dot(c.b, dx) + lB, 0.0f);
      int clamped = 0;
      const glm::vec3 lambdaTB = clm::avbd_clamp_length(raw, c.mu * std::fabs(lambdaN), &clamped);
      const float secant = clamped ? (glm::length(raw) > 0.0f ? glm::length(lambdaTB) / glm::length(raw) : 0.0f)
                                   : 1.0f;
      sys.f -= c.t * lambdaTB.x + c.b * lambdaTB.y;
      sys.H = clm::sym3_add(sys.H, clm::sym3_outer(c.t, kT * secant));
      sys.H = clm::sym3_add(sys.H, clm::sym3_outer(c.b, kB * secant));
    }
  }
  return triggers;
}

void AvbdConstraints::updateDuals(const SimModel& model, const SolverSettings& settings,
                                  const VbdMaterialCache& cache, State& state) const {
  const AvbdParams& p = settings.avbd;
  const ConstraintToggles& on = settings.step.constraints;

  if (on.edges)
    for (uint32_t e = 0; e < model.edgeCount(); ++e) {
      Row row = rowOf(state, layout_.edges + e);
      const float cap = p.hardEdges ? p.kMax : softCap(p, cache.edgeStiffness[e]);
      clm::avbd_update_row(edgeC(model, state, e, p), p.hardEdges ? 1 : 0, p.beta, cap, -kUnbounded, kUnbounded,
                           &row.lambda, &row.k);
    }

  const Attachment& mouse = state.mouse;
  if (mouse.active) {
    glm::vec3 C = attachmentOffset(mouse, state);
    const float cap = p.hardAttachment ? p.kMax : softCap(p, mouse.stiffness);
    if (p.hardAttachment) {
      C -= p.alpha * mouseC0_;
      glm::vec3 raw;
      for (int r = 0; r < 3; ++r) raw[r] = state.penalty[layout_.mouse + r] * C[r] + state.lambda[layout_.mouse + r];
      int clamped = 0;
      const glm::vec3 lambda = clm::avbd_clamp_length(raw, mouse.maxForce, &clamped);
      for (int r = 0; r < 3; ++r) {
        state.lambda[layout_.mouse + r] = lambda[r];
        if (!clamped) state.penalty[layout_.mouse + r] = std::min(state.penalty[layout_.mouse + r] + p.beta * std::fabs(C[r]), cap);
      }
    } else {
      for (int r = 0; r < 3; ++r)
        state.penalty[layout_.mouse + r] = std::min(state.penalty[layout_.mouse + r] + p.beta * std::fabs(C[r]), cap);
    }
  }

  if (bodyContactsActive_) {
    const BodyContacts& bc = state.bodyContacts;
    for (size_t slot = 0; slot < bodyIds_.size(); ++slot) {
      const glm::uvec4 id = bc.ids[slot];
      if (id.x == kNoContact) continue;
      const glm::vec4 xp = state.x[id.x], xa = state.x[id.y], xb = state.x[id.z], xc = state.x[id.w];
      float& lambda = state.lambda[layout_.bodyContacts + slot];
      lambda = clm::avbd_body_contact_dual(glm::vec3(xp), glm::vec3(xa), glm::vec3(xb), glm::vec3(xc), xp.w, xa.w,
                                           xb.w, xc.w, glm::vec3(bc.normal[slot]), glm::vec3(bc.weights[slot]),
                                           bc.normal[slot].w, bodyC0_[slot], bodyStiffnessOverH2_, lambda);
    }
  }

  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    if (hardPinned(p, state, i)) {
      const glm::vec3 C = glm::vec3(state.x[i]) - pinTarget_[i] - p.alpha * pinC0_[i];
      for (int r = 0; r < 3; ++r) {
        Row row = rowOf(state, layout_.pins + 3 * i + uint32_t(r));
        clm::avbd_update_row(C[r], 1, p.beta, p.kMax, -kUnbounded, kUnbounded, &row.lambda, &row.k);
      }
    }
    for (uint32_t k = 0; on.collisions && k < kContactRows; ++k)
      updateContactDuals(p, contacts_[size_t(kContactRows) * i + k], layout_.contacts + 3 * (kContactRows * i + k),
                         glm::vec3(state.x[i]) - glm::vec3(state.xPrev[i]), state);
  }
}

float AvbdConstraints::maxHardViolation(const SimModel& model, const SolverSettings& settings,
                                        const State& state) const {
  const AvbdParams& p = settings.avbd;
  float worst = 0.0f;
  if (settings.step.constraints.edges && p.hardEdges)
    for (uint32_t e = 0; e < model.edgeCount(); ++e) {
      const glm::uvec2 ed = model.edges[e];
      worst = std::max(worst, std::fabs(glm::length(glm::vec3(state.x[ed.x]) - glm::vec3(state.x[ed.y])) -
                                        model.restLength[e]));
    }
  if (bodyContactsActive_) worst = std::max(worst, bodyContactPenetration(state));
  if (state.mouse.active && p.hardAttachment) worst = std::max(worst, glm::length(attachmentOffset(state.mouse, state)));
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    if (hardPinned(p, state, i)) worst = std::max(worst, glm::length(glm::vec3(state.x[i]) - pinTarget_[i]));
    if (settings.step.constraints.collisions)
      forEachCollider(settings.colliders, glm::vec3(state.x[i]), [&](const ColliderSample& s) {
        worst = std::max(worst, p.primal.contactThickness - s.phi);
      });
  }
  return worst;
}

uint32_t AvbdConstraints::activeContacts() const {
  uint32_t count = 0;
  for (size_t i = 0; i + kContactRows <= contacts_.size(); i += kContactRows)
    count += std::any_of(&contacts_[i], &contacts_[i] + kContactRows, [](const AvbdContact& c) { return c.collider >= 0; })
                 ? 1u : 0u;
  return count;
}

}  // namespace tetlab
