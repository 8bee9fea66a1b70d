#pragma once
// The augmented-Lagrangian constraint rows of AVBD (Giles et al. 2025) and
// their bookkeeping between iterations and substeps. Each row has a dual
// variable lambda and a penalty k, stored in State::lambda / State::penalty in
// a fixed layout so a row keeps its warm-start values while it persists:
//
//   | edges: 1 row each | mouse: 3 rows | pins: 3 rows per vertex | contacts: 3K rows per vertex | body contacts |
//   0                   E               E+3                       E+3+3N                   E+3+3N+3KN    +S
//
// K = AVBD_CONTACT_ROWS (common/avbd_constraint.clh): vertex i's contact k
// owns rows contacts + 3 (K i + k) + (normal, t, b).
//
//   edge     C = |x_a - x_b| - L                 soft (k <= k_e) or hard (AvbdParams::hardEdges)
//   mouse    C = sum_j w_j x_j - target (x,y,z)  force magnitude <= maxForce, soft (k <= stiffness) or hard
//   pin      C = x_i - pin target (x,y,z)        hard, only with AvbdParams::hardPins (else pins are kinematic)
//   contact  C = [n t b]^T (x_i - x_i^t) + [phi(x^t), 0, 0]     (AVBD Eq. 15, linearised about x^t, Sec. 4),
//            one per collider within the margin at x^t, the K deepest
//            normal lambda <= 0 (push only), friction |lambda_tb| <= mu |lambda_n| (Sec. 3.3)
//   body     one row per body-contact slot (S = SimModel::surfaceVertices), the contact
//            C = n . (x_p - sum w_k x_k) - thickness of core/sim/body_contacts.h; lambda >= 0 is
//            the push [N] (vbd_contact.clh), the penalty is the inertia-scaled kappa m_c / h^2
//            of VBD's body contacts and is not stored (its penalty entry stays unused); friction
//            is VBD's lagged friction with lambda+ as the normal force. Warm-started while the
//            slot keeps the same (p, a, b, c)
//
// Hard rows are stabilised, C = C* - alpha C*(x^t) (Eq. 18), and warm started
// (Eq. 19); soft rows keep lambda = 0 and ramp k up to their stiffness (Eq. 16).
//
// The row code (warm start, tangent basis, primal terms, dual updates) is
// shaders/cl/common/avbd_assembly.clh, shared with the GPU kernels; this class
// keeps the CPU's loops, its collider selection and the per-substep data, in
// the device's layouts (the pins' float4 pairs, the AvbdContactFrame array).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "core/cpu/avbd_params.h"
#include "core/cpu/vbd_terms.h"  // compat_cpp.h, common/vbd_assembly.clh
#include "shaders/cl/common/avbd_assembly.clh"
#include "core/model/sim_model.h"
#include "core/sim/collider_records.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"

namespace tetlab {

struct AvbdLayout {
  uint32_t edges = 0, mouse = 0, pins = 0, contacts = 0, bodyContacts = 0, size = 0;  // first rows; row count
  uint32_t contactsPerVertex = 0;  // K: contact rows (each normal, t, b) per vertex
  static AvbdLayout make(const SimModel& model);
};

// The constants of one substep as both backends' row code reads them
// (AvbdStepParams, shaders/cl/common/vbd_layout.clh). Term bits set here:
// NEO_HOOKEAN, EDGES, COLLISIONS, FRICTION, BODY_CONTACTS (the toggle); the
// caller adds MOUSE and RESIDUAL and the per-colour fields.
clm::AvbdStepParams avbdStepParams(const SimModel& model, const SolverSettings& settings, const AvbdLayout& layout,
                                   float h);

class AvbdConstraints {
 public:
  // Eq. 10: lambda = 0, k = kStart for every row.
  void reset(const SimModel& model, State& state, const AvbdParams& params);

  // Forget the hard pin targets of these vertices: the next substep holds them
  // where they are then (avbd_begin_pin takes a fresh target at x^t).
  void releasePinTargets(std::span<const uint32_t> vertices) {
    for (uint32_t i : vertices)
      if (2 * size_t(i) < pins_.size()) pins_[2 * size_t(i)].w = 0.0f;
  }

  // Start of a substep: contacts at x^t, stabilisation offsets C*(x^t), pin
  // targets, and the warm start of every row (Eq. 19).
  void beginSubstep(const SimModel& model, const SolverSettings& settings, const VbdMaterialCache& cache,
                    float h, State& state);

  // Adds the force -lambda+ dC/dx_i and Hessian (Eq. 9, 13, 14, 17) of every row
  // touching vertex i. Returns safeguard triggers; sets outInContact.
  uint32_t addVertexTerms(const SimModel& model, const SolverSettings& settings, const VbdMaterialCache& cache,
                          float h, const State& state, uint32_t i, VbdVertexSystem& sys, bool& outInContact) const;

  // Dual variables and penalties after a primal iteration (Eq. 11, 12, 16).
  void updateDuals(const SimModel& model, const SolverSettings& settings, const VbdMaterialCache& cache,
                   State& state) const;

  // Body contacts of this substep (State::bodyContacts, the toggle on and
  // something detected); their rows are read through the colour snapshot.
  bool bodyContactsActive() const { return bodyContactsActive_; }
  const float* bodyContactLambda(const State& state) const { return state.lambda.data() + layout_.bodyContacts; }
  const float* bodyContactC0() const { return bodyC0_.data(); }
  float bodyContactStiffnessOverH2() const { return params_.bodyStiffnessOverH2; }  // kappa / h^2 of this substep

  // Largest |C*| over the hard rows at the current x [m] (contacts: penetration).
  float maxHardViolation(const SimModel& model, const SolverSettings& settings, const State& state) const;

  // Vertex i is simulated as a massive vertex held by hard pin rows (valid after beginSubstep).
  bool hardPinned(const State& state, uint32_t i) const {
    return clm::avbd_hard_pinned(&params_, state.x[i], pins_[2 * size_t(i)]) != 0;
  }
  // Vertices with at least one contact row this substep.
  uint32_t activeContacts() const;

 private:
  void beginContacts(const SimModel& model, const SolverSettings& settings, float h, State& state, uint32_t i);

  AvbdLayout layout_;
  AttachmentLookup attachment_;
  clm::AvbdStepParams params_{};      // this substep's constants (avbdStepParams)
  clm::VbdMouse mouse_{};             // stiffness, maxForce, active, same (ids unused: no vertex limit here)
  std::vector<float> edgeC0_;          // C*(x^t) of each edge [m]
  // Per vertex [2 i]: where it is held when pinned [m], w = 1 while known; [2 i + 1]: C*(x^t) of the pin rows [m].
  std::vector<glm::vec4> pins_;
  ColliderRecords colliders_;          // settings.colliders packed at the start of each substep
  std::vector<clm::AvbdContactFrame> contacts_;  // K per vertex, entry K i + k (collider -1: none)
  std::vector<glm::uvec4> bodyIds_;    // per body-contact slot: (p, a, b, c) of the last substep
  std::vector<float> bodyC0_;          // per slot: stabilisation offset c0 [m]
  bool bodyContactsActive_ = false;
  glm::vec3 mouseC0_{0.0f};
  std::vector<uint32_t> mouseVertices_;  // to notice a new drag (fresh multipliers)
  bool mouseActive_ = false;
};

}  // namespace tetlab
