#pragma once
// Rounding bound for device energy (gpu/solvers/device_energy.h) vs computeEnergy
// (core/sim/energy.cpp) on the same state, per component. Shared by the GPU
// test (tests/gpu/device_energy_test.cpp) and the sandbox test
// (tests/app/sandbox_device_energy_test.cpp).
//
// Tolerance, derived (u = 2^-24, the float unit roundoff):
//  * Evaluation. Host and device evaluate each term with the same float code
//    (the .clh functions) from the same float inputs; Ds = x_i - x_0 is one
//    correctly rounded subtraction on both sides, so identical. The rest may
//    differ where OpenCL builtins (dot, cross, length, sqrt: implementation
//    accuracy, fma allowed) differ from the host's. A float expression of depth
//    d has |error| <= d u * (the same expression on absolute values), so the two
//    sides differ by at most 2 d u M_i, M_i = term i evaluated on |intermediates|
//    (|F| <- |Ds| |DmInv| etc.; for a squared term k c^2 to first order
//    2 k |c| times the scale of c, see squaredScale()). Depth of the deepest term,
//    the Neo-Hookean density: F 3 + |F|^2 9 + det 5 + psi 5 + V0 1 = 23, plus
//    3 for the ulps allowed to length/sqrt: d = 26, so kEval = 2 d = 52.
//    The host adds terms in double (error ~N 2^-53, negligible).
//  * Reduction. A work-item adds k items in sequence ((k - 1) u), the group
//    adds L values as a binary tree (log2 L u), each relative to the sum of
//    |terms| A; the partials are added in double on the host (+1 for margin).
//  tol = u (kEval M + (k - 1 + log2 L + 1) A), per component.
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

#include "core/model/material.h"
#include "core/model/sim_model.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"
#include "gpu/solvers/device_energy.h"

namespace tetlab::test {

inline constexpr double kUnitRoundoff = 0x1p-24;
inline constexpr double kEval = 52.0;

struct Magnitude {
  double sumAbs = 0.0;     // A: sum of |term|
  double evalScale = 0.0;  // M: sum of the terms evaluated on absolute values
};

struct EnergyMagnitudes {
  Magnitude kinetic, potential, tets, edges;
};

inline glm::dmat3 absMat(const glm::mat3& m) {
  glm::dmat3 out;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) out[c][r] = std::fabs(double(m[c][r]));
  return out;
}

// Sum over the six permutation products of |F| (det evaluated on absolute values).
inline double absDet(const glm::dmat3& A) {
  return A[0][0] * (A[1][1] * A[2][2] + A[2][1] * A[1][2]) + A[1][0] * (A[2][1] * A[0][2] + A[0][1] * A[2][2]) +
         A[2][0] * (A[0][1] * A[1][2] + A[1][1] * A[0][2]);
}

// M of a term k c^2 whose c carries a host/device difference of at most
// kEval u s: |k c1^2 - k c2^2| = k |c1 - c2| |c1 + c2| <= kEval u k s (2|c| + kEval u s);
// the trailing k c^2 covers the rounding of the final products (a few u |term|).
inline double squaredScale(double k, double c, double s) {
  return k * (s * (2.0 * std::fabs(c) + kEval * kUnitRoundoff * s) + c * c);
}

