#pragma once
// The quasi-static deformer (issue 15 item 2): an animated mesh in, the same
// animation with its tets' strains and volume put back toward the rest
// shape's out. Artists run it after skinning to undo collapsing volumes and
// candy-wrapper twists. No dynamics: no velocity carried between frames, no
// gravity unless asked.
//
//   rest OBJ --TetGen, surface kept (-Y)--> tets; every surface vertex is a tet vertex
//   frame t:  animated surface a --> targets: surface a_i, interior r_i + sum_j w_ij (a_j - r_j)
//                                    (w: inverse-square distance to the 8 nearest surface
//                                    vertices at rest, so interior points ride along)
//             start x = targets (or the previous frame's solution); held vertices x_i = a_i, fixed
//             passes of `iterationsPerPass` solver iterations on
//                 min_x  E_elastic(x) + sum_i (k_a m_i / 2) |x_i - a_i|^2     (k_a: attraction)
//             until residual / (the frame's first residual) < tolerance, the moves left (estimated
//             from the passes' shrinking moves) are under tolerance x a mean edge, it stalls, or maxIterations
//             --> solved surface = x at the surface's tet vertices
//
// The minimisation is one implicit-Euler substep of the CPU reference solver
// with h = 1/sqrt(k_a), zero velocity and the targets as its inertial target
// (VBD Eq. 2: m/(2h^2) |x - y|^2 is exactly the attraction). With no
// attraction, h is long enough that the inertia term is a thousandth of the
// elements' stiffness: a proximal term that keeps the per-vertex Newton steps
// well posed and leaves the elastic equilibrium. The passes continue one
// substep (Solver::continueSubstep), so XPBD keeps its multipliers.
//
// The elastic model is each solver's own: VBD and AVBD the stable
// Neo-Hookean energy (volume stiffness through the Poisson ratio); PBD and
// XPBD the strain-based constraints of Mueller et al. 2014 with stiffness per
// material axis (stretch x/y/z, shear xy/xz/yz as multiples of 2 mu and mu, the
// axes turned to a direction the user sets, each stretching toward its own
// rest-length scale) plus the
// tet volume constraint (Lame lambda; all scales 1: the material tensor). XPBD's pull toward the targets lives in
// its multipliers from where the frame's iterations start: with `start =
// Previous` it pulls toward the previous solution, not the animation.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/cpu/strain_regions.h"
#include "core/mesh/tet_mesh.h"
#include "core/model/material.h"
#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/solver.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"

