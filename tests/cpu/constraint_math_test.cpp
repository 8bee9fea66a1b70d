// Finite-difference checks of every gradient in the shared element math
// (shaders/cl/common/*.clh), evaluated in the same float code the solvers and
// kernels use. Central differences in float with step eps have error
// O(eps^2 C''') + O(ulp(C)/eps): with eps = 1e-3 on O(1) values both are
// ~1e-5..1e-4, so gradients must agree to 2e-3 relative to the largest entry.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "core/model/material.h"
#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/collisions.clh"
#include "shaders/cl/common/constraints_distance.clh"
#include "shaders/cl/common/constraints_tet.clh"
#include "shaders/cl/common/neo_hookean.clh"
#include "shaders/cl/common/xpbd_update.clh"

namespace tetlab {
namespace {

using clm::Mat3;

constexpr float kEps = 1e-3f;
constexpr float kTol = 2e-3f;

struct Tet {
  glm::vec3 x[4];
  Mat3 DmInv;
};

// A random rest tet and a random deformed configuration of it (stretch,
// shear and rotation of order 20%, never inverted for these seeds).
Tet randomTet(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-0.2f, 0.2f);
  const glm::vec3 rest[4] = {{0, 0, 0}, {1.0f + u(rng), u(rng), u(rng)}, {u(rng), 1.0f + u(rng), u(rng)},
                             {u(rng), u(rng), 1.0f + u(rng)}};
  const Mat3 Dm = clm::mat3_cols(rest[1] - rest[0], rest[2] - rest[0], rest[3] - rest[0]);
  Tet t;
  t.DmInv = clm::mat3_inverse(Dm, clm::mat3_det(Dm));
  for (int i = 0; i < 4; ++i) t.x[i] = rest[i] + glm::vec3(u(rng), u(rng), u(rng));
  return t;
}

using TetFn = std::function<float(const Mat3& F, Mat3* dCdF)>;

// Compares the chain-ruled corner gradients of C(F(x)) with central differences in x.
void checkTetGradient(const Tet& t, const TetFn& fn, const char* name) {
  auto value = [&](const glm::vec3* x) {
    Mat3 unused;
    return fn(clm::tet_deformation_gradient(x[0], x[1], x[2], x[3], t.DmInv), &unused);
  };
  Mat3 dCdF;
  fn(clm::tet_deformation_gradient(t.x[0], t.x[1], t.x[2], t.x[3], t.DmInv), &dCdF);
  glm::vec3 g[4];
  clm::tet_gradients_from_dF(dCdF, t.DmInv, &g[0], &g[1], &g[2], &g[3]);
  float scale = 0.0f;
  for (const auto& gi : g) scale = std::max(scale, glm::length(gi));
  scale = std::max(scale, 1.0f);
  for (int v = 0; v < 4; ++v)
    for (int k = 0; k < 3; ++k) {
      glm::vec3 xp[4], xm[4];
      for (int i = 0; i < 4; ++i) xp[i] = xm[i] = t.x[i];
      xp[v][k] += kEps;
      xm[v][k] -= kEps;
      const float fd = (value(xp) - value(xm)) / (2.0f * kEps);
      EXPECT_NEAR(g[v][k], fd, kTol * scale) << name << " corner " << v << " axis " << k;
    }
}

TEST(ConstraintMath, TetConstraintGradientsMatchFiniteDifferences) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Tet t = randomTet(rng);
    checkTetGradient(t, [](const Mat3& F, Mat3* d) { return clm::tet_volume_constraint(F, d); }, "volume");
    checkTetGradient(t, [](const Mat3& F, Mat3* d) { return clm::nh_hydrostatic_constraint(F, 1.3f, d); },
                     "hydrostatic");
    checkTetGradient(t, [](const Mat3& F, Mat3* d) { return clm::nh_deviatoric_constraint(F, d); }, "deviatoric");
    for (int i = 0; i < 3; ++i)
      checkTetGradient(t, [i](const Mat3& F, Mat3* d) { return clm::strain_stretch_constraint(F, i, 1.0f, d); },
                       "stretch");
    const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (const auto& p : pairs)
      checkTetGradient(
          t, [p](const Mat3& F, Mat3* d) { return clm::strain_shear_constraint(F, p[0], p[1], d); }, "shear");
  }
}