// A and M of every term computeEnergy adds, in double, mirroring energy.cpp.
// s (the scale of c's evaluation error) is c evaluated on absolute values:
// |F| <- |Ds| |DmInv| (F may be contracted differently), det -> sum of |products|.
inline EnergyMagnitudes magnitudes(const SimModel& model, const SolverSettings& settings, const State& state) {
  EnergyMagnitudes out;
  const glm::dvec3 g = settings.step.gravity;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const double m = model.mass[i];
    const glm::dvec3 v = glm::vec3(state.v[i]);
    const glm::dvec3 x = glm::vec3(state.x[i]);
    const double kinetic = 0.5 * m * glm::dot(v, v);
    out.kinetic.sumAbs += kinetic;
    out.kinetic.evalScale += kinetic;
    out.potential.sumAbs += std::fabs(m * glm::dot(g, x));
    out.potential.evalScale += m * (std::fabs(g.x * x.x) + std::fabs(g.y * x.y) + std::fabs(g.z * x.z));
  }
  const ConstraintToggles& on = settings.step.constraints;
  const PositionBasedConstraintParams& pb = settings.positionBased;
  for (uint32_t t = 0; t < model.tetCount(); ++t) {
    const glm::uvec4 tet = model.tets[t];
    const glm::vec3 x0(state.x[tet.x]);
    const glm::mat3 Ds(glm::vec3(state.x[tet.y]) - x0, glm::vec3(state.x[tet.z]) - x0, glm::vec3(state.x[tet.w]) - x0);
    const glm::dmat3 F = glm::dmat3(Ds) * glm::dmat3(model.DmInv[t]);
    const glm::dmat3 Fabs = absMat(Ds) * absMat(model.DmInv[t]);
    const double V0 = model.restVolume[t];
    const Material& material = model.materials[model.tetBody[t]];
    const NeoHookeanParameters nh = neoHookeanFromMaterial(material);
    const LameParameters lame = lameFromYoungPoisson(material.youngsModulus, material.poissonRatio);
    const double J = glm::determinant(F), Jabs = absDet(Fabs);
    double term = 0.0, scale = 0.0;
    if (on.neoHookean) {
      // psi = a + b - c0 (neo_hookean.clh); c0 is bitwise the same on both sides.
      const double mu = nh.mu, lambda = nh.lambda, gamma = 1.0 + mu / lambda;
      double Ic = 0.0, IcAbs = 0.0;
      for (int c = 0; c < 3; ++c) Ic += glm::dot(F[c], F[c]), IcAbs += glm::dot(Fabs[c], Fabs[c]);
      const double dJ = J - gamma;
      const double a = 0.5 * mu * (Ic - 3.0), c0 = 0.5 * mu * mu / lambda;
      const double psi = a + 0.5 * lambda * dJ * dJ - c0;
      term += V0 * psi;
      scale += V0 * (0.5 * mu * (IcAbs + std::fabs(Ic - 3.0)) + squaredScale(0.5 * lambda, dJ, Jabs + std::fabs(dJ)) +
                     std::fabs(a) + c0 + std::fabs(psi));
    }
    if (on.tetVolume) {
      const double K = double(lame.lambda) + 2.0 * double(lame.mu) / 3.0;
      term += 0.5 * K * V0 * (J - 1.0) * (J - 1.0);
      scale += squaredScale(0.5 * K * V0, J - 1.0, Jabs + std::fabs(J - 1.0));
    }
    if (on.strainBased) {
      for (int i = 0; i < 3; ++i) {
        const double k = 0.5 * V0 * double(material.youngsModulus) * double(pb.stretchScale[i]);
        const double c = glm::length(F[i]) - 1.0;
        term += k * c * c;
        scale += squaredScale(k, c, glm::length(Fabs[i]) + std::fabs(c));
      }
      static constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
      for (int p = 0; p < 3; ++p) {
        const glm::dvec3 fi = F[kPairs[p][0]], fj = F[kPairs[p][1]];
        const double k = 0.5 * V0 * double(lame.mu) * double(pb.shearScale[p]);
        const double c = glm::dot(fi, fj) / (glm::length(fi) * glm::length(fj));
        const double cAbs = glm::dot(Fabs[kPairs[p][0]], Fabs[kPairs[p][1]]) / (glm::length(fi) * glm::length(fj));
        term += k * c * c;
        scale += squaredScale(k, c, cAbs + std::fabs(c));
      }
    }
    out.tets.sumAbs += std::fabs(term);
    out.tets.evalScale += scale;
  }
  if (on.edges) {
    for (uint32_t e = 0; e < model.edgeCount(); ++e) {
      const glm::uvec2 edge = model.edges[e];
      const double k = edgeSpringStiffness(model.materials[model.vertexBody[edge.x]].youngsModulus,
                                           model.edgeVolume[e], model.restLength[e]);
      const double l = glm::length(glm::dvec3(glm::vec3(state.x[edge.x]) - glm::vec3(state.x[edge.y])));
      const double c = l - double(model.restLength[e]);
      out.edges.sumAbs += 0.5 * k * c * c;
      out.edges.evalScale += squaredScale(0.5 * k, c, l + std::fabs(c));
    }
  }
  return out;
}

inline double reductionFactor(const DeviceEnergy& energy, uint32_t count) {
  return double(energy.itemsPerWorkItem(count)) - 1.0 + std::log2(double(energy.groupSize())) + 1.0;
}

struct EnergyTolerance {
  double kinetic = 0.0, potential = 0.0, elastic = 0.0;  // [J]
};

// tol = u (kEval M + (k - 1 + log2 L + 1) A) per component, for the groups `energy` launches.
inline EnergyTolerance deviceEnergyTolerance(const DeviceEnergy& energy, const SimModel& model,
                                             const SolverSettings& settings, const State& state) {
  const EnergyMagnitudes mag = magnitudes(model, settings, state);
  const double u = kUnitRoundoff;
  EnergyTolerance tol;
  tol.kinetic = u * (kEval * mag.kinetic.evalScale + reductionFactor(energy, model.vertexCount()) * mag.kinetic.sumAbs);
  tol.potential =
      u * (kEval * mag.potential.evalScale + reductionFactor(energy, model.vertexCount()) * mag.potential.sumAbs);
  tol.elastic = u * (kEval * (mag.tets.evalScale + mag.edges.evalScale) +
                     reductionFactor(energy, model.tetCount()) * mag.tets.sumAbs +
                     reductionFactor(energy, model.edgeCount()) * mag.edges.sumAbs);
  return tol;
}

}  // namespace tetlab::test
