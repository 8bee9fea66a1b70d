// Finite-difference and algebraic checks of the VBD/AVBD element math in
// shaders/cl/common/*.clh (compiled as C++ through compat_cpp.h).
//
// The reference energies are re-evaluated here in DOUBLE precision (test-only
// path) from the formulas the .clh files document, and tied to the float
// nh_energy_density of neo_hookean.clh; central differences in double then have
// errors ~1e-9 relative, so the 1e-3 relative tolerance only has to absorb the
// float round-off of the analytic derivatives (~1e-6).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/avbd_constraint.clh"
#include "shaders/cl/common/neo_hookean_derivatives.clh"
#include "shaders/cl/common/rayleigh_damping.clh"
#include "shaders/cl/common/vbd_contact.clh"
#include "shaders/cl/common/vbd_spring.clh"

#include "core/cpu/vbd_terms.h"

namespace tetlab {
namespace {

using clm::Sym3;

glm::dmat3 toDmat(const Sym3& s) {
  return glm::dmat3(s.d.x, s.o.x, s.o.y, s.o.x, s.d.y, s.o.z, s.o.y, s.o.z, s.d.z);
}

double maxAbs(const glm::dmat3& m) {
  double r = 0.0;
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k) r = std::max(r, std::fabs(m[c][k]));
  return r;
}

// ---- double-precision reference energies ----

struct Tet {
  glm::dvec3 x[4];
  glm::dmat3 DmInv;
  double volume;
};

Tet makeTet(std::mt19937& rng, double deformation) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Tet t;
  // A well-shaped rest tet of ~0.1 m, then a random deformation of the given size.
  const glm::dvec3 rest[4] = {{0, 0, 0}, {0.1, 0.01, 0.0}, {0.02, 0.1, 0.01}, {0.01, 0.02, 0.1}};
  const glm::dmat3 Dm(rest[1] - rest[0], rest[2] - rest[0], rest[3] - rest[0]);
  t.DmInv = glm::inverse(Dm);
  t.volume = glm::determinant(Dm) / 6.0;
  glm::dmat3 A(1.0);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) A[c][r] += deformation * u(rng);
  const glm::dvec3 shift(u(rng), u(rng), u(rng));
  for (int k = 0; k < 4; ++k) t.x[k] = A * rest[k] + shift;
  return t;
}

double nhEnergyDouble(const Tet& t, double mu, double lambda) {
  const glm::dmat3 F = glm::dmat3(t.x[1] - t.x[0], t.x[2] - t.x[0], t.x[3] - t.x[0]) * t.DmInv;
  double Ic = 0.0;
  for (int c = 0; c < 3; ++c) Ic += glm::dot(F[c], F[c]);
  const double gamma = 1.0 + mu / lambda;
  const double dJ = glm::determinant(F) - gamma;
  return t.volume * (0.5 * mu * (Ic - 3.0) + 0.5 * lambda * dJ * dJ - 0.5 * mu * mu / lambda);
}

glm::mat3 toFloat(const glm::dmat3& m) { return glm::mat3(m); }

clm::Mat3 toClm(const glm::mat3& m) { return clm::mat3_cols(m[0], m[1], m[2]); }

// Central differences of a scalar function of one 3-vector: gradient and Hessian.
template <class Fn>
void finiteDifferences(Fn energy, glm::dvec3 x, double step, glm::dvec3& outGradient, glm::dmat3& outHessian) {
  for (int a = 0; a < 3; ++a) {
    glm::dvec3 e(0.0);
    e[a] = step;
    outGradient[a] = (energy(x + e) - energy(x - e)) / (2.0 * step);
    for (int b = 0; b < 3; ++b) {
      glm::dvec3 f(0.0);
      f[b] = step;
      outHessian[b][a] =
          (energy(x + e + f) - energy(x + e - f) - energy(x - e + f) + energy(x - e - f)) / (4.0 * step * step);
    }
  }
}