TEST(ConstraintMath, TetConstraintsVanishAtRestExceptTheNeoHookeanPair) {
  const Mat3 I = clm::mat3_identity();
  Mat3 d;
  EXPECT_FLOAT_EQ(clm::tet_volume_constraint(I, &d), 0.0f);
  for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(clm::strain_stretch_constraint(I, i, 1.0f, &d), 0.0f);
  for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(clm::strain_stretch_constraint(I, i, 1.25f, &d), -0.25f);
  EXPECT_FLOAT_EQ(clm::strain_shear_constraint(I, 0, 2, &d), 0.0f);
  // C_D(I) = sqrt(3) and C_H(I) = 1 - gamma: at rest their compliant forces
  // cancel, mu F / |F| * |F| + lambda (1 - gamma) cof(I) = (mu - mu) I = 0
  // (Macklin & Mueller 2021 Sec. 4).
  const float mu = 2.0f, lambda = 5.0f;
  Mat3 dD, dH;
  const float cD = clm::nh_deviatoric_constraint(I, &dD);
  const float cH = clm::nh_hydrostatic_constraint(I, clm::nh_gamma(mu, lambda), &dH);
  EXPECT_NEAR(cD, std::sqrt(3.0f), 1e-6f);
  const Mat3 force = clm::mat3_add(clm::mat3_scale(dD, mu * cD), clm::mat3_scale(dH, lambda * cH));
  EXPECT_NEAR(clm::mat3_frobenius2(force), 0.0f, 1e-10f);
}

TEST(ConstraintMath, DistanceGradientMatchesFiniteDifferences) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int trial = 0; trial < 20; ++trial) {
    const glm::vec3 a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)};
    glm::vec3 g, unused;
    clm::distance_constraint(a, b, 0.3f, &g);
    for (int k = 0; k < 3; ++k) {
      glm::vec3 ap = a, am = a;
      ap[k] += kEps;
      am[k] -= kEps;
      const float fd =
          (clm::distance_constraint(ap, b, 0.3f, &unused) - clm::distance_constraint(am, b, 0.3f, &unused)) /
          (2 * kEps);
      EXPECT_NEAR(g[k], fd, kTol);
    }
  }
}

double lameEnergy(const LameParameters& lame, const double e[3][3]) {
  double ee = 0.0, tr = 0.0;
  for (int i = 0; i < 3; ++i) {
    tr += e[i][i];
    for (int j = 0; j < 3; ++j) ee += e[i][j] * e[i][j];
  }
  return lame.mu * ee + 0.5 * lame.lambda * tr * tr;
}

// psi(I + e) of neo_hookean.clh, in double.
double nhEnergyDouble(const NeoHookeanParameters& nh, const double e[3][3]) {
  double F[3][3], Ic = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      F[i][j] = (i == j ? 1.0 : 0.0) + e[i][j];
      Ic += F[i][j] * F[i][j];
    }
  const double J = F[0][0] * (F[1][1] * F[2][2] - F[1][2] * F[2][1]) -
                   F[0][1] * (F[1][0] * F[2][2] - F[1][2] * F[2][0]) +
                   F[0][2] * (F[1][0] * F[2][1] - F[1][1] * F[2][0]);
  const double mu = nh.mu, lambda = nh.lambda, gamma = 1.0 + mu / lambda;
  return 0.5 * mu * (Ic - 3.0) + 0.5 * lambda * (J - gamma) * (J - gamma) - 0.5 * mu * mu / lambda;
}

