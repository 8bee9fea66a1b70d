#pragma once
// Tunable settings of the Vertex Block Descent solver (Chen, Macklin, Yuksel
// et al. 2024, "Vertex Block Descent", SIGGRAPH). Plain struct with documented
// defaults and units (avbd-demo2d defaultParams() style): the UI and the scene
// files read and write it, every edit takes effect at the next substep.
//
// The material (Young's modulus, Poisson ratio, density, damping) is NOT here:
// it comes from SimModel::materials so all four solvers share one material.
#include <cstdint>

namespace tetlab {

// Where each substep's iterations start (VBD Sec. 3.7 "Initialization").
enum class VbdInitialGuess : uint8_t {
  PreviousPosition,     // x = x^t
  Inertia,              // x = x^t + h v^t
  InertiaAcceleration,  // x = y = x^t + h v^t + h^2 g (the inertial target, full external acceleration)
  Adaptive,             // x = x^t + h v^t + h^2 a~, a~ = g * clamp((a^t . g_hat) / |g|, 0, 1) with the previous
                        // substep's acceleration a^t = (v^t - v^{t-1}) / h: a body resting on the ground
                        // (a^t . g_hat ~ 0) starts where it is, a falling one (a^t = g) starts at y. A body
                        // fixed by its pins starts from inertia, one on a pin or a hinge from the part of g
                        // its nearest pin leaves (core/sim/held_bodies.h, common/vbd_initial_guess.clh)
};

// How a per-vertex (or per-element) Hessian that is not safely positive
// definite is handled before the 3x3 Newton solve (VBD Sec. 3.2 / AVBD Sec. 3.5).
enum class HessianSafeguard : uint8_t {
  None,                  // solve whatever H is (may explode on indefinite Hessians; for comparison);
                         // like every mode it only skips a vertex whose solve is singular or non-finite
  DeterminantThreshold,  // skip the vertex when |det H_i| < determinantThreshold * (||H_i||_F / sqrt(3))^3
  EigenClampPsd,         // project each element's 3x3 vertex block onto PSD (symmetric eigen clamp)
  DiagonalLumpedSpd,     // AVBD Sec. 3.5 / Eq. 17: keep the PSD Gauss-Newton part k dC dC^T, replace the
                         // possibly indefinite geometric part G by diag(column norms of G) (always SPD)
};

struct VbdParams {
  // --- initialisation (VBD Sec. 3.7) ---
  VbdInitialGuess initialGuess = VbdInitialGuess::Adaptive;

  // --- accelerated convergence (VBD Sec. 3.8, Chebyshev semi-iterative method of Wang 2015) ---
  bool accelerate = false;    // over-relax each iteration with the Chebyshev weight omega_n
  float chebyshevRho = 0.9f;  // estimated spectral radius rho in (0, 1) [-]; larger = more aggressive

  // --- Hessian safeguard ---
  HessianSafeguard safeguard = HessianSafeguard::EigenClampPsd;
  // Relative threshold of DeterminantThreshold: skip the vertex when |det H_i| < determinantThreshold * s^3
  // with s = ||H_i||_F / sqrt(3), the RMS eigenvalue magnitude (scale-free) [-].
  float determinantThreshold = 1.0e-6f;

  // --- contact (VBD Sec. 3.5: quadratic penalty energy with IPC-style lagged friction) ---
  float contactStiffness = 1.0e6f;   // k_c: E_c = 1/2 k_c d^2 for penetration depth d [N/m]
  float contactThickness = 0.0f;     // collision radius around each vertex [m]
  // eps_v: tangential speed below which friction is static-like [m/s]. Rule: it is the creep budget. Under a
  // load F_t <= mu N the smoothed profile balances at the speed eps_v (1 - sqrt(1 - F_t / (mu N))) <= eps_v,
  // so a "sticking" block creeps at up to eps_v (1 cm/s crept 7.5 mm in 2 s on a 20 deg slope at mu 0.6);
  // 1e-4 m/s keeps creep under 0.2 mm in 2 s at any load below Coulomb's. The lagged tangential stiffness
  // 2 mu N / (eps_v h) grows as eps_v shrinks; it is PSD and solved implicitly, so it stays stable.
  float frictionEpsilon = 1.0e-4f;
  // Body-body contacts (State::bodyContacts) use the same penalty and friction with a stiffness scaled by
  // the contact's inertia, k = kappa m_c / h^2 (m_c = 1 / sum coeff^2 / m: its effective mass), so one
  // Gauss-Seidel pass balances the two bodies; why in shaders/cl/common/vbd_contact.clh.
  float bodyContactStiffness = 2.0f;  // kappa [-]: penetration under a load F is F h^2 / (kappa m_c)

  // Mass-spring energy (ConstraintToggles::edges): the edge stiffness is NOT a parameter, it is
  // derived from the material, k_e = 6 E V_e / L_e^2 (edgeSpringStiffness in core/model/material.h),
  // so the springs, XPBD's edge compliance and the energy diagnostics agree.

  // --- mouse attachment ---
  // The attachment is a compliant spring (State::mouse.stiffness [N/m]); its force is capped at
  // State::mouse.maxForce [N] (energy becomes linear beyond the cap), so no parameter is needed here.
};

// Fewest iterations per substep at which acceleration (the over-relaxation
// and the free-body initial guess it takes for held bodies) runs; below it a
// substep is plain VBD. Chebyshev starts from a guess farther from the answer
// and pays that back only over enough iterations. Measured on the beam preset
// (rho 0.95, VBD 10 x N, RMS distance to VBD 10 x 400 over 120 frames,
// accelerated / plain): 6.0 / 2.9 cm at 4 iterations, 3.4 / 2.8 at 6,
// 2.6 / 2.7 at 8, 1.1 / 2.9 at 12, 0.21 / 2.6 at 20.
constexpr int kChebyshevMinIterations = 8;
inline bool chebyshevActive(bool accelerate, int iterations) {
  return accelerate && iterations >= kChebyshevMinIterations;
}

}  // namespace tetlab
