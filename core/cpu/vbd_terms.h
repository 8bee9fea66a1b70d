#pragma once
// Per-vertex building blocks shared by the VBD and AVBD CPU reference solvers.
//
// Both solvers visit one vertex i at a time (in vertex-colour order) and solve
// its 3x3 Newton system  H_i dx = f_i  (VBD Sec. 3.2; AVBD Eq. 4-6):
//
//   f_i = -m_i/h^2 (x_i - y_i) - sum_e dE_e/dx_i - (k_d/h) sum_e sum_{j in e} H_e,ij (x_j - x_j^t)
//   H_i =  m_i/h^2 I           + sum_e H_e,ii   + (k_d/h) sum_e H_e,ii
//
// This file assembles the terms that do not depend on the solver: inertia,
// stable Neo-Hookean tets, mass springs, Rayleigh damping, the mouse attachment
// spring, and the guarded 3x3 solve. The element math itself lives in
// shaders/cl/common/*.clh and is shared with the GPU kernels.
//
// Damping: the paper writes the damping force with the vertex's own block,
// -(k_d/h) H_e,ii (x_i - x_i^t). That block does not vanish for a rigid
// translation, so it drags a falling body to a terminal velocity (measured:
// 0.13 m/s for k_d = 0.002 s on a 0.2 m cube) and breaks momentum conservation.
// We apply the element's full Hessian row to the element's displacement (exact
// Rayleigh damping D = k_d K), which sums to zero over a translation; the Newton
// Hessian keeps only the vertex's own block (k_d/h) H_e,ii as the paper does.
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/vbd_sym3.clh"

#include "core/cpu/vbd_params.h"
#include "core/cpu/vbd_solver.h"
#include "core/model/material.h"
#include "core/model/sim_model.h"
#include "core/sim/state.h"