// Material like E = 1e6 Pa, nu = 0.45 (stiff volume term: the hard case).
constexpr double kMu = 1.0e6 / (2.0 * 1.45);
constexpr double kLambdaLame = 1.0e6 * 0.45 / (1.45 * 0.1);
constexpr double kLambdaNh = kLambdaLame + kMu;

TEST(VbdMath, NeoHookeanDoubleReferenceMatchesShaderEnergy) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Tet t = makeTet(rng, 0.3);
    const glm::mat3 F = toFloat(glm::dmat3(t.x[1] - t.x[0], t.x[2] - t.x[0], t.x[3] - t.x[0]) * t.DmInv);
    const double shader = double(clm::nh_energy_density(toClm(F), float(kMu), float(kLambdaNh))) * t.volume;
    const double reference = nhEnergyDouble(t, kMu, kLambdaNh);
    // float evaluation: relative 1e-5 of the energy's own scale mu V (absolute terms ~mu V cancel).
    EXPECT_NEAR(shader, reference, 1.0e-5 * kMu * t.volume) << "trial " << trial;
  }
}

TEST(VbdMath, NeoHookeanVertexGradientAndHessianMatchFiniteDifferences) {
  std::mt19937 rng(11);
  int checked = 0;
  for (int trial = 0; trial < 25; ++trial) {
    // Mild, large and inverting deformations (0.8 flips some tets).
    const double deformation = trial < 10 ? 0.1 : (trial < 20 ? 0.4 : 0.8);
    Tet t = makeTet(rng, deformation);
    for (int corner = 0; corner < 4; ++corner) {
      glm::vec3 xf[4];
      for (int k = 0; k < 4; ++k) xf[k] = glm::vec3(t.x[k]);
      const clm::Mat3 DmInv = toClm(toFloat(t.DmInv));
      const clm::Mat3 F = clm::tet_deformation_gradient(xf[0], xf[1], xf[2], xf[3], DmInv);
      glm::vec3 grad;
      Sym3 H;
      clm::nh_vertex_gradient_hessian(F, clm::nh_corner_weights(DmInv, corner), float(kMu), float(kLambdaNh),
                                      float(t.volume), &grad, &H);
      auto energy = [&](glm::dvec3 p) {
        Tet moved = t;
        moved.x[corner] = p;
        return nhEnergyDouble(moved, kMu, kLambdaNh);
      };
      glm::dvec3 gFd;
      glm::dmat3 hFd;
      finiteDifferences(energy, t.x[corner], 1.0e-5, gFd, hFd);
      const double gScale = std::max(glm::length(gFd), kMu * t.volume / 0.1 * 1e-3);
      EXPECT_LT(glm::length(glm::dvec3(grad) - gFd), 1.0e-3 * gScale) << "trial " << trial << " corner " << corner;
      const double hScale = maxAbs(hFd);
      EXPECT_LT(maxAbs(toDmat(H) - hFd), 1.0e-3 * hScale) << "trial " << trial << " corner " << corner;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 100);
}

// Rayleigh damping applies the element's full Hessian row to the element's
// displacement: sum_j d2E/dx_i dx_j delta_j, checked against mixed central
// differences of the double energy, and zero for a rigid translation.
TEST(VbdMath, NeoHookeanHessianRowTimesElementDisplacementMatchesFiniteDifferences) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    const Tet t = makeTet(rng, trial < 10 ? 0.1 : 0.5);
    glm::dvec3 delta[4];
    for (auto& d : delta) d = 0.01 * glm::dvec3(u(rng), u(rng), u(rng));
    const clm::Mat3 DmInv = toClm(toFloat(t.DmInv));
    glm::vec3 xf[4], df[4];
    for (int k = 0; k < 4; ++k) {
      xf[k] = glm::vec3(t.x[k]);
      df[k] = glm::vec3(delta[k]);
    }
    // The damping pass's element term (rd_tet_apply, k_d = 1) is row `corner`
    // of the full element Hessian applied to the tet's displacement.
    const glm::vec4 body(float(kMu), float(kLambdaNh), 1.0f, 0.0f);
    glm::vec3 rows[4];
    clm::rd_tet_apply(body, float(t.volume), DmInv, xf[0], xf[1], xf[2], xf[3], df[0], df[1], df[2], df[3], rows);
    for (int corner = 0; corner < 4; ++corner) {
      const glm::vec3 applied = rows[corner];
      auto energyAt = [&](double eps, int axis, double eta) {
        Tet moved = t;
        for (int k = 0; k < 4; ++k) moved.x[k] += eps * delta[k];
        moved.x[corner][axis] += eta;
        return nhEnergyDouble(moved, kMu, kLambdaNh);
      };
      const double e = 1e-4, n = 1e-6;
      glm::dvec3 fd;
      for (int a = 0; a < 3; ++a)
        fd[a] = (energyAt(e, a, n) - energyAt(e, a, -n) - energyAt(-e, a, n) + energyAt(-e, a, -n)) / (4.0 * e * n);
      EXPECT_LT(glm::length(glm::dvec3(applied) - fd), 1e-3 * std::max(glm::length(fd), 1e-3 * kMu * t.volume))
          << "trial " << trial << " corner " << corner;
    }
    // A rigid translation of the whole tet: dF = 0, no damping force.
    const glm::vec3 shift(0.01f, -0.02f, 0.005f);
    glm::vec3 still[4];
    clm::rd_tet_apply(body, float(t.volume), DmInv, xf[0], xf[1], xf[2], xf[3], shift, shift, shift, shift, still);
    for (int corner = 0; corner < 4; ++corner) EXPECT_LT(glm::length(still[corner]), 1e-6 * kMu * t.volume);
  }
}

