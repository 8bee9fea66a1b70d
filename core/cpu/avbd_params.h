#pragma once
// Tunable settings of Augmented Vertex Block Descent (Giles, Diaz, Yuksel 2025,
// "Augmented Vertex Block Descent", SIGGRAPH). Plain struct with documented
// defaults and units (avbd-demo2d defaultParams() style).
//
// AVBD = VBD's primal per-vertex Newton step (the `primal` member: initial
// guess, Hessian safeguard, contact thickness and stiffness of soft contacts) plus
// augmented-Lagrangian constraints, each with a dual variable lambda and a
// penalty k stored in State::lambda / State::penalty:
//
//   force      f = -lambda+ dC/dx,  lambda+ = clamp(k C + lambda, fmin, fmax)   (AVBD Eq. 9, 13)
//   Hessian    H = k dC/dx dC/dx^T + diag(|lambda+| column norms of d2C/dx2)   (AVBD Eq. 17, Sec. 3.5)
//   dual       lambda <- clamp(k C + lambda, fmin, fmax)           (AVBD Eq. 11), hard constraints only
//   penalty    hard: k <- min(k + beta |C|, kMax) while lambda is inside its bounds (Eq. 12, Sec. 3.2)
//              soft: k <- min(k + beta |C|, k*), k* = material stiffness           (Eq. 16)
//   warm start lambda <- alpha gamma lambda, k <- clamp(gamma k, kStart_row, kMax)   (Eq. 19)
//   stabilise  C(x) = C*(x) - alpha C*(x^t)                        (Eq. 18), hard constraints only
//
// A soft constraint (finite material stiffness) keeps lambda = 0 and its penalty
// is capped at the stiffness k*, so at convergence it behaves like the VBD spring
// (the ramp only keeps early iterations from being dominated by stiff forces, Sec. 3.4).
#include "core/cpu/vbd_params.h"

namespace tetlab {

struct AvbdParams {
  // Primal step settings shared with VBD. Accelerated convergence is ignored by
  // AVBD (over-relaxation interferes with the dual update).
  VbdParams primal = [] {
    VbdParams p;
    p.safeguard = HessianSafeguard::DiagonalLumpedSpd;  // AVBD Sec. 3.5
    return p;
  }();

  // --- augmented Lagrangian (AVBD Sec. 3) ---
  float alpha = 0.95f;    // stabilisation: fraction of the start-of-step error C(x^t) NOT corrected
                          // this step (Eq. 18), also scales the lambda warm start (Eq. 19) [-], in [0, 1]
  float gamma = 0.99f;    // warm-start decay of lambda and penalty between substeps (Eq. 19) [-], < 1
  // Penalty ramp: k += beta |C| per iteration (Eq. 12/16) [N/m per m of violation = N/m^2]. The paper
  // uses beta = 10 in its units; what matters is that a persistent violation raises k faster than the
  // warm start decays it (k settles near beta |C| iterations / (1 - gamma)): a heavy body on a hard
  // chain (tests/cpu/avbd_hard_constraints_test.cpp, 2 cm links) at 10 substeps x 10 iterations ends
  // with link strain 2 % at beta = 1e5, 0.15 % at 1e8, 0.04 % at 1e9. Set for metre-scale scenes.
  float beta = 1.0e9f;
  float kStart = 1.0e3f;  // initial and minimum penalty k_start (Eq. 10, 19) [N/m] ...
  float kStartInertia = 1.0f;  // ... raised per row to kStartInertia * m / h^2 [-], m = the heaviest vertex of
                               // the row: an absolute k_start is too weak for heavy vertices (the heavy end of
                               // a hard link would barely respond) and too strong for light ones; against the
                               // inertia m/h^2 the first primal step removes ~kStartInertia / (1 + kStartInertia)
                               // of a violation at that vertex, whatever the units
  float kMax = 1.0e9f;    // upper bound on every penalty [N/m]

  // --- which constraints are hard (infinite stiffness, lambda accumulates) ---
  bool hardContacts = true;     // ground/collider contacts; soft: penalty capped at primal.contactStiffness
  bool hardPins = false;        // pinned vertices (w = 0) become massive vertices held by a 3-row hard
                                // attachment to their pin target, instead of being kinematic
  bool hardAttachment = false;  // mouse attachment; soft: penalty capped at State::mouse.stiffness
  bool hardEdges = false;       // every edge spring that acts (edgeSpringsOn: a solid's with the edges toggle,
                                // a strand's, a cloth's with its membrane off) becomes an inextensible
                                // distance constraint; soft: penalty capped at the material spring stiffness
  // Coulomb friction on contacts: a 2-row tangential constraint whose force is bounded by
  // mu * (normal force) (Sec. 3.6); the coefficient mu comes from the collider.
  bool friction = true;
};

}  // namespace tetlab
