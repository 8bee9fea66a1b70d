#pragma once
// The position-based projection shared by PBD and XPBD. Both solvers visit
// the same scalar constraints in the same order and move corners along
// w_i gradC_i; they differ only in the multiplier step s of each constraint:
//
//   XPBD   s = dlambda (XPBD Eq. 18, damping Eq. 26), lambda += s   (per-constraint lambda, reset per substep)
//   PBD    s = -k C / wGrad2                   (PBD Eq. 9, k from the material: pbd_params.h)
//
// Order inside one iteration (the GPU kernels follow it, one launch per colour):
//
//   tet colours   each tet: volume | NH deviatoric, hydrostatic | strain stretch x,y,z, shear xy,xz,yz
//   edge colours  each edge: distance
//   tethers       each vertex (independent)
//   attachment    the mouse target (one constraint)
//   body contacts rows of State::bodyContacts: a Jacobi gather from the positions at the start of
//                 the pass (constraints_body_contacts.cpp), hard, with friction
//   contacts      each vertex against every collider, with friction (independent)
//
// Gauss-Seidel writes x at once; Jacobi (PBD only) accumulates the corrections
// of an iteration in jacobiDelta (w = count) and applies their over-relaxed
// average afterwards (Macklin et al. 2014 Sec. 4.2).
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"

