// CPU reference Vertex Block Descent (Chen et al. 2024, "Vertex Block
// Descent"). One substep minimises the implicit-Euler variational energy
//   G(x) = 1/(2h^2) |x - y|_M^2 + E(x)                                  (VBD Sec. 3.1)
// by block coordinate descent: each vertex in turn takes one 3x3 Newton step
// on G with all other vertices fixed (Sec. 3.2). Vertices of one colour share no
// element, so the GPU runs a colour at once; here the colours run one after
// another, which is the same update order:
//
//   initial guess (Sec. 3.7)
//   for iteration n:
//     for colour c: for vertex i in c:  f_i, H_i  ->  dx = H_i^-1 f_i  ->  x_i += dx
//     [Chebyshev over-relaxation of the whole iterate (Sec. 3.8)]
//
// Terms in G: inertia, stable Neo-Hookean tets, mass springs, Rayleigh damping
// (vbd_terms.h), contact penalty with lagged friction against the analytic
// colliders (Sec. 3.5, evaluated at the vertex's current iterate, so no
// separate collision pass is needed), the same penalty + friction on the
// body-body contacts the stepper detected for the substep (State::bodyContacts,
// partners read through VbdContactSnapshot so the GPU can run a colour in
// parallel and still agree) and the mouse attachment spring.
//
// Residual (StepDiagnostics::residualHistory, one entry per iteration): the RMS
// over free vertices of |f_i| h^2 / m_i [m], with f_i evaluated when vertex i is
// visited: the step the inertia term alone would take to balance the remaining
// force. It is zero exactly at a stationary point of G.
#include "core/cpu/vbd_solver.h"

#include "core/sim/held_bodies.h"

#include <cmath>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/vbd_contact.clh"

#include "core/cpu/constraints_setup.h"
#include "core/model/body_constants.h"
#include "core/model/cloth_membrane.h"
#include "core/sim/collider_records.h"
#include "core/cpu/vbd_terms.h"
#include "core/sim/solver_settings.h"

namespace tetlab {

namespace {

float maxPenetration(const ColliderRecords& colliders, float thickness, const State& state) {
  float worst = 0.0f;
  for (size_t i = 0; i < state.x.size(); ++i)
    forEachCollider(colliders, glm::vec3(state.x[i]),
                    [&](const ColliderSample& s) { worst = std::max(worst, thickness - s.phi); });
  return worst;
}

class VbdSolver final : public VbdFamilySolver {
 public:
  SolverKind kind() const override { return SolverKind::Vbd; }

  void reset(const SimModel& model, State& state) override {
    // VBD keeps no multipliers; clear another solver's so nothing stale survives a switch.
    state.lambda.clear();
    state.penalty.clear();
    const size_t n = model.vertexCount();
    vLast_.resize(n);
    haveHistory_ = false;  // the first guess assumes free fall (common/vbd_initial_guess.clh)
    inContact_.assign(n, 0);
    chebyshevPrev1_.assign(n, glm::vec3(0.0f));
    chebyshevPrev2_.assign(n, glm::vec3(0.0f));
    snapshot_.reset(model);
    stats_ = {};
  }

