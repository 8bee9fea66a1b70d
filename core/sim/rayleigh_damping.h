#pragma once
// Rayleigh material damping D = k_d K (Material::damping = k_d), one pass for
// all four solvers: after the substeps of a frame the velocities take one
// backward-Euler step of the damping force alone,
//
//   (M + dt D) v' = M v,
//
// solved by preconditioned conjugate gradients (the algebra, the element
// terms and why: shaders/cl/common/rayleigh_damping.clh; the device twin:
// shaders/cl/rayleigh_damping.cl, gpu/rayleigh_damping_gpu.h). It touches
// velocities only, so the static answer of a damped run is the undamped one,
// and it is the same operator whichever solver produced v: a mode of angular
// frequency omega gets zeta = k_d omega / 2 on PBD, XPBD, VBD and AVBD.
#include <cstdint>
#include <vector>

#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/sim/step_settings.h"

namespace tetlab {

struct State;

// How the pass went (for diagnostics and tests).
struct RayleighDampingReport {
  bool applied = false;          // false: no body has k_d > 0 (v untouched)
  int iterations = 0;            // CG iterations run
  float relativeResidual = 0.0f; // sqrt(r.z / r0.z) at exit (M^-1 norm of the residual)
};

// Scratch of the pass (State::dampingScratch): sized on first use, reused after.
struct RayleighDampingScratch {
  std::vector<glm::vec4> bodies;  // per body (mu, lambda, k_d, bending) (packNeoHookeanBodies): the device's layout
  std::vector<glm::vec4> dmInv;   // 3 columns per tet (w = 0)
  std::vector<float> edgeStiffness;
  MaterialsStamp stamp;     // which model and materials bodies / dmInv / edgeStiffness were packed from
  SpringChoice edgeSprings;  // the spring toggles edgeStiffness was packed with
  bool anyDamped = false;   // some body has k_d > 0
  std::vector<glm::vec4> dv, r, p, q;
  std::vector<glm::vec4> corner;  // 4 per tet: its share of D d at each corner
  std::vector<float> terms;       // per vertex: the current dot product's term
};

// Whether a pass that ran `iterations` CG iterations and stopped at
// `residual` fell short: at its cap with the residual above
// kRayleighShortFactor x its tolerance. Measured on the beam preset (E = 1e8,
// k_d = 2 ms): at a residual of ~4e-3 (100 iterations) the first bending mode
// gets its full k_d omega / 2, at ~1e-2 (40 iterations) 60 % of it.
inline constexpr float kRayleighShortFactor = 10.0f;
inline bool rayleighPassFellShort(int iterations, float residual, const RayleighDampingSettings& settings) {
  return iterations > 0 && iterations >= settings.maxIterations &&
         residual > kRayleighShortFactor * settings.tolerance;
}

// out = (k K) d at state.x, where K is the material's stiffness (the tets'
// Neo-Hookean stress differential, springs and membranes; not hinges) and k
// each body's bodies[].z: k_d for the damping pass, 1 for the step error's
// Newton solve (core/sim/step_error.h). Rows of every vertex are written.
void applyElementStiffness(const SimModel& model, const std::vector<glm::vec4>& bodies,
                           const std::vector<glm::vec4>& dmInv, const std::vector<float>& edgeStiffness, bool springs,
                           bool membranes, const State& state, const std::vector<glm::vec4>& d,
                           std::vector<glm::vec4>& corner, std::vector<glm::vec4>& out);

// Applies the pass to state.v (frame length dt). Springs take part where they
// act (a cloth's always, a solid's when edgeSprings, the "edges" toggle, is on).
RayleighDampingReport applyRayleighDamping(const SimModel& model, const RayleighDampingSettings& settings,
                                           SpringChoice edgeSprings, float dt, State& state);

}  // namespace tetlab
