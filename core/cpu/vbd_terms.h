#pragma once
// Per-vertex building blocks shared by the VBD and AVBD CPU reference solvers.
//
// Both solvers visit one vertex i at a time (in vertex-colour order) and solve
// its 3x3 Newton system  H_i dx = f_i  (VBD Sec. 3.2; AVBD Eq. 4-6). The
// assembly (inertia, stable Neo-Hookean tets with Rayleigh damping, mass
// springs, the mouse attachment, body contacts, the residual, the guarded
// solve) is shaders/cl/common/vbd_assembly.clh, the same functions the GPU
// kernels call; the wrappers here only hand it this backend's data (the
// SimModel / State vectors, in the device's layouts where they differ: see
// VbdMaterialCache).
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/vbd_assembly.clh"

#include "core/cpu/vbd_params.h"
#include "core/cpu/vbd_solver.h"
#include "core/model/material.h"
#include "core/model/sim_model.h"
#include "core/model/spring_choice.h"
#include "core/sim/state.h"

namespace tetlab {

// The parameter structs are laid out alike by both compilers (layout.clh rule);
// tests/gpu/vbd_layout_probe_test.cpp checks the device's sizes against these.
static_assert(sizeof(clm::VbdMouse) == 112);
static_assert(sizeof(clm::VbdStepParams) == 160);
static_assert(sizeof(clm::VbdGroupParams) == 336);
static_assert(sizeof(clm::AvbdStepParams) == 224);
static_assert(sizeof(clm::AvbdGroupParams) == 384);
static_assert(sizeof(clm::AvbdContactFrame) == 48);

// Per-substep inputs of the shared assembly in the layouts the device uses,
// refreshed every substep so UI edits take effect at the next substep (the
// model itself never changes while stepping). gpu/solvers/vbd_family_gpu.cpp uploads
// `bodies` and `edgeStiffness` from this cache, so both backends use
// bit-identical constants.
struct VbdMaterialCache {
  std::vector<glm::vec4> bodies;      // per body: (mu, lambda (bodyElasticPair), Rayleigh k_d [s] (unused by VBD/AVBD), bending)
  std::vector<float> edgeStiffness;   // mass-spring k_e per edge [N/m]
  // SimModel::DmInv as the device's DeviceState::DmInv holds it: 3 float4 per
  // tet, the columns (w = 0). SimModel keeps glm::mat3 for its other readers.
  std::vector<glm::vec4> dmInv;
  MaterialsStamp stamp;  // which model and materials the above were packed from
  SpringChoice springs;  // the toggles edgeStiffness was packed with (body_constants.h)
  bool current(const SimModel& model, SpringChoice now) const {
    return stamp.current(model.materials) && springs == now;
  }
  // Re-packs only when the model, its materials or the spring toggles changed since the last call.
  void refresh(const SimModel& model, SpringChoice now);
};

// H_i dx = f_i of one vertex, starting at zero.
struct VbdVertexSystem : clm::VbdSystem {
  VbdVertexSystem() : clm::VbdSystem(clm::vbd_system_zero()) {}
};

// Where the per-vertex sweep reads positions: x (current iterate), xPrev (x^t).
inline glm::vec3 positionOf(const State& state, uint32_t i) { return glm::vec3(state.x[i]); }

// Start of the iterations for one vertex (VBD Sec. 3.7); vLast = v^{t-1},
// unused when !haveHistory (right after a reset: the guess assumes free fall,
// see shaders/cl/common/vbd_initial_guess.clh); pins: what the vertex's body
// pins do (BodyPins, core/sim/held_bodies.h), pivot its pivot pin's position
// when swinging: under adaptive a held body starts from inertia, a swinging one
// with the tangential part of g about the pivot.
glm::vec3 vbdInitialGuess(VbdInitialGuess mode, float h, glm::vec3 gravity, glm::vec3 x, glm::vec3 v,
                          glm::vec3 vLast, bool haveHistory, uint8_t pins, glm::vec3 pivot);

// The pivot position vbdInitialGuess takes for vertex i (pivots from markHeldVertices).
inline glm::vec3 guessPivot(const State& state, const std::vector<uint32_t>& pivots, uint32_t i) {
  return i < pivots.size() && pivots[i] < state.x.size() ? glm::vec3(state.x[pivots[i]]) : glm::vec3(0.0f);
}

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
inline void vbdAddInertia(float mass, float h, glm::vec3 x, glm::vec3 y, VbdVertexSystem& sys) {
  clm::vbd_add_inertia(mass, h, x, y, &sys);
}

// Stable Neo-Hookean tets around vertex i (vbd_add_tets). Material damping is
// not here: it is the Rayleigh pass after the frame (core/sim/rayleigh_damping.h).
void vbdAddTets(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                VbdVertexSystem& sys);

// Mass springs on the edges around vertex i (material stiffness from
// VbdMaterialCache), each element block safeguarded (vbd_add_springs).
// Returns how many blocks the safeguard changed.
// Cloth bending hinges around vertex i (cloth_bending.clh); D from cache.bodies[b].w.
void vbdAddHinges(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                  VbdVertexSystem& sys);
uint32_t vbdAddSprings(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                       HessianSafeguard safeguard, VbdVertexSystem& sys);
// Anchor springs on vertex i (core/sim/anchor_springs.h; vbd_add_anchor_springs),
// each block safeguarded. Returns how many blocks the safeguard changed.
uint32_t vbdAddAnchorSprings(const State& state, uint32_t i, HessianSafeguard safeguard, VbdVertexSystem& sys);
// Cloth membranes around vertex i (vbd_add_membranes; (mu_h, lambda_h) from
// cache.bodies), each block safeguarded. Returns how many blocks the safeguard changed.
uint32_t vbdAddMembranes(const SimModel& model, const State& state, const VbdMaterialCache& cache, uint32_t i,
                         HessianSafeguard safeguard, VbdVertexSystem& sys);

// Body-body contacts (State::bodyContacts): partners are read through the
// rule of vbd_add_body_contacts (common/vbd_assembly.clh), a vertex of the
// colour being solved from this snapshot, taken at the start of the colour.
struct VbdContactSnapshot {
  std::vector<uint32_t> colorOf;  // per vertex: its vertex colour
  std::vector<glm::vec4> x;       // per vertex: x at the start of its colour's latest solve
  void reset(const SimModel& model);
  // Copies x of colour c's vertices (before solving colour c).
  void take(const SimModel& model, const State& state, uint32_t c);
};

// vbd_add_body_contacts for vertex i while colour c is solved; AVBD passes its
// per-slot multipliers and offsets (lambda, c0), VBD none. True when one is active.
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

// The guarded solve (vbd_solve_system). Returns false (dx = 0) when skipped.
inline bool vbdSolveVertex(const VbdVertexSystem& sys, HessianSafeguard safeguard, float determinantThreshold,
                           glm::vec3& outDx) {
  return clm::vbd_solve_system(sys, int(safeguard), determinantThreshold, &outDx) != 0;
}

// Stats bookkeeping shared by the VBD and AVBD solver classes (vbdStatsOf()).
class VbdFamilySolver : public Solver {
 public:
  const VbdStats& stats() const { return stats_; }

 protected:
  VbdStats stats_;
};

}  // namespace tetlab