// The stable Neo-Hookean energy: zero and stationary at rest, rotation
// invariant, and its small-strain limit is linear elasticity with the
// material's E and nu (this checks neoHookeanFromMaterial's lambda + mu shift).
TEST(ConstraintMath, NeoHookeanEnergyLinearisesToTheMaterial) {
  const Material material{1.0e6f, 0.3f, 1000.0f, 0.0f};
  const NeoHookeanParameters nh = neoHookeanFromMaterial(material);
  const LameParameters lame = lameFromYoungPoisson(material.youngsModulus, material.poissonRatio);
  EXPECT_NEAR(clm::nh_energy_density(clm::mat3_identity(), nh.mu, nh.lambda), 0.0f, 1e-6f * nh.mu);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int trial = 0; trial < 10; ++trial) {
    // Symmetric small strain eps (1e-3): psi = mu eps:eps + lambda/2 tr(eps)^2 + O(eps^3).
    double e[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) e[i][j] = e[j][i] = 1e-3 * u(rng);
    const double linear = lameEnergy(lame, e);
    // The formula of neo_hookean.clh in double (float cancels ~4 digits at strain 1e-3).
    const double psi = nhEnergyDouble(nh, e);
    // psi - linear is O(|eps|^3) ~ 1e-3 relative at strain 1e-3.
    EXPECT_NEAR(psi, linear, 1e-2 * linear) << "trial " << trial;

    // The float implementation at a finite strain (x100: 10%) equals the double
    // formula, and is rotation invariant: psi(R F) = psi(F).
    for (auto& row : e)
      for (double& v : row) v *= 100.0;
    Mat3 F = clm::mat3_identity();
    F.c0 += glm::vec3(e[0][0], e[1][0], e[2][0]);
    F.c1 += glm::vec3(e[0][1], e[1][1], e[2][1]);
    F.c2 += glm::vec3(e[0][2], e[1][2], e[2][2]);
    const double big = nhEnergyDouble(nh, e);
    EXPECT_NEAR(clm::nh_energy_density(F, nh.mu, nh.lambda), big, 1e-3 * big);
    const float c = std::cos(0.7f), s = std::sin(0.7f);
    const Mat3 R = clm::mat3_cols({c, s, 0}, {-s, c, 0}, {0, 0, 1});
    EXPECT_NEAR(clm::nh_energy_density(clm::mat3_mul(R, F), nh.mu, nh.lambda), big, 1e-3 * big);
  }
}

// PBD/XPBD's strain-based set with pb_tet_moduli's stiffnesses stores the
// material's linear-elastic energy at small strain: sum 1/2 k C^2 over the
// three stretches, three shears and the volume equals mu eps:eps + lambda/2
// tr(eps)^2 to O(|eps|) relative, at nu = 0 (no volume constraint), 0.3 and
// 0.45. A rotation superposed changes nothing (every C is rotation invariant).
// The constraints are evaluated in double from the float F (float's C ~ 1e-3
// would cancel ~4 digits in the energy); uniaxial strain then checks C11 =
// lambda + 2 mu directly (the old set, stretch E and volume K, gave E + K).
TEST(ConstraintMath, StrainBasedSetStoresTheMaterialsLinearEnergy) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float nu : {0.0f, 0.3f, 0.45f}) {
    const LameParameters lame = lameFromYoungPoisson(1.0e6f, nu);
    const clm::PbTetModuli k = clm::pb_tet_moduli(lame.mu, lame.lambda, 1u);
    const auto setEnergy = [&](const double e[3][3], double angle) {
      // F = R (I + e) in double; the set's C from its definitions (constraints_tet.clh).
      const double c = std::cos(angle), s = std::sin(angle);
      const double R[3][3] = {{c, -s, 0}, {s, c, 0}, {0, 0, 1}};
      double F[3][3];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          F[i][j] = 0.0;
          for (int m = 0; m < 3; ++m) F[i][j] += R[i][m] * ((m == j ? 1.0 : 0.0) + e[m][j]);
        }
      const auto col = [&](int j, int i) { return F[i][j]; };
      const auto len = [&](int j) { return std::sqrt(col(j, 0) * col(j, 0) + col(j, 1) * col(j, 1) + col(j, 2) * col(j, 2)); };
      double W = 0.0;
      for (int i = 0; i < 3; ++i) W += 0.5 * k.stretch * (len(i) - 1.0) * (len(i) - 1.0);
      const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
      for (const auto& p : pairs) {
        double dot = 0.0;
        for (int r = 0; r < 3; ++r) dot += col(p[0], r) * col(p[1], r);
        const double C = dot / (len(p[0]) * len(p[1]));
        W += 0.5 * k.shear * C * C;
      }
      const double J = F[0][0] * (F[1][1] * F[2][2] - F[1][2] * F[2][1]) -
                       F[0][1] * (F[1][0] * F[2][2] - F[1][2] * F[2][0]) +
                       F[0][2] * (F[1][0] * F[2][1] - F[1][1] * F[2][0]);
      return W + 0.5 * k.volume * (J - 1.0) * (J - 1.0);
    };
    EXPECT_EQ(k.volume > 0.0f, nu > 0.0f) << "nu " << nu;
    for (int trial = 0; trial < 10; ++trial) {
      double e[3][3];
      for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) e[i][j] = e[j][i] = 1e-4 * u(rng);
      const double linear = lameEnergy(lame, e);
      EXPECT_NEAR(setEnergy(e, 0.0), linear, 1e-2 * linear) << "nu " << nu << " trial " << trial;
      EXPECT_NEAR(setEnergy(e, 0.8), linear, 1e-2 * linear) << "nu " << nu << " trial " << trial;
    }
    const double uniaxial[3][3] = {{1e-4, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    const double C11 = 2.0 * setEnergy(uniaxial, 0.0) / 1e-8;
    EXPECT_NEAR(C11, double(lame.lambda) + 2.0 * double(lame.mu), 1e-3 * C11) << "nu " << nu;
  }
}

