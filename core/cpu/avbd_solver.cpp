// CPU reference Augmented Vertex Block Descent (Giles, Diaz, Yuksel 2025).
// VBD's per-vertex Newton step (vbd_terms.h) with the stiff and hard parts of
// the problem moved into augmented-Lagrangian rows (avbd_constraints.h): a
// primal-dual method, Algorithm 1 of the paper:
//
//   contacts at x^t, warm start lambda <- alpha gamma lambda, k <- max(kStart, gamma k)   (Eq. 19)
//   initial guess (VBD Sec. 3.7)
//   for iteration n:
//     for colour c: for vertex i in c:                                       (primal, Eq. 4)
//       f_i = -m_i/h^2 (x_i - y_i) - dE_elastic/dx_i - sum_rows lambda+_j dC_j/dx_i
//       H_i =  m_i/h^2 I + d2E_elastic/dx_i2 + sum_rows (k_j dC_j dC_j^T + G~_j)   (Eq. 17, Sec. 3.5)
//       x_i += H_i^-1 f_i
//     for every row: lambda, k update                                        (dual, Eq. 11, 12, 16)
//
// Stable Neo-Hookean elasticity stays an energy (as in VBD); edges, contacts,
// body-body contacts, the mouse and (optionally) pins are rows. Body contacts
// couple vertices that may share a colour, so their partners are read through
// VBD's per-colour snapshot (VbdContactSnapshot), the rule the GPU follows. Residual: as VBD (RMS of
// |f_i| h^2 / m_i at visit time, docs/solvers_vbd_avbd.md).
#include "core/cpu/avbd_solver.h"

#include "core/sim/held_bodies.h"

#include <cmath>

#include "core/cpu/avbd_constraints.h"
#include "core/cpu/constraints_setup.h"
#include "core/cpu/vbd_terms.h"
#include "core/model/body_constants.h"
#include "core/model/cloth_membrane.h"
#include "core/sim/solver_settings.h"

namespace tetlab {

namespace {

class AvbdSolver final : public VbdFamilySolver {
 public:
  SolverKind kind() const override { return SolverKind::Avbd; }

  void reset(const SimModel& model, State& state) override {
    constraints_.reset(model, state, AvbdParams{});
    const size_t n = model.vertexCount();
    vLast_.resize(n);
    haveHistory_ = false;  // the first guess assumes free fall (common/vbd_initial_guess.clh)
    snapshot_.reset(model);
    stats_ = {};
  }