// The per-vertex NH block is PSD for every F (the d2J/dF2 term cancels on the
// diagonal block): min eigenvalue >= 0 up to float round-off, inverted tets included.
TEST(VbdMath, NeoHookeanVertexBlockIsAlwaysPsd) {
  std::mt19937 rng(3);
  int inverted = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Tet t = makeTet(rng, 1.5);
    const clm::Mat3 DmInv = toClm(toFloat(t.DmInv));
    const clm::Mat3 F = clm::tet_deformation_gradient(glm::vec3(t.x[0]), glm::vec3(t.x[1]), glm::vec3(t.x[2]),
                                                      glm::vec3(t.x[3]), DmInv);
    if (clm::mat3_det(F) < 0.0f) ++inverted;
    for (int corner = 0; corner < 4; ++corner) {
      glm::vec3 grad;
      Sym3 H;
      clm::nh_vertex_gradient_hessian(F, clm::nh_corner_weights(DmInv, corner), float(kMu), float(kLambdaNh),
                                      float(t.volume), &grad, &H);
      glm::vec3 w;
      clm::Mat3 V;
      clm::sym3_eigen(H, &w, &V);
      EXPECT_GE(std::min({w.x, w.y, w.z}), -1.0e-6f * clm::sym3_frobenius(H));
    }
  }
  EXPECT_GT(inverted, 10) << "the sample should contain inverted tets";
}

double springEnergy(glm::dvec3 xa, glm::dvec3 xb, double k, double L) {
  const double s = glm::length(xa - xb) - L;
  return 0.5 * k * s * s;
}

