// The cloth membrane's element math (shaders/cl/common/cloth_membrane.clh,
// core/model/cloth_membrane.h) against finite differences; the XPBD strain
// constraints' compliant energies against the membrane energy they split.
// (Its energy under a uniform dilation: tests/core/cloth_model_test.cpp.)
#include <gtest/gtest.h>

#include <cmath>

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/cloth_membrane.clh"

#include "core/model/cloth_membrane.h"
#include "core/model/material.h"

namespace tetlab {
namespace {

// A triangle tilted out of every axis plane, and a deformed copy with
// stretch, shear and a rotation.
struct Triangle {
  glm::vec3 rest[3] = {{0.10f, 0.20f, 0.05f}, {0.16f, 0.23f, 0.07f}, {0.12f, 0.27f, 0.01f}};
  glm::vec3 now[3] = {{0.11f, 0.19f, 0.06f}, {0.175f, 0.225f, 0.08f}, {0.118f, 0.282f, 0.012f}};
};

double energyAt(const glm::vec3 x[3], glm::vec4 Dm, float muH, float lambdaH, float A) {
  return double(A) * double(clm::membrane_energy_density(clm::membrane_F(x[0], x[1], x[2], Dm), muH, lambdaH));
}

TEST(ClothMembrane, RestShapeInItsOwnFrameGivesTheIdentityMetric) {
  const Triangle t;
  const glm::vec4 Dm = membraneDmInv(glm::dvec3(t.rest[0]), glm::dvec3(t.rest[1]), glm::dvec3(t.rest[2]));
  const clm::Sym2 E = clm::membrane_green_strain(clm::membrane_F(t.rest[0], t.rest[1], t.rest[2], Dm));
  EXPECT_NEAR(E.e00, 0.0f, 1e-6f);
  EXPECT_NEAR(E.e01, 0.0f, 1e-6f);
  EXPECT_NEAR(E.e11, 0.0f, 1e-6f);
  // A rigid motion (rotation about an arbitrary axis plus a shift) stays strain-free.
  const float c = std::cos(0.7f), s = std::sin(0.7f);
  glm::vec3 moved[3];
  for (int k = 0; k < 3; ++k) {
    const glm::vec3 p = t.rest[k];
    moved[k] = glm::vec3(c * p.x - s * p.z, p.y, s * p.x + c * p.z) + glm::vec3(0.3f, -1.0f, 2.0f);
  }
  const clm::Sym2 R = clm::membrane_green_strain(clm::membrane_F(moved[0], moved[1], moved[2], Dm));
  EXPECT_NEAR(clm::membrane_strain_norm2(R), 0.0f, 1e-10f);
}

// dW/dx_j and the exact block d2W/dx_j2 (safeguard off) against central
// differences of the energy, on every corner.
TEST(ClothMembrane, GradientAndHessianBlockMatchFiniteDifferences) {
  const Triangle t;
  const glm::vec4 Dm = membraneDmInv(glm::dvec3(t.rest[0]), glm::dvec3(t.rest[1]), glm::dvec3(t.rest[2]));
  const float A = 0.5f * glm::length(glm::cross(t.rest[1] - t.rest[0], t.rest[2] - t.rest[0]));
  Material m;
  m.youngsModulus = 2.0e6f;
  m.poissonRatio = 0.35f;
  m.thickness = 1.0e-3f;
  const MembraneModuli mm = membraneModuli(m);
  const clm::Mat32 F = clm::membrane_F(t.now[0], t.now[1], t.now[2], Dm);
  const double hStep = 1e-4;
  for (uint32_t j = 0; j < 3; ++j) {
    float bx = 0.0f, by = 0.0f;
    clm::membrane_corner_weights(Dm, j, &bx, &by);
    glm::vec3 g;
    clm::Sym3 H;
    int triggered = 0;
    clm::membrane_vertex_gradient_hessian(F, bx, by, mm.muH, mm.lambdaH, A, VBD_SAFEGUARD_NONE, &g, &H, &triggered);
    EXPECT_EQ(triggered, 0);
    for (int a = 0; a < 3; ++a) {
      glm::vec3 plus[3] = {t.now[0], t.now[1], t.now[2]}, minus[3] = {t.now[0], t.now[1], t.now[2]};
      plus[j][a] += float(hStep);
      minus[j][a] -= float(hStep);
      const double fd = (energyAt(plus, Dm, mm.muH, mm.lambdaH, A) - energyAt(minus, Dm, mm.muH, mm.lambdaH, A)) /
                        (2.0 * hStep);
      EXPECT_NEAR(g[a], fd, 2e-3 * std::fabs(fd) + 1e-3) << "corner " << j << " axis " << a;
      // Column a of the block: the gradient's change along axis a.
      clm::Mat32 Fp = clm::membrane_F(plus[0], plus[1], plus[2], Dm), Fm = clm::membrane_F(minus[0], minus[1], minus[2], Dm);
      glm::vec3 gp, gm;
      clm::Sym3 unused;
      clm::membrane_vertex_gradient_hessian(Fp, bx, by, mm.muH, mm.lambdaH, A, VBD_SAFEGUARD_NONE, &gp, &unused, &triggered);
      clm::membrane_vertex_gradient_hessian(Fm, bx, by, mm.muH, mm.lambdaH, A, VBD_SAFEGUARD_NONE, &gm, &unused, &triggered);
      const glm::vec3 column = (gp - gm) / float(2.0 * hStep);
      glm::vec3 e(0.0f);
      e[a] = 1.0f;
      const glm::vec3 Hcol = clm::sym3_mul_vec(H, e);
      for (int b = 0; b < 3; ++b)
        EXPECT_NEAR(Hcol[b], column[b], 2e-3 * std::fabs(column[b]) + 0.5) << "corner " << j << " H(" << b << "," << a << ")";
    }
  }
}

// Compressed, the stress term is negative: the safeguards see it as the
// geometric part (EIGEN_CLAMP leaves a PSD block).
TEST(ClothMembrane, CompressionTriggersTheSafeguardAndTheClampedBlockIsPositive) {
  const Triangle t;
  const glm::vec4 Dm = membraneDmInv(glm::dvec3(t.rest[0]), glm::dvec3(t.rest[1]), glm::dvec3(t.rest[2]));
  glm::vec3 squashed[3];
  for (int k = 0; k < 3; ++k) squashed[k] = t.rest[0] + 0.8f * (t.rest[k] - t.rest[0]);
  const clm::Mat32 F = clm::membrane_F(squashed[0], squashed[1], squashed[2], Dm);
  float bx = 0.0f, by = 0.0f;
  clm::membrane_corner_weights(Dm, 1, &bx, &by);
  glm::vec3 g;
  clm::Sym3 H;
  int triggered = 0;
  clm::membrane_vertex_gradient_hessian(F, bx, by, 1000.0f, 500.0f, 1e-3f, VBD_SAFEGUARD_EIGEN_CLAMP, &g, &H, &triggered);
  EXPECT_EQ(triggered, 1);
  glm::vec3 values;
  clm::Mat3 vectors;
  clm::sym3_eigen(H, &values, &vectors);
  EXPECT_GE(std::min({values.x, values.y, values.z}), -1e-6f * std::max({values.x, values.y, values.z}));
}

// The closed-form clamp of a compressed membrane block equals the numerical
// projection (sym3_project_psd) of the same block, over squashes and shears.
TEST(ClothMembrane, ClosedFormClampMatchesTheNumericalProjection) {
  const Triangle t;
  const glm::vec4 Dm = membraneDmInv(glm::dvec3(t.rest[0]), glm::dvec3(t.rest[1]), glm::dvec3(t.rest[2]));
  int clamped = 0;
  for (int k = 0; k < 40; ++k) {
    const float squash = 0.6f + 0.01f * float(k), shear = 0.02f * float(k % 7) - 0.06f;
    glm::vec3 x[3];
    for (int c = 0; c < 3; ++c) {
      const glm::vec3 d = t.rest[c] - t.rest[0];
      x[c] = t.rest[0] + glm::vec3(squash * d.x + shear * d.y, (1.1f - 0.005f * float(k)) * d.y, d.z + shear * d.x);
    }
    const clm::Mat32 F = clm::membrane_F(x[0], x[1], x[2], Dm);
    for (uint32_t j = 0; j < 3; ++j) {
      float bx = 0.0f, by = 0.0f;
      clm::membrane_corner_weights(Dm, j, &bx, &by);
      glm::vec3 g;
      clm::Sym3 exact, fast;
      int tExact = 0, tFast = 0;
      clm::membrane_vertex_gradient_hessian(F, bx, by, 900.0f, 400.0f, 1e-3f, VBD_SAFEGUARD_NONE, &g, &exact, &tExact);
      clm::membrane_vertex_gradient_hessian(F, bx, by, 900.0f, 400.0f, 1e-3f, VBD_SAFEGUARD_EIGEN_CLAMP, &g, &fast, &tFast);
      int tNumeric = 0;
      const clm::Sym3 numeric = clm::sym3_project_psd(exact, &tNumeric);
      EXPECT_EQ(tFast, tNumeric) << "case " << k << " corner " << j;
      const float scale = clm::sym3_frobenius(exact);
      const clm::Sym3 d = clm::sym3_add(fast, clm::sym3_scale(numeric, -1.0f));
      EXPECT_LT(clm::sym3_frobenius(d), 2e-5f * scale) << "case " << k << " corner " << j;
      clamped += tFast;
    }
  }
  EXPECT_GT(clamped, 20) << "the cases must exercise the clamp";
}

// XPBD's three strain constraints: sum_k 1/2 C_k^2 / alpha_k = W
// (membrane_strain_constraints), and dC/dF against finite differences.
TEST(ClothMembrane, XpbdStrainConstraintsStoreTheMembraneEnergy) {
  const Triangle t;
  const glm::vec4 Dm = membraneDmInv(glm::dvec3(t.rest[0]), glm::dvec3(t.rest[1]), glm::dvec3(t.rest[2]));
  const float A = 2.0e-3f, muH = 800.0f, lambdaH = 450.0f;
  const clm::Mat32 F = clm::membrane_F(t.now[0], t.now[1], t.now[2], Dm);
  float C[3];
  clm::Mat32 G[3];
  clm::membrane_strain_constraints(F, C, G);
  double split = 0.0;
  for (int k = 0; k < 3; ++k)
    split += 0.5 * double(C[k]) * double(C[k]) * clm::membrane_constraint_stiffness(k, muH, lambdaH, A);
  const double W = energyAt(t.now, Dm, muH, lambdaH, A);
  ASSERT_GT(W, 0.0);
  EXPECT_NEAR(split, W, 1e-5 * W);
  // Corner gradients g_j = G b_j against central differences of C.
  const double hStep = 1e-3;
  for (int k = 0; k < 3; ++k) {
    glm::vec3 g[3];
    clm::membrane_gradients_from_dF(G[k], Dm, g);
    for (int j = 0; j < 3; ++j)
      for (int a = 0; a < 3; ++a) {
        glm::vec3 plus[3] = {t.now[0], t.now[1], t.now[2]}, minus[3] = {t.now[0], t.now[1], t.now[2]};
        plus[j][a] += float(hStep);
        minus[j][a] -= float(hStep);
        float Cp[3], Cm[3];
        clm::Mat32 unused[3];
        clm::membrane_strain_constraints(clm::membrane_F(plus[0], plus[1], plus[2], Dm), Cp, unused);
        clm::membrane_strain_constraints(clm::membrane_F(minus[0], minus[1], minus[2], Dm), Cm, unused);
        const double fd = (double(Cp[k]) - double(Cm[k])) / (2.0 * hStep);
        EXPECT_NEAR(g[j][a], fd, 1e-3 * std::fabs(fd) + 2e-3) << "constraint " << k << " corner " << j << " axis " << a;
      }
  }
}

}  // namespace
}  // namespace tetlab