TEST(ConstraintMath, SignedDistanceNormalsMatchFiniteDifferences) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const float c = std::cos(0.4f), s = std::sin(0.4f);
  const Mat3 R = clm::mat3_cols({c, 0, -s}, {0, 1, 0}, {s, 0, c});
  using Sdf = std::function<float(glm::vec3, glm::vec3*)>;
  const Sdf sdfs[] = {
      [](glm::vec3 p, glm::vec3* n) { return clm::sdf_ground(p, 0.1f, n); },
      [](glm::vec3 p, glm::vec3* n) { return clm::sdf_sphere(p, {0.1f, 0.2f, 0.0f}, 0.5f, n); },
      [](glm::vec3 p, glm::vec3* n) { return clm::sdf_capsule(p, {-0.3f, 0, 0}, {0.3f, 0.2f, 0}, 0.25f, n); },
      [R](glm::vec3 p, glm::vec3* n) { return clm::sdf_box(p, {0, 0.1f, 0}, {0.4f, 0.3f, 0.5f}, R, n); },
  };
  for (const Sdf& sdf : sdfs)
    for (int trial = 0; trial < 50; ++trial) {
      const glm::vec3 p{u(rng), u(rng), u(rng)};
      glm::vec3 n, unused;
      sdf(p, &n);
      EXPECT_NEAR(glm::length(n), 1.0f, 1e-5f);
      glm::vec3 fd;
      for (int k = 0; k < 3; ++k) {
        glm::vec3 pp = p, pm = p;
        pp[k] += kEps;
        pm[k] -= kEps;
        fd[k] = (sdf(pp, &unused) - sdf(pm, &unused)) / (2 * kEps);
      }
      // The box SDF has kinks where the nearest face changes (medial planes):
      // a stencil straddling one gives a gradient that is not unit length.
      if (std::fabs(glm::length(fd) - 1.0f) > 1e-2f) continue;
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(n[k], fd[k], 5e-3f);
    }
  glm::vec3 n;
  EXPECT_NEAR(clm::sdf_box({0.0f, 0.1f, 0.0f}, {0, 0.1f, 0}, {0.4f, 0.3f, 0.5f}, R, &n), -0.3f, 1e-6f);
  EXPECT_NEAR(clm::sdf_sphere({0.1f, 0.2f, 0.0f}, {0.1f, 0.2f, 0.0f}, 0.5f, &n), -0.5f, 1e-6f);
}

TEST(ConstraintMath, FrictionIsStaticBelowTheConeAndBoundedAboveIt) {
  // Static: tangential motion within mu * depth is undone completely.
  glm::vec3 corr = clm::friction_correction({0.003f, 0.0f, 0.004f}, 0.02f, 0.5f, 0.5f);
  EXPECT_NEAR(corr.x, -0.003f, 1e-7f);
  EXPECT_NEAR(corr.z, -0.004f, 1e-7f);
  // Kinetic: the correction is mu * depth long, opposite to the motion.
  corr = clm::friction_correction({0.3f, 0.0f, 0.4f}, 0.02f, 0.5f, 0.5f);
  EXPECT_NEAR(glm::length(corr), 0.5f * 0.02f, 1e-7f);
  EXPECT_LT(glm::dot(corr, glm::vec3(0.3f, 0.0f, 0.4f)), 0.0f);
}

TEST(ConstraintMath, XpbdStepSolvesTheCompliantConstraintExactlyForOneDof) {
  // One particle (w = 2) on a linear constraint: after one step C + alphaTilde lambda = 0 (XPBD Eq. 18).
  const float C = 0.1f, w = 2.0f, alphaTilde = 3.0f;
  const float dl = clm::xpbd_delta_lambda(C, 0.0f, w, alphaTilde);
  const float Cafter = C + w * dl;  // |gradC| = 1
  EXPECT_NEAR(Cafter + alphaTilde * dl, 0.0f, 1e-7f);
  EXPECT_EQ(clm::xpbd_delta_lambda(C, 0.0f, 0.0f, 0.0f), 0.0f) << "fully pinned: no step";
}

}  // namespace
}  // namespace tetlab