  void solveSubstep(const SimModel& model, const SolverSettings& settings, float h, State& state,
                    StepDiagnostics& out) override {
    const VbdParams& p = settings.vbd;
    const ConstraintToggles& on = settings.step.constraints;
    const uint32_t n = model.vertexCount();
    if (vLast_.size() != n || snapshot_.colorOf.size() != n) reset(model, state);
    // Body contacts of this substep (none when the toggle is off or nothing touches).
    const BodyContacts& bc = state.bodyContacts;
    const bool bodyContacts = on.bodyContacts && bc.active > 0 && bc.vertexCount.size() == n &&
                              bc.vertexItems.size() == size_t(n) * kMaxContactsPerVertex;
    const float yEps = p.frictionEpsilon * h;
    const float kappaOverH2 = p.bodyContactStiffness / (h * h);
    cache_.refresh(model, springChoice(on));
    const bool springs = anyEdgeSprings(model, springChoice(on));
    const bool membranes = clothMembraneOn(model, on.membrane);
    const bool bending = clothBendingOn(model, on.bending);
    packColliders(settings.colliders, colliders_);
    attachment_.rebuild(state.mouse, n);
    stats_ = {};

    // Initial guess (VBD Sec. 3.7); remember v^t as next substep's v^{t-1}. With
    // Chebyshev acceleration a held body keeps the adaptive guess: over-relaxing
    // the fall from an inertia start overshoots (common/vbd_initial_guess.clh);
    // a swinging body starts from y either way.
    const int iterations = std::max(settings.step.iterations, 1);
    const bool accelerated = chebyshevActive(p.accelerate, iterations);
    markHeldVertices(model, state.x, held_, &pivots_);
    for (uint32_t i = 0; i < n; ++i) {
      const glm::vec3 v(state.v[i]);
      if (state.x[i].w > 0.0f) {
        const glm::vec3 x = vbdInitialGuess(p.initialGuess, h, settings.step.gravity, glm::vec3(state.x[i]), v,
                                            vLast_[i], haveHistory_,
                                            held_[i] == kBodyHeld && accelerated ? uint8_t(kBodyFree) : held_[i],
                                            guessPivot(state, pivots_, i));
        state.x[i] = glm::vec4(x, state.x[i].w);
      }
      vLast_[i] = v;
      chebyshevPrev1_[i] = glm::vec3(state.x[i]);
    }
    haveHistory_ = true;

    float omega = 1.0f;
    for (int it = 1; it <= iterations; ++it) {
      double residual2 = 0.0;
      uint32_t freeCount = 0;
      uint32_t contacts = 0;
      for (uint32_t c = 0; c < model.vertexColors.count(); ++c) {
        if (bodyContacts) snapshot_.take(model, state, c);
        for (uint32_t k = model.vertexColors.begin(c); k < model.vertexColors.end(c); ++k) {
          const uint32_t i = model.vertexColorOrder[k];
          const float w = state.x[i].w;
          if (!(w > 0.0f)) continue;  // pinned / kinematic
          const float mass = 1.0f / w;
          const glm::vec3 x(state.x[i]);
          VbdVertexSystem sys;
          vbdAddInertia(mass, h, x, glm::vec3(state.xInertial[i]), sys);
          if (on.neoHookean) vbdAddTets(model, state, cache_, i, sys);
          if (springs) stats_.safeguardTriggers += vbdAddSprings(model, state, cache_, i, p.safeguard, sys);
          if (membranes) stats_.safeguardTriggers += vbdAddMembranes(model, state, cache_, i, p.safeguard, sys);
          if (bending) vbdAddHinges(model, state, cache_, i, sys);
          stats_.safeguardTriggers += vbdAddAnchorSprings(state, i, p.safeguard, sys);
          if (const int32_t slot = attachment_.slot(i); slot >= 0)
            clm::vbd_add_attachment(attachmentOffset(state.mouse, state), state.mouse.weights[size_t(slot)],
                                    state.mouse.stiffness, state.mouse.maxForce, &sys.f, &sys.H);
          inContact_[i] = 0;
          if (on.collisions &&
              clm::vbd_add_collider_contacts(colliders_.data.data(), colliders_.count(), x,
                                             glm::vec3(state.xPrev[i]), p.contactThickness, p.contactStiffness,
                                             p.frictionEpsilon, h, &sys) > 0.0f) {
            inContact_[i] = 1;
          }
          if (bodyContacts && vbdAddBodyContacts(state, snapshot_, c, i, kappaOverH2, yEps, sys))
            inContact_[i] = 1;
          contacts += inContact_[i];
          const float r = clm::vbd_vertex_residual(sys.f, h, mass);
          residual2 += double(r) * double(r);
          ++freeCount;
          glm::vec3 dx;
          if (vbdSolveVertex(sys, p.safeguard, p.determinantThreshold, dx)) {
            state.x[i] = glm::vec4(x + dx, w);
          } else {
            ++stats_.skippedVertices;
            if (p.safeguard == HessianSafeguard::DeterminantThreshold) ++stats_.safeguardTriggers;
          }
        }
      }
      stats_.activeContacts = contacts;
      if (accelerated) accelerate(state, it, iterations, p.chebyshevRho, omega);
      out.residualHistory.push_back(freeCount ? float(std::sqrt(residual2 / double(freeCount))) : 0.0f);
    }
    // Tethers (LRA) as a projection after the solve: not an energy, as Kim et al. define them.
    if (on.tethers) {
      tethers_.update(model, state, settings.positionBased.tetherSlack);
      projectTethers(tethers_.anchor, tethers_.length, state.x);
    }
    out.residual = out.residualHistory.empty() ? 0.0f : out.residualHistory.back();
    if (on.collisions)
      out.maxViolation = std::max(out.maxViolation, maxPenetration(colliders_, p.contactThickness, state));
    if (bodyContacts) out.maxViolation = std::max(out.maxViolation, bodyContactPenetration(state));
  }

 private:
  // Chebyshev semi-iterative over-relaxation (VBD Sec. 3.8):
  //   x^(n) = omega_n (x_bar^(n) - x^(n-2)) + x^(n-2), skipping vertices in contact.
  void accelerate(State& state, int it, int iterations, float rho, float& omega) {
    omega = chebyshevOmega(it, rho, omega);
    const bool overRelax = chebyshevOverRelaxes(it, iterations);
    for (size_t i = 0; i < state.x.size(); ++i) {
      glm::vec3 x(state.x[i]);
      if (overRelax && state.x[i].w > 0.0f && !inContact_[i]) {
        x = omega * (x - chebyshevPrev2_[i]) + chebyshevPrev2_[i];
        state.x[i] = glm::vec4(x, state.x[i].w);
      }
      chebyshevPrev2_[i] = chebyshevPrev1_[i];
      chebyshevPrev1_[i] = x;
    }
  }

  VbdMaterialCache cache_;
  ColliderRecords colliders_;  // settings.colliders packed once per substep
  AttachmentLookup attachment_;
  std::vector<glm::vec3> vLast_;  // v^{t-1} for the adaptive / acceleration initial guess
  bool haveHistory_ = false;      // vLast_ holds a real v^{t-1} (false right after reset)
  std::vector<uint8_t> held_;     // per vertex: what its body's pins do (BodyPins, core/sim/held_bodies.h)
  std::vector<uint32_t> pivots_;  // per vertex of a swinging body: its pivot pin
  std::vector<uint8_t> inContact_;  // collider or body contact active: Chebyshev leaves the vertex alone
  VbdContactSnapshot snapshot_;  // partner positions of the body contacts
  std::vector<glm::vec3> chebyshevPrev1_, chebyshevPrev2_;  // x^(n-1), x^(n-2)
  TetherCache tethers_;  // rebuilt when the pinned set or the slack changes
};

}  // namespace

std::unique_ptr<Solver> makeVbdSolver() { return std::make_unique<VbdSolver>(); }

VbdStats vbdStatsOf(const Solver& solver) {
  if (const auto* s = dynamic_cast<const VbdFamilySolver*>(&solver)) return s->stats();
  return {};
}

}  // namespace tetlab
