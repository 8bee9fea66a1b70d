#pragma once
// The position-based projection shared by PBD and XPBD. Both solvers visit
// the same scalar constraints in the same order and move corners along
// w_i gradC_i; they differ only in the multiplier step s of each constraint:
//
//   XPBD   s = dlambda (XPBD Eq. 18, damping Eq. 26), lambda += s   (per-constraint lambda, reset per substep)
//   PBD    s = -k C / wGrad2                   (PBD Eq. 9, k from the material: pbd_params.h)
//
// The multiplier step and every per-element projection are shared with the
// kernels (shaders/cl/common/pb_step.clh); this side keeps the loops.
// Order inside one iteration (the GPU kernels follow it, one launch per colour):
//
//   tet colours   each tet: volume | NH deviatoric, hydrostatic | strain stretch x,y,z, shear xy,xz,yz
//   edge colours  each edge: distance
//   tethers       each vertex (independent)
//   attachment    the mouse target (one constraint)
//   anchor springs each vertex, its sub-springs (core/sim/anchor_springs.h)
//   body contacts rows of State::bodyContacts: a Jacobi gather from the positions at the start of
//                 the pass (constraints_body_contacts.cpp), hard, with friction
//   contacts      each vertex against every collider, with friction (independent)
//
// Gauss-Seidel writes x at once; Jacobi (PBD only) accumulates the corrections
// of an iteration in jacobiDelta (w = count) and applies their over-relaxed
// average afterwards (Macklin et al. 2014 Sec. 4.2).
#include <cstdint>
#include <vector>

#include <glm/vec4.hpp>

#include "core/cpu/constraints_setup.h"
#include "core/cpu/strain_regions.h"
#include "core/model/sim_model.h"
#include "core/sim/collider_records.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"

namespace tetlab {

struct ProjectionContext {
  const SimModel* model = nullptr;
  const SolverSettings* settings = nullptr;
  State* state = nullptr;
  ProjectionFamilies families;
  // The kernels' parameters (pb_layout.clh): h, the mode (xpbd) and its step's
  // constants, the element families, lambda slots, iteration, evaluateOnly
  // (the final measuring sweep: constraints add their residual at the current
  // x and lambda and move nothing).
  clm::PbParams params{};
  std::vector<glm::vec4> bodies;  // packBodies
  ColliderRecords colliders;      // packColliders(settings.colliders), once per substep
  std::vector<glm::vec4>* jacobiDelta = nullptr;  // non-null: Jacobi accumulation (sum dx, count) per vertex
  // Tethers: anchor vertex and maximum length per vertex (anchor ~0u: none).
  const std::vector<uint32_t>* tetherAnchor = nullptr;
  const std::vector<float>* tetherLength = nullptr;
  // Tets with strain parameters of their own (the deformer's regions); null: PbParams::strain for all.
  const StrainRegions* strainRegions = nullptr;
  // Residual of the current iteration: sum of squared dimensionless residuals.
  double residualSq = 0.0;
  uint32_t residualCount = 0;
  int iteration = 0;  // index of the current iteration within the substep (= params.iteration)
  // Body-contact pass scratch (sized on first use, kept: no allocation in the
  // steady state): the row vector and W of each slot, t = w S of each vertex.
  std::vector<glm::vec4> bodyContactRow;
  // Collider friction of each vertex over the substep: (friction displacement
  // applied, accumulated normal correction D) [m] (collisions_contacts.cpp).
  std::vector<glm::vec4> contactFriction;
  std::vector<float> bodyContactShare;
};

// Fills the per-substep fields (params, bodies, ...) of ctx.
void prepareProjection(ProjectionContext& ctx, const SimModel& model, const SolverSettings& settings, State& state,
                       ProjectionMode mode, float h);

// Adds n residuals (clm::PbResiduals, in visiting order) to the iteration's sum.
void addResiduals(ProjectionContext& ctx, const float* r, uint32_t n);

// The CPU's loops around the shared per-element steps (shaders/cl/common/pb_step.clh,
// pb_vertex.clh, pb_body_contact.clh): gather, call, store or accumulate.
void projectTetRange(ProjectionContext& ctx, uint32_t begin, uint32_t end);   // constraints_elastic.cpp
void projectEdgeRange(ProjectionContext& ctx, uint32_t begin, uint32_t end);  // constraints_elastic.cpp
// Cloth hinges, Gauss-Seidel in both modes (after the Jacobi average in Jacobi mode).
void projectHingeRange(ProjectionContext& ctx, uint32_t begin, uint32_t end);  // constraints_elastic.cpp
void projectMembraneRange(ProjectionContext& ctx, uint32_t begin, uint32_t end);  // constraints_elastic.cpp
void projectTethers(ProjectionContext& ctx);                                  // constraints_attachments.cpp
void projectAttachment(ProjectionContext& ctx);                               // constraints_attachments.cpp
void projectAnchorSprings(ProjectionContext& ctx);                            // constraints_attachments.cpp
void projectContacts(ProjectionContext& ctx);                                 // collisions_contacts.cpp
void projectBodyContacts(ProjectionContext& ctx);                             // constraints_body_contacts.cpp
// Deepest body-contact penetration -C over the substep's rows at the current x [m] (0: none).
float bodyContactViolation(const ProjectionContext& ctx);                     // constraints_body_contacts.cpp

// Max violation of the hard constraints at the current x: penetration into
// colliders (beyond contactOffset), into other bodies (beyond the contact
// thickness) and tether over-stretch [m].
float hardConstraintViolation(const ProjectionContext& ctx);

// The whole iteration loop of one substep, shared by PBD and XPBD. Appends
// iterations + 1 residuals to outResidualHistory: for each iteration the
// running Gauss-Seidel value (each constraint's residual when it is visited,
// before its own update), then the residual after the last iteration, from a
// measuring sweep. Residual = RMS over the soft elastic constraints of the
// dimensionless C + alphaTilde lambda (XPBD) or C (PBD); edges divide by the
// rest length, the mouse attachment is not included.
void runProjectionIterations(ProjectionContext& ctx, int iterations, std::vector<float>& outResidualHistory);

}  // namespace tetlab