namespace tetlab {

// Material constants for one substep, refreshed every substep so UI edits take
// effect at the next substep (the model itself never changes while stepping).
struct VbdMaterialCache {
  std::vector<NeoHookeanParameters> bodyNeoHookean;  // per body [Pa]
  std::vector<float> bodyDamping;                    // Rayleigh k_d per body [s]
  std::vector<float> edgeStiffness;                  // mass-spring k_e per edge [N/m]
  void refresh(const SimModel& model);
};

struct VbdVertexSystem {
  glm::vec3 f{0.0f};                        // force = -dG_i/dx_i [N]
  clm::Sym3 H = clm::sym3_zero();           // Hessian d2G_i/dx_i2 [N/m]
};

// Where the per-vertex sweep reads positions: x (current iterate), xPrev (x^t).
inline glm::vec3 positionOf(const State& state, uint32_t i) { return glm::vec3(state.x[i]); }

// Start of the iterations for one vertex (VBD Sec. 3.7); vLast = v^{t-1},
// unused when !haveHistory (right after a reset: the guess assumes free fall,
// see shaders/cl/common/vbd_initial_guess.clh).
glm::vec3 vbdInitialGuess(VbdInitialGuess mode, float h, glm::vec3 gravity, glm::vec3 x, glm::vec3 v,
                          glm::vec3 vLast, bool haveHistory);

// Chebyshev weight omega_n of iteration n = 1, 2, ... (VBD Sec. 3.8):
// omega_1 = 1, omega_2 = 2 / (2 - rho^2), omega_n = 4 / (4 - rho^2 omega_{n-1}).
float chebyshevOmega(int n, float rho, float previousOmega);

// Whether iteration n of `iterations` is over-relaxed: from the second on, but
// never the last. An over-relaxed iterate is an extrapolation, not a solve;
// ending a substep on one hands the velocity update an overshoot that grows
// from substep to substep (VBD at 20 substeps x 2 iterations, rho 0.9: the
// squash scene's energy reached 1e31 J within 20 frames).
bool chebyshevOverRelaxes(int n, int iterations);

// Inertia term m/h^2 (x - y) (VBD Sec. 3.1-3.2).
void vbdAddInertia(float mass, float h, glm::vec3 x, glm::vec3 y, VbdVertexSystem& sys);

// Stable Neo-Hookean tets around vertex i plus their Rayleigh damping. The
// per-vertex NH block is PSD by construction (neo_hookean_derivatives.clh), so
// no safeguard applies to it.
void vbdAddTets(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i, float h,
                VbdVertexSystem& sys);

// Mass springs on the edges around vertex i (material stiffness from
// VbdMaterialCache) plus their damping, each element block safeguarded.
// Returns how many blocks the safeguard changed.
uint32_t vbdAddSprings(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                       float h, HessianSafeguard safeguard, VbdVertexSystem& sys);

// Body-body contacts (State::bodyContacts; VBD's penalty, and AVBD's hard rows
// with a multiplier per slot on top of the same penalty). A contact couples vertices of different bodies, which may
// share a vertex colour. The GPU solves a colour in parallel, so a work-item
// reading a same-colour partner would race with the partner's update. Both
// backends therefore read contact partners through this rule: a vertex of the
// colour being solved is read as it was at the START of that colour (a
// snapshot), any other vertex at its latest value (it is not written during
// the colour, so that is Gauss-Seidel as for the elastic terms). Within a
// colour, contacts are thus Jacobi, as the VBD paper processes colliding
// vertices in parallel; vbd_add_body_contact sizes its curvature for that.
struct VbdContactSnapshot {
  std::vector<uint32_t> colorOf;  // per vertex: its vertex colour
  std::vector<glm::vec4> x;       // per vertex: x at the start of its colour's latest solve
  void reset(const SimModel& model);
  // Copies x of colour c's vertices (before solving colour c).
  void take(const SimModel& model, const State& state, uint32_t c);
  glm::vec4 partner(const State& state, uint32_t j, uint32_t c) const { return colorOf[j] == c ? x[j] : state.x[j]; }
};

// Adds the penalty contact + lagged friction of every body contact listed for
// vertex i (vertexItems / vertexCount) while colour c is solved;
// stiffnessOverH2 = kappa / h^2 [1/s^2], yEps = eps_v h [m].
// AVBD passes its per-slot multipliers and stabilisation offsets (lambda [N],
// c0 [m], indexed by slot); VBD passes none (the plain penalty).
// Returns true when one of them is active.
bool vbdAddBodyContacts(const State& state, const VbdContactSnapshot& snapshot, uint32_t c, uint32_t i,
                        float stiffnessOverH2, float yEps, VbdVertexSystem& sys, const float* lambda = nullptr,
                        const float* c0 = nullptr);

// Deepest body-contact penetration max(0, -C) at the current positions [m].
float bodyContactPenetration(const State& state);

// Per-vertex lookup into State::mouse (weight index or -1), rebuilt per substep.
struct AttachmentLookup {
  std::vector<int32_t> slotOfVertex;
  void rebuild(const Attachment& attachment, uint32_t vertexCount);
  int32_t slot(uint32_t i) const { return slotOfVertex.empty() ? -1 : slotOfVertex[i]; }
};

// Offset r = sum_j w_j x_j - target of the attachment at the current iterate [m].
glm::vec3 attachmentOffset(const Attachment& attachment, const State& state);

// Solves H dx = f with the safeguard's last step: DeterminantThreshold skips the
// vertex when |det H| is small relative to H's own scale; every mode skips a
// singular or non-finite solve. Returns false (dx = 0) when skipped.
bool vbdSolveVertex(const VbdVertexSystem& sys, HessianSafeguard safeguard, float determinantThreshold,
                    glm::vec3& outDx);

// Stats bookkeeping shared by the VBD and AVBD solver classes (vbdStatsOf()).
class VbdFamilySolver : public Solver {
 public:
  const VbdStats& stats() const { return stats_; }

 protected:
  VbdStats stats_;
};

}  // namespace tetlab