namespace tetlab {

enum class DeformStart : uint8_t { Animated, Previous };  // where each frame's iterations start
// Which animated (surface) vertices are held hard: none, all, those in a
// rest-space box, or those painted (DeformSettings::painted).
enum class DeformHold : uint8_t { None, All, Box, Painted };

// A box of the rest shape whose tets (those whose rest centroid lies inside)
// take strain parameters of their own, PBD/XPBD: a stiffer bone, a softer
// belly, fibres turned another way. Where regions overlap the later one wins.
struct DeformRegion {
  std::string name;
  bool enabled = true;
  glm::vec3 min{0.0f}, max{0.0f};             // rest space [m]
  glm::vec3 stretchScale{1.0f};               // per material axis, times 2 mu (0: off)
  glm::vec3 shearScale{1.0f};                 // xy, xz, yz, times mu (0: off)
  glm::vec3 restScale{1.0f};                  // the stretch each material axis relaxes to [-]
  glm::vec3 materialAxis{1.0f, 0.0f, 0.0f};   // the region's material x axis in the rest shape
  float volumeScale = 1.0f;                   // tet volume stiffness, times Lame lambda (0: off)
};

struct DeformSettings {
  SolverKind solver = SolverKind::Vbd;
  Material material;                     // E [Pa], nu [-], rho [kg/m^3] (masses weight the attraction)
  int maxIterations = 300;               // per frame [-]
  int iterationsPerPass = 10;            // solver iterations between residual checks [-]
  float tolerance = 1.0e-3f;             // stop when the residual falls below this fraction of the frame's first [-]
  DeformStart start = DeformStart::Animated;
  DeformHold hold = DeformHold::None;
  glm::vec3 holdMin{0.0f}, holdMax{0.0f};  // Box: held animated vertices, by REST position [m]
  std::vector<uint8_t> painted;            // Painted: 1 per held vertex of the rest mesh, in its order
  float attraction = 0.0f;               // k_a: pull of every free vertex toward its target, per unit mass [1/s^2]
  glm::vec3 gravity{0.0f};               // [m/s^2]
  // PBD/XPBD: strain-based stiffness per rest axis as multiples of 2 mu (stretch
  // x, y, z) and mu (shear xy, xz, yz), 0 = that constraint off; and the tet
  // volume constraint.
  glm::vec3 stretchScale{1.0f};
  glm::vec3 shearScale{1.0f};
  glm::vec3 restScale{1.0f};                     // stretch target per material axis (1: the rest length)
  glm::vec3 materialAxis{1.0f, 0.0f, 0.0f};      // the material x axis in the rest shape (fibres, grain)
  bool volume = true;
  std::vector<DeformRegion> regions;             // PBD/XPBD: tets with parameters of their own
};

struct DeformFrameReport {
  int iterations = 0;           // solver iterations run this frame
  float firstResidual = 0.0f;   // the solver's residual at the frame's first iteration (its own units)
  float residual = 0.0f;        // at the last iteration, relative to firstResidual [-]
  bool converged = false;       // residual <= tolerance, or convergedByMotion (or the frame is the rest pose)
  bool convergedByMotion = false;  // the passes' shrinking moves leave less than tolerance x a mean edge to go
  float remainingMove = -1.0f;  // that estimate at the last pass [m] (-1: the moves did not shrink)
  bool stalled = false;         // stopped early: the residual fell less than 1 % over the last kStallPasses passes
  double animatedVolume = 0.0;  // volume enclosed by the animated surface [m^3]
  double solvedVolume = 0.0;    // by the solved surface [m^3]
  double restVolume = 0.0;      // by the rest surface [m^3]
  bool finite = true;           // false: the solve produced NaN/inf (the frame's start is kept)
  std::string problem;          // when !finite
  std::vector<uint32_t> regionTets;  // tets in each of DeformSettings::regions (PBD/XPBD, enabled ones)
  uint32_t heldVertices = 0;         // animated vertices held hard this frame
  double volumeError(double v) const { return restVolume > 0.0 ? (v - restVolume) / restVolume : 0.0; }
};

// A frame stops early when its best residual has not fallen by 1 % over
// this many passes: it sits at the float noise floor (a frame close to its
// rest pose starts there) or the solver has stopped making progress.
inline constexpr int kStallPasses = 3;

class Deformer {
 public:
  // Tetrahedralizes `rest` with TetGen keeping its surface (targetTets sets
  // the interior's size); errors when TetGen cannot keep every surface vertex.
  static Result<Deformer> create(const SurfaceMesh& rest, const Material& material, int targetTets = 5000);

  // One frame: `animated` has the rest mesh's vertices in order. Settings may
  // change between frames (the solver, the stiffness, the hold).
  DeformFrameReport solveFrame(std::span<const glm::vec3> animated, const DeformSettings& settings);
  // Forget the previous solution (the next frame starts from its animation).
  void reset() { havePrevious_ = false; }

  const SurfaceMesh& restSurface() const { return rest_; }
  const std::vector<glm::vec3>& solvedSurface() const { return solvedSurface_; }
  const std::vector<glm::vec3>& targets() const { return targets_; }  // per tet vertex, last frame
  const std::vector<glm::vec4>& positions() const { return state_.x; }  // per tet vertex (w = inverse mass)
  const std::vector<uint32_t>& surfaceVertex() const { return surfaceVertex_; }  // surface vertex -> model vertex
  const SimModel& model() const { return *model_; }
  size_t tetCount() const { return model_->tets.size(); }

 private:
  Deformer() = default;
  void fillTargets(std::span<const glm::vec3> animated);
  SolverSettings solverSettings(const DeformSettings& s, float h) const;
  // The regions' per-tet strain sets (none without regions or for VBD/AVBD).
  void assignRegions(const DeformSettings& s, DeformFrameReport& report);

  SurfaceMesh rest_;
  std::unique_ptr<SimModel> model_;  // stable address: the solver may keep pointers into it
  std::vector<uint32_t> surfaceVertex_;  // surface vertex i is model vertex surfaceVertex_[i]
  std::vector<uint8_t> isSurface_;       // per model vertex
  // Interior vertices' ride-along weights: kNeighbours surface vertices each.
  std::vector<uint32_t> interior_;
  std::vector<uint32_t> neighbour_;
  std::vector<float> neighbourWeight_;
  float relaxStep_ = 1.0f;  // h with no attraction [s]
  float meanEdge_ = 1.0f;   // mean rest edge length [m] (the geometric convergence test)
  State state_;
  std::unique_ptr<Solver> solver_;
  StrainRegions regions_;  // the solver keeps a pointer to it
  std::vector<glm::vec3> targets_;
  std::vector<glm::vec3> solvedSurface_;
  std::vector<glm::vec4> previous_;
  bool havePrevious_ = false;
};

// Volume enclosed by a closed, outward-oriented triangle surface [m^3]
// (divergence theorem: sum of p0 . (p1 x p2) / 6).
double enclosedVolume(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles);

}  // namespace tetlab