namespace tetlab {

enum class ProjectionMode : uint8_t { Xpbd, Pbd };

// Which families are projected. For PBD the neoHookean toggle selects the
// zero-rest tet set of the same material (strain-based stretch/shear + volume):
// the Neo-Hookean pair C_D = |F|, C_H = det F - gamma is at rest only as a
// balance of compliant forces, which a stiffness-fraction projection does not
// preserve (docs/solvers.md).
struct ProjectionFamilies {
  bool tetVolume = false;
  bool neoHookean = false;
  bool strainBased = false;
  bool edges = false;
  bool tethers = false;
  bool collisions = false;
  bool bodyContacts = false;
};
ProjectionFamilies projectionFamilies(ProjectionMode mode, const ConstraintToggles& toggles);

// Where each family keeps its multipliers in State::lambda (XPBD).
struct LambdaLayout {
  uint32_t edges = 0, tetVolume = 0, nhDeviatoric = 0, nhHydrostatic = 0, strain = 0, attachment = 0, size = 0;
};
LambdaLayout lambdaLayout(const SimModel& model);

// Per-body constants refreshed every substep (UI edits apply at the next substep).
struct BodyConstants {
  float youngs = 0.0f;      // E [Pa]
  float mu = 0.0f;          // Lame mu [Pa]
  float bulk = 0.0f;        // K = lambda + 2 mu / 3 [Pa]
  float nhMu = 0.0f;        // Neo-Hookean mu, lambda (neoHookeanFromMaterial) [Pa]
  float nhLambda = 0.0f;
  float damping = 0.0f;     // Rayleigh k_d [s]
};

struct ProjectionContext {
  const SimModel* model = nullptr;
  const SolverSettings* settings = nullptr;
  State* state = nullptr;
  ProjectionMode mode = ProjectionMode::Xpbd;
  ProjectionFamilies families;
  LambdaLayout layout;
  std::vector<BodyConstants> bodies;
  float h = 0.0f;                // substep [s]
  float complianceScale = 1.0f;  // XPBD
  bool damping = false;          // XPBD Eq. 26 from Material::damping
  float pbdExponent = 1.0f;      // PBD: k = 1 - (1 - k_ref)^pbdExponent
  float pbdRate2 = 0.0f;         // PBD: r^2 of k_ref(r) in the stiffness mapping [1/s^2]
  std::vector<glm::vec4>* jacobiDelta = nullptr;  // non-null: Jacobi accumulation
  // Tethers: anchor vertex and maximum length per vertex (anchor ~0u: none).
  const std::vector<uint32_t>* tetherAnchor = nullptr;
  const std::vector<float>* tetherLength = nullptr;
  // Residual of the current iteration: sum of squared dimensionless residuals.
  double residualSq = 0.0;
  uint32_t residualCount = 0;
  // True during the final measuring sweep: constraints add their residual at
  // the current x and lambda and move nothing.
  bool evaluateOnly = false;
  int iteration = 0;  // index of the current iteration within the substep
  // Body-contact pass scratch (sized on first use, kept: no allocation in the
  // steady state): the row vector and W of each slot, t = w S of each vertex.
  std::vector<glm::vec4> bodyContactRow;
  // Collider friction of each vertex over the substep: (friction displacement
  // applied, accumulated normal correction D) [m] (collisions_contacts.cpp).
  std::vector<glm::vec4> contactFriction;
  std::vector<float> bodyContactShare;
};

// Fills the per-substep fields (bodies, exponent, ...) of ctx.
void prepareProjection(ProjectionContext& ctx, const SimModel& model, const SolverSettings& settings, State& state,
                       ProjectionMode mode, float h);

// One scalar constraint with n corners: C, gradients, compliance alpha
// (before complianceScale) and its lambda slot. `scale` divides C for the
// residual (rest length for edges, 1 otherwise). Moves the corners.
// lambdaCap > 0 bounds |lambda| (XPBD) or |s| (PBD) by it: a force cap of
// lambdaCap / h^2 [N] (the mouse attachment). detDmInv != 0 (tets) bounds
// each corner move by the tet's rest size (pb_bound_step, xpbd_update.clh).
void projectScalar(ProjectionContext& ctx, uint32_t n, const uint32_t* ids, const glm::vec3* grads, float C,
                   float alpha, float* lambda, float gammaD, float scale, float lambdaCap = 0.0f,
                   float detDmInv = 0.0f);

// XPBD only: two translation-invariant constraints (corner gradients sum to
// zero) on the same n <= 8 corners solved jointly (xpbd_delta_lambda2); falls back to projectScalar one after the other when
// the pair is singular (e.g. zero compliance with parallel gradients).
void projectPairXpbd(ProjectionContext& ctx, uint32_t n, const uint32_t* ids, const glm::vec3* grads0,
                     const glm::vec3* grads1, float C0, float C1, float alpha0, float alpha1, float* lambda0,
                     float* lambda1, float gammaD);

void projectTetRange(ProjectionContext& ctx, uint32_t begin, uint32_t end);   // constraints_elastic.cpp
void projectEdgeRange(ProjectionContext& ctx, uint32_t begin, uint32_t end);  // constraints_elastic.cpp
void projectTethers(ProjectionContext& ctx);                                  // constraints_attachments.cpp
void projectAttachment(ProjectionContext& ctx);                               // constraints_attachments.cpp
void projectContacts(ProjectionContext& ctx);                                 // collisions_contacts.cpp
void projectBodyContacts(ProjectionContext& ctx);                             // constraints_body_contacts.cpp
// Deepest body-contact penetration -C over the substep's rows at the current x [m] (0: none).
float bodyContactViolation(const ProjectionContext& ctx);                     // constraints_body_contacts.cpp

// Max violation of the hard constraints at the current x: penetration into
// colliders (beyond contactOffset), into other bodies (beyond the contact
// thickness) and tether over-stretch [m].
float hardConstraintViolation(const ProjectionContext& ctx);

// Tethers are rebuilt only when the set of pinned vertices (or the slack)
// changes, so pinning in the UI re-targets them at the next substep.
struct TetherCache {
  uint64_t signature = ~0ull;
  std::vector<uint32_t> anchor;
  std::vector<float> length;
  void update(const SimModel& model, const State& state, float slack);
};

// Tether anchors: each unpinned vertex tethered to its nearest pinned vertex
// (rest distance) with max length (1 + slack) * rest distance. Empty if no pins.
void buildTethers(const SimModel& model, const State& state, float slack, std::vector<uint32_t>& outAnchor,
                  std::vector<float>& outLength);

// The whole iteration loop of one substep, shared by PBD and XPBD. Appends
// iterations + 1 residuals to outResidualHistory: for each iteration the
// running Gauss-Seidel value (each constraint's residual when it is visited,
// before its own update), then the residual after the last iteration, from a
// measuring sweep. Residual = RMS over the soft elastic constraints of the
// dimensionless C + alphaTilde lambda (XPBD) or C (PBD); edges divide by the
// rest length, the mouse attachment is not included.
void runProjectionIterations(ProjectionContext& ctx, int iterations, std::vector<float>& outResidualHistory);

}  // namespace tetlab
