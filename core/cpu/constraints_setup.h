#pragma once
// What both backends of PBD/XPBD compute on the host before a substep: the
// shared layout's parameters (shaders/cl/common/pb_layout.clh: PbParams, the
// PB_* family bits, PbAttachment), the lambda slots of each family, the body
// constants in their device layout, and the tethers. The CPU reference
// (constraints_projection.h) and the OpenCL script (gpu/solvers/position_based_gpu.cpp)
// both fill their parameters here, so they cannot drift.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"
#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/pb_layout.clh"

namespace tetlab {

// The kernels take these by value: the layout rule of layout.clh (4-byte
// scalars, padded to 16 bytes), checked on the device by tests/gpu/pb_layout_probe_test.cpp.
static_assert(sizeof(clm::PbParams) == 160, "PbParams: update pb_layout.clh's padding and the device probe");
static_assert(sizeof(clm::PbAttachment) == 96, "PbAttachment: update pb_layout.clh's padding and the device probe");
static_assert(sizeof(clm::PbGroupParams) == 384, "PbGroupParams: update pb_layout.clh's padding and the device probe");

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
  bool hinges = false;  // cloth bending (clothBendingOn, body_constants.h)
  bool membranes = false;  // cloth membranes (clothMembraneOn, cloth_membrane.h)
  bool tethers = false;
  bool collisions = false;
  bool bodyContacts = false;
};
// edges: any edge spring acts (the solids' toggle or a cloth's membrane, body_constants.h).
ProjectionFamilies projectionFamilies(ProjectionMode mode, const ConstraintToggles& toggles, const SimModel& model);
// The PB_* bits of the element families (PbParams::families).
uint32_t pbFamilyBits(const ProjectionFamilies& f);

// Where each family keeps its multipliers in State::lambda (XPBD; PBD caches
// its stiffness fractions there).
struct LambdaLayout {
  uint32_t edges = 0, tetVolume = 0, nhDeviatoric = 0, nhHydrostatic = 0, strain = 0, hinges = 0, membranes = 0,
           attachment = 0, size = 0;
};
LambdaLayout lambdaLayout(const SimModel& model);

// Body constants refreshed every substep (UI edits apply at the next substep),
// PB_BODY_FLOAT4S float4 per body as pb_body_load (pb_step.clh) reads them;
// edgeSprings: the spring toggles (edgeSpringModulus, body_constants.h).
void packBodies(const SimModel& model, SpringChoice edgeSprings, std::vector<glm::vec4>& out);

// The parameters of one substep of length h, iteration 0.
clm::PbParams makePbParams(const SimModel& model, const SolverSettings& settings, ProjectionMode mode, float h);

// The mouse attachment in the kernels' layout; false when it does not act
// (inactive, no vertex, more than PB_ATTACHMENT_MAX, no stiffness).
bool packAttachment(const Attachment& mouse, clm::PbAttachment& out);

// Tether anchors: each unpinned vertex tethered to its nearest pinned vertex
// (rest distance) with max length (1 + slack) * rest distance. Empty if no pins.
void buildTethers(const SimModel& model, const State& state, float slack, std::vector<uint32_t>& outAnchor,
                  std::vector<float>& outLength);

// Tethers are rebuilt only when the set of pinned vertices (or the slack)
// changes, so pinning in the UI re-targets them at the next substep.
struct TetherCache {
  uint64_t signature = ~0ull;
  std::vector<uint32_t> anchor;
  std::vector<float> length;
  void update(const SimModel& model, const State& state, float slack);
};

// Every vertex's tether projection (tether_project, shaders/cl/common/tether.clh),
// once (nothing when the arrays do not cover x): PBD/XPBD per iteration, VBD
// and AVBD after a substep's solve.
void projectTethers(std::span<const uint32_t> anchor, std::span<const float> length, std::vector<glm::vec4>& x);

}  // namespace tetlab