  void solveSubstep(const SimModel& model, const SolverSettings& settings, float h, State& state,
                    StepDiagnostics& out) override {
    const AvbdParams& p = settings.avbd;
    const VbdParams& primal = p.primal;
    const ConstraintToggles& on = settings.step.constraints;
    const bool bending = clothBendingOn(model, on.bending);
    const bool membranes = clothMembraneOn(model, on.membrane);
    const glm::vec3 g = settings.step.gravity;
    const uint32_t n = model.vertexCount();
    if (vLast_.size() != n || snapshot_.colorOf.size() != n) reset(model, state);
    cache_.refresh(model, springChoice(on));
    constraints_.beginSubstep(model, settings, cache_, h, state);
    stats_ = {};
    const bool bodyContacts = constraints_.bodyContactsActive();
    const float yEps = primal.frictionEpsilon * h;

    // Initial guess (VBD Sec. 3.7). A hard-pinned vertex starts where it is held.
    markHeldVertices(model, state.x, held_, &pivots_);
    for (uint32_t i = 0; i < n; ++i) {
      const glm::vec3 v(state.v[i]);
      if (state.x[i].w > 0.0f)
        state.x[i] = glm::vec4(vbdInitialGuess(primal.initialGuess, h, g, glm::vec3(state.x[i]), v, vLast_[i],
                                               haveHistory_, held_[i], guessPivot(state, pivots_, i)),
                               state.x[i].w);
      vLast_[i] = v;
    }
    haveHistory_ = true;

    const int iterations = std::max(settings.step.iterations, 1);
    for (int it = 0; it < iterations; ++it) {
      double residual2 = 0.0;
      uint32_t freeCount = 0;
      for (uint32_t c = 0; c < model.vertexColors.count(); ++c) {
        if (bodyContacts) snapshot_.take(model, state, c);
        for (uint32_t k = model.vertexColors.begin(c); k < model.vertexColors.end(c); ++k) {
          const uint32_t i = model.vertexColorOrder[k];
          const float w = state.x[i].w;
          const bool pinnedHard = constraints_.hardPinned(state, i);
          if (!(w > 0.0f) && !pinnedHard) continue;  // kinematic pin
          // A hard-pinned vertex keeps its own mass and inertia; the pin rows hold it.
          const float mass = w > 0.0f ? 1.0f / w : model.mass[i];
          const glm::vec3 y =
              w > 0.0f ? glm::vec3(state.xInertial[i])
                       : clm::avbd_pinned_inertial_target(glm::vec3(state.xPrev[i]), glm::vec3(state.v[i]), h, g);
          const glm::vec3 x(state.x[i]);
          VbdVertexSystem sys;
          vbdAddInertia(mass, h, x, y, sys);
          if (on.neoHookean) vbdAddTets(model, state, cache_, i, sys);
          if (bending) vbdAddHinges(model, state, cache_, i, sys);  // an energy, as in VBD (no rows)
          if (membranes) stats_.safeguardTriggers += vbdAddMembranes(model, state, cache_, i, primal.safeguard, sys);
          // Anchor springs: an energy as in VBD (finite stiffness; AVBD Sec. 3.3 would cap its penalty at k anyway).
          stats_.safeguardTriggers += vbdAddAnchorSprings(state, i, primal.safeguard, sys);
          bool inContact = false;
          stats_.safeguardTriggers +=
              constraints_.addVertexTerms(model, settings, cache_, h, state, i, sys, inContact);
          // A hard-pinned vertex (w = 0) is held by its pin rows; body contacts see it as immovable.
          if (bodyContacts && w > 0.0f)
            vbdAddBodyContacts(state, snapshot_, c, i, constraints_.bodyContactStiffnessOverH2(), yEps, sys,
                               constraints_.bodyContactLambda(state), constraints_.bodyContactC0());
          const float r = clm::vbd_vertex_residual(sys.f, h, mass);
          residual2 += double(r) * double(r);
          ++freeCount;
          glm::vec3 dx;
          if (vbdSolveVertex(sys, primal.safeguard, primal.determinantThreshold, dx)) {
            state.x[i] = glm::vec4(x + dx, w);
          } else {
            ++stats_.skippedVertices;
            if (primal.safeguard == HessianSafeguard::DeterminantThreshold) ++stats_.safeguardTriggers;
          }
        }
      }
      constraints_.updateDuals(model, settings, cache_, state);
      out.residualHistory.push_back(freeCount ? float(std::sqrt(residual2 / double(freeCount))) : 0.0f);
    }
    // Tethers (LRA) as a projection after the solve, as VBD does.
    if (on.tethers) {
      tethers_.update(model, state, settings.positionBased.tetherSlack);
      projectTethers(tethers_.anchor, tethers_.length, state.x);
    }
    out.residual = out.residualHistory.empty() ? 0.0f : out.residualHistory.back();
    out.maxViolation = std::max(out.maxViolation, constraints_.maxHardViolation(model, settings, state));
    stats_.activeContacts = constraints_.activeContacts();
  }

 private:
  VbdMaterialCache cache_;
  void pinsMoved(std::span<const uint32_t> vertices) override { constraints_.releasePinTargets(vertices); }

  AvbdConstraints constraints_;
  std::vector<glm::vec3> vLast_;  // v^{t-1} for the adaptive initial guess
  bool haveHistory_ = false;      // vLast_ holds a real v^{t-1} (false right after reset)
  std::vector<uint8_t> held_;     // per vertex: what its body's pins do (BodyPins, core/sim/held_bodies.h)
  std::vector<uint32_t> pivots_;  // per vertex of a swinging body: its pivot pin
  VbdContactSnapshot snapshot_;   // partner positions of the body contacts
  TetherCache tethers_;           // rebuilt when the pinned set or the slack changes
};

}  // namespace

std::unique_ptr<Solver> makeAvbdSolver() { return std::make_unique<AvbdSolver>(); }

}  // namespace tetlab