TEST(VbdMath, SpringGradientAndHessianMatchFiniteDifferences) {
  const double k = 2.0e4, L = 0.1;
  const glm::dvec3 xb(0.3, -0.2, 0.1);
  const glm::dvec3 dir = glm::normalize(glm::dvec3(0.3, 0.5, -0.8));
  for (double length : {0.05, 0.09, 0.1, 0.13, 0.3}) {  // compressed, rest, stretched
    const glm::dvec3 xa = xb + dir * length;
    glm::vec3 grad;
    Sym3 H;
    int triggered = 0;
    clm::vbd_spring_gradient_hessian(glm::vec3(xa - xb), float(k), float(L), VBD_SAFEGUARD_NONE, &grad, &H,
                                     &triggered);
    glm::dvec3 gFd;
    glm::dmat3 hFd;
    finiteDifferences([&](glm::dvec3 p) { return springEnergy(p, xb, k, L); }, xa, 1.0e-6, gFd, hFd);
    EXPECT_LT(glm::length(glm::dvec3(grad) - gFd), 1.0e-3 * std::max(glm::length(gFd), k * L * 1e-3)) << length;
    EXPECT_LT(maxAbs(toDmat(H) - hFd), 1.0e-3 * maxAbs(hFd)) << length;
    EXPECT_EQ(triggered, 0);
  }
}

TEST(VbdMath, SpringSafeguardsGivePsdBlocksAndOnlyTriggerUnderCompression) {
  const float k = 2.0e4f, L = 0.1f;
  const glm::vec3 n = glm::normalize(glm::vec3(0.3f, 0.5f, -0.8f));
  for (float length : {0.05f, 0.13f}) {
    const bool compressed = length < L;
    for (int mode : {VBD_SAFEGUARD_EIGEN_CLAMP, VBD_SAFEGUARD_DIAGONAL_LUMPED}) {
      glm::vec3 grad;
      Sym3 H, exact;
      int triggered = 0, none = 0;
      clm::vbd_spring_gradient_hessian(n * length, k, L, mode, &grad, &H, &triggered);
      clm::vbd_spring_gradient_hessian(n * length, k, L, VBD_SAFEGUARD_NONE, &grad, &exact, &none);
      EXPECT_EQ(triggered, compressed ? 1 : 0) << "mode " << mode << " length " << length;
      glm::vec3 w;
      clm::Mat3 V;
      clm::sym3_eigen(H, &w, &V);
      EXPECT_GE(std::min({w.x, w.y, w.z}), -1.0e-6f * clm::sym3_frobenius(H));
      if (mode == VBD_SAFEGUARD_DIAGONAL_LUMPED) {
        // Gauss-Newton part k n n^T plus a non-negative diagonal: n^T H n >= k (SPD along the spring).
        EXPECT_GE(glm::dot(n, clm::sym3_mul_vec(H, n)), k * (1.0f - 1e-5f));
      }
      if (mode == VBD_SAFEGUARD_EIGEN_CLAMP && !compressed)
        EXPECT_LT(maxAbs(toDmat(H) - toDmat(exact)), 1.0e-6 * k);  // already PSD: unchanged
      if (mode == VBD_SAFEGUARD_EIGEN_CLAMP && compressed) {
        // Exact eigenvalues k (along n) and k (1 - L/l) < 0 (twice): the clamp keeps only k n n^T.
        const glm::dmat3 expected = glm::outerProduct(glm::dvec3(n), glm::dvec3(n)) * double(k);
        EXPECT_LT(maxAbs(toDmat(H) - expected), 1.0e-5 * k);
      }
    }
  }
}

