#pragma once
// Anchor springs: a patch of a body hung from a fixed point in the world (a
// hook, a ceiling) by a spring that may break (issue 15 item 4).
//
//   anchor a (world) ──── spring k, rest length L ────  patch of vertices around
//                                                        the body point `attach`
//
// One spring is spread over its patch so the load does not tear one vertex
// out of the mesh: the n patch vertices each carry a sub-spring of stiffness
// k / n from their own anchor a + (p_i - c) (c the patch centroid at rest), so
// at rest every sub-spring is parallel to the spring and the patch hangs as
// one. Each sub-spring touches ONE vertex, so it is a per-vertex term like the
// inertia: VBD/AVBD add its energy k/2 (|x_i - a_i| - L)^2 to the vertex's
// Newton system (vbd_spring_gradient_hessian), PBD/XPBD project it as a
// compliant distance constraint per vertex (common/anchor_springs.clh), and
// no colouring changes.
//
// Breaking: after every frame the spring's force on its anchor,
// F = |sum_i k_i (l_i - L) n_i|, and its strain mean(l_i) / L - 1 are
// compared with its limits; a spring past one is broken (its sub-springs'
// stiffness set to 0 for every later frame) and the frame and time are kept.
// So a spring breaks in the frame whose end state first exceeds the limit,
// and a reset (a fresh state) brings it back.
//
// Layout (kernel side SoA; a spring's sub-springs are one contiguous range):
//   vertex[j], anchor[j] = (a_j, L), stiffness[j] = k / n (0 once broken), lambda[j] (XPBD)
//   vertexSprings: CSR vertex -> sub-springs j (what a vertex gathers)
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/result.h"

namespace tetlab {

// One spring as the user describes it (scene files: a body's "springs").
struct AnchorSpringSpec {
  std::string name;                 // shown in the UI; default "spring N"
  glm::vec3 attach{0.0f};           // point on the body, in the pin regions' coordinates (after the transform) [m]
  float radius = 0.0f;              // body vertices within this distance of attach share the spring; 0: the nearest one [m]
  glm::vec3 anchor{0.0f, 1.0f, 0.0f};  // fixed world point [m]
  float stiffness = 1000.0f;        // whole spring [N/m], > 0
  float restLength = -1.0f;         // [m]; < 0: |anchor - attach| at rest (the spring starts unstretched)
  float breakForce = 0.0f;          // breaks once its force exceeds this [N]; 0: never
  float breakStrain = 0.0f;         // breaks once its stretch (l - L) / L exceeds this [-]; 0: never
  // Set by the scene build, not in files: a compliant pin region's spring
  // (PinRegion::stiffness) holds exactly these vertices at their rest places
  // (anchor = their centroid, rest length 0), and names its region.
  std::vector<uint32_t> vertices;
  int32_t pinRegion = -1;
};

// A spring as built, with its state.
struct AnchorSpring {
  std::string name;
  uint32_t body = 0;
  uint32_t first = 0, count = 0;    // its sub-springs [first, first + count)
  glm::vec3 anchor{0.0f};           // [m]
  glm::vec3 attach{0.0f};           // patch centroid at rest [m]
  float stiffness = 0.0f;           // [N/m]
  float restLength = 0.0f;          // [m]
  float breakForce = 0.0f;          // [N] (0: never)
  float breakStrain = 0.0f;         // [-] (0: never)
  int32_t pinRegion = -1;           // a compliant pin region's spring: BodySpec::pins index (-1: a "springs" entry)
  bool slack = false;               // let go by its region's schedule (release_at, toggle_at): no force, not broken
  bool broken = false;
  int64_t brokenFrame = -1;         // the frame (counted from the state's start) it broke in
  double brokenTime = 0.0;          // simulated time at the end of that frame [s]
  bool breakable() const { return breakForce > 0.0f || breakStrain > 0.0f; }
};

struct AnchorSprings {
  std::vector<AnchorSpring> springs;
  // per sub-spring (kernel layout)
  std::vector<uint32_t> vertex;
  std::vector<glm::vec4> anchor;    // xyz the sub-spring's anchor [m], w the rest length [m]
  std::vector<float> stiffness;     // [N/m]; 0 once its spring broke
  std::vector<float> lambda;        // XPBD multipliers (reset every substep; no meaning between substeps)
  Csr vertexSprings;                // per vertex: its sub-springs
  int64_t frames = 0;               // frames stepped since the state was made (the break check counts them)
  uint64_t revision = 0;            // bumped whenever stiffness changes (a break): device copies re-upload

  bool empty() const { return vertex.empty(); }
  uint32_t subCount() const { return uint32_t(vertex.size()); }
  uint32_t brokenCount() const;
  bool anyBreakable() const;
};

// Builds the springs of every body (specs[b] for body b; vertices [begin[b], end[b])).
// Errors name the body and spring: a patch with no vertex, a stiffness or
// limit out of range.
struct BodySprings {
  std::string bodyName;
  uint32_t body = 0;
  uint32_t vertexBegin = 0, vertexEnd = 0;
  std::vector<AnchorSpringSpec> specs;
};
Result<AnchorSprings> buildAnchorSprings(const SimModel& model, const std::vector<BodySprings>& bodies);

// What the functions below read: subX[j] = x[vertex[j]], the positions of the
// sub-springs' vertices (what the device gathers for the break check).
void gatherSpringPositions(const AnchorSprings& springs, const std::vector<glm::vec4>& x, std::vector<glm::vec4>& outSubX);

// The force spring s pulls its anchor with (= minus the force on the body) [N].
glm::vec3 anchorSpringForce(const AnchorSprings& springs, uint32_t s, const std::vector<glm::vec4>& subX);
// Mean stretch (l - L) / L of spring s's sub-springs (0 when L = 0).
float anchorSpringStrain(const AnchorSprings& springs, uint32_t s, const std::vector<glm::vec4>& subX);
// sum over live sub-springs of k/2 (l - L)^2 [J].
double anchorSpringEnergy(const AnchorSprings& springs, const std::vector<glm::vec4>& subX);

// The end-of-frame check: counts the frame, then breaks every live spring past
// its force or strain limit at subX (end of that frame, simulated time `time`).
// Returns how many broke.
uint32_t breakOverloadedSprings(AnchorSprings& springs, const std::vector<glm::vec4>& subX, double time);

// Spring s's sub-spring stiffness from its state: k / n while it holds, 0 when broken or slack.
void refreshSpringStiffness(AnchorSprings& springs, uint32_t s);
// Moves spring s's sub-springs' anchors to `anchors` (one per patch vertex, in
// patch order; rest length kept): a compliant keyed region following its keys.
void moveSpringAnchors(AnchorSprings& springs, uint32_t s, std::span<const glm::vec3> anchors);

}  // namespace tetlab