TEST(VbdMath, PsdProjectionClampsOnlyNegativeEigenvalues) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int trial = 0; trial < 100; ++trial) {
    // Random rotation (orthonormalised) and eigenvalues spanning 6 decades, some negative.
    const glm::vec3 a = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
    const glm::vec3 b = glm::normalize(glm::cross(a, glm::vec3(u(rng), u(rng), u(rng))));
    const glm::vec3 c = glm::cross(a, b);
    const float scale = std::pow(10.0f, 3.0f * u(rng));
    const glm::vec3 lambda(scale * u(rng), scale * u(rng), scale * (trial % 2 ? u(rng) : std::fabs(u(rng))));
    Sym3 S = clm::sym3_add(clm::sym3_add(clm::sym3_outer(a, lambda.x), clm::sym3_outer(b, lambda.y)),
                           clm::sym3_outer(c, lambda.z));
    int clamped = 0;
    const Sym3 P = clm::sym3_project_psd(S, &clamped);
    const bool psd = lambda.x >= 0.0f && lambda.y >= 0.0f && lambda.z >= 0.0f;
    const float tol = 1.0e-5f * scale;
    const Sym3 expected =
        clm::sym3_add(clm::sym3_add(clm::sym3_outer(a, std::max(lambda.x, 0.0f)), clm::sym3_outer(b, std::max(lambda.y, 0.0f))),
                      clm::sym3_outer(c, std::max(lambda.z, 0.0f)));
    EXPECT_LT(maxAbs(toDmat(P) - toDmat(expected)), tol) << "trial " << trial;
    if (psd) {
      // Already PSD: returned bit-for-bit.
      EXPECT_EQ(clamped, 0);
      EXPECT_EQ(P.d, S.d);
      EXPECT_EQ(P.o, S.o);
    }
    glm::vec3 w;
    clm::Mat3 V;
    clm::sym3_eigen(P, &w, &V);
    EXPECT_GE(std::min({w.x, w.y, w.z}), -tol);
  }
}

TEST(VbdMath, EigenDecompositionResidual) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int trial = 0; trial < 100; ++trial) {
    const Sym3 S = clm::sym3_make(glm::vec3(u(rng), u(rng), u(rng)), glm::vec3(u(rng), u(rng), u(rng)));
    glm::vec3 w;
    clm::Mat3 V;
    clm::sym3_eigen(S, &w, &V);
    const glm::vec3 cols[3] = {V.c0, V.c1, V.c2};
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(glm::length(cols[k]), 1.0f, 1.0e-5f);
      EXPECT_LT(glm::length(clm::sym3_mul_vec(S, cols[k]) - cols[k] * w[k]), 1.0e-5f * clm::sym3_frobenius(S));
    }
  }
}

TEST(VbdMath, GuardedSolveIsScaleFree) {
  const Sym3 H = clm::sym3_make(glm::vec3(4.0f, 5.0f, 6.0f), glm::vec3(1.0f, 0.5f, -0.3f));
  const glm::vec3 f(1.0f, -2.0f, 0.5f);
  glm::vec3 dx;
  ASSERT_TRUE(clm::sym3_solve(H, f, 1.0e-6f, &dx));
  EXPECT_LT(glm::length(clm::sym3_mul_vec(H, dx) - f), 1.0e-5f * glm::length(f));
  // Nearly singular: eigenvalues ~ (1, 1, 1e-8) is skipped at any unit scale.
  for (float unit : {1.0e-4f, 1.0f, 1.0e6f}) {
    const Sym3 singular = clm::sym3_scale(clm::sym3_make(glm::vec3(1.0f, 1.0f, 1.0e-8f), glm::vec3(0.0f)), unit);
    EXPECT_FALSE(clm::sym3_solve(singular, f, 1.0e-6f, &dx)) << unit;
    EXPECT_TRUE(clm::sym3_solve(clm::sym3_scale(H, unit), f, 1.0e-6f, &dx)) << unit;
  }
}

TEST(VbdMath, FrictionProfileIsContinuousAndFiniteAtRest) {
  const float yEps = 1.0e-4f;
  // f1(y)/y is continuous at y = eps_v h and finite (2 / (eps_v h)) at y = 0.
  EXPECT_NEAR(clm::vbd_friction_f1_over_u(yEps * (1.0f - 1e-4f), yEps), 1.0f / yEps, 1e-3f / yEps);
  EXPECT_NEAR(clm::vbd_friction_f1_over_u(0.0f, yEps), 2.0f / yEps, 1e-6f / yEps);
  // Sliding: the friction force magnitude is mu lambda_n, opposite to the motion.
  glm::vec3 f(0.0f);
  Sym3 H = clm::sym3_zero();
  clm::vbd_add_friction(glm::vec3(0, 1, 0), glm::vec3(0.01f, -0.002f, 0.0f), 0.5f, 100.0f, yEps, &f, &H);
  EXPECT_NEAR(f.x, -50.0f, 1e-3f);
  EXPECT_NEAR(f.y, 0.0f, 1e-6f);
  EXPECT_NEAR(H.d.y, 0.0f, 1e-6f);  // no normal-direction stiffness from friction
}

TEST(VbdMath, AttachmentForceIsCapped) {
  const float k = 1.0e4f, cap = 100.0f;
  for (float dist : {0.001f, 0.01f, 0.02f, 1.0f}) {
    glm::vec3 f(0.0f);
    Sym3 H = clm::sym3_zero();
    clm::vbd_add_attachment(glm::vec3(dist, 0.0f, 0.0f), 1.0f, k, cap, &f, &H);
    EXPECT_NEAR(glm::length(f), std::min(k * dist, cap), 1e-4f * cap) << dist;
    EXPECT_LT(f.x, 0.0f);
  }
}

TEST(VbdMath, AugmentedLagrangianRowUpdates) {
  // Hard equality row: lambda accumulates k C (Eq. 11), k ramps by beta |C| (Eq. 12) up to kMax.
  float lambda = 0.0f, k = 100.0f;
  clm::avbd_update_row(0.01f, 1, 1.0e5f, 1.0e9f, -AVBD_UNBOUNDED, AVBD_UNBOUNDED, &lambda, &k);
  EXPECT_FLOAT_EQ(lambda, 1.0f);
  EXPECT_FLOAT_EQ(k, 100.0f + 1.0e3f);
  // Contact row (push only): a separated contact keeps lambda 0 and does not ramp k.
  lambda = 0.0f;
  k = 100.0f;
  clm::avbd_update_row(0.01f, 1, 1.0e5f, 1.0e9f, -AVBD_UNBOUNDED, 0.0f, &lambda, &k);
  EXPECT_EQ(lambda, 0.0f);
  EXPECT_EQ(k, 100.0f);
  // Soft row: no lambda, k capped at the material stiffness k* (Eq. 16).
  lambda = 0.0f;
  k = 100.0f;
  clm::avbd_update_row(1.0f, 0, 1.0e5f, 500.0f, -AVBD_UNBOUNDED, AVBD_UNBOUNDED, &lambda, &k);
  EXPECT_EQ(lambda, 0.0f);
  EXPECT_EQ(k, 500.0f);
  // Warm start (Eq. 19).
  lambda = 10.0f;
  k = 1.0e6f;
  clm::avbd_warm_start_row(0.95f, 0.99f, 1.0e3f, 1.0e9f, &lambda, &k);
  EXPECT_FLOAT_EQ(lambda, 10.0f * 0.95f * 0.99f);
  EXPECT_FLOAT_EQ(k, 0.99e6f);
  // Eq. 14: a separated contact (force clamped to 0) has zero Hessian stiffness.
  EXPECT_EQ(clm::avbd_hessian_stiffness(1.0e4f, 0.01f, 0.0f, -AVBD_UNBOUNDED, 0.0f), 0.0f);
}

TEST(VbdMath, ChebyshevWeights) {
  const float rho = 0.9f;
  EXPECT_EQ(chebyshevOmega(1, rho, 0.0f), 1.0f);
  const float w2 = chebyshevOmega(2, rho, 1.0f);
  EXPECT_FLOAT_EQ(w2, 2.0f / (2.0f - 0.81f));
  float w = w2;
  for (int n = 3; n < 200; ++n) w = chebyshevOmega(n, rho, w);
  // Fixed point of omega = 4 / (4 - rho^2 omega): omega* = 2 (1 - sqrt(1 - rho^2)) / rho^2.
  EXPECT_NEAR(w, 2.0f * (1.0f - std::sqrt(1.0f - rho * rho)) / (rho * rho), 1e-5f);
}

}  // namespace
}  // namespace tetlab
