#include "core/sim/static_fem.h"

#include <cstdlib>

#include <glm/mat3x3.hpp>

#include "core/model/material.h"

namespace tetlab {
namespace {

// Block-sparse symmetric stiffness over vertices (row: the vertex and its edge neighbours).
struct BlockMatrix {
  std::vector<uint32_t> offsets, cols;
  std::vector<glm::dmat3> blocks;
  glm::dmat3& at(uint32_t r, uint32_t c) {
    for (uint32_t k = offsets[r]; k < offsets[r + 1]; ++k)
      if (cols[k] == c) return blocks[k];
    std::abort();  // every tet corner pair is an edge: cannot happen
  }
};

BlockMatrix assembleStiffness(const SimModel& m) {
  const uint32_t n = m.vertexCount();
  BlockMatrix K;
  K.offsets.assign(n + 1, 0);
  for (uint32_t v = 0; v < n; ++v) {
    K.cols.push_back(v);
    for (uint32_t k = m.vertexEdges.offsets[v]; k < m.vertexEdges.offsets[v + 1]; ++k) {
      const uint32_t ref = m.vertexEdges.items[k];
      K.cols.push_back(m.edges[ref / 2][1 - ref % 2]);
    }
    K.offsets[v + 1] = uint32_t(K.cols.size());
  }
  K.blocks.assign(K.cols.size(), glm::dmat3(0.0));
  for (uint32_t t = 0; t < m.tetCount(); ++t) {
    const Material& material = m.materials[m.tetBody[t]];
    const LameParameters lame = lameFromYoungPoisson(material.youngsModulus, material.poissonRatio);
    const double mu = lame.mu, lambda = lame.lambda;
    // Shape-function gradients: grad N_k = row (k-1) of DmInv, grad N_0 = -(sum).
    const glm::dmat3 Di(m.DmInv[t]);
    glm::dvec3 g[4];
    for (int k = 1; k < 4; ++k) g[k] = glm::dvec3(Di[0][k - 1], Di[1][k - 1], Di[2][k - 1]);
    g[0] = -(g[1] + g[2] + g[3]);
    const double V = m.restVolume[t];
    // K_ab = V (mu (g_a . g_b) I + mu g_b g_a^T + lambda g_a g_b^T)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const glm::dmat3 block = V * (mu * glm::dot(g[a], g[b]) * glm::dmat3(1.0) +
                                      mu * glm::outerProduct(g[b], g[a]) + lambda * glm::outerProduct(g[a], g[b]));
        K.at(m.tets[t][a], m.tets[t][b]) += block;
      }
  }
  return K;
}

}  // namespace

StaticFemResult solveStaticFem(const SimModel& m, const std::vector<uint32_t>& pinned, glm::dvec3 gravity) {
  const uint32_t n = m.vertexCount();
  BlockMatrix K = assembleStiffness(m);
  std::vector<bool> fixed(n, false);
  for (uint32_t p : pinned) fixed[p] = true;
  auto apply = [&](const std::vector<glm::dvec3>& x, std::vector<glm::dvec3>& y) {
    for (uint32_t r = 0; r < n; ++r) {
      glm::dvec3 sum(0.0);
      if (!fixed[r])
        for (uint32_t k = K.offsets[r]; k < K.offsets[r + 1]; ++k)
          if (!fixed[K.cols[k]]) sum += K.blocks[k] * x[K.cols[k]];
      y[r] = sum;
    }
  };
  StaticFemResult out;
  out.u.assign(n, glm::dvec3(0.0));
  std::vector<glm::dvec3> f(n), r(n), z(n), p(n), Ap(n), diagInv(n);
  for (uint32_t v = 0; v < n; ++v) {
    f[v] = fixed[v] ? glm::dvec3(0.0) : double(m.mass[v]) * gravity;
    const glm::dmat3& d = K.at(v, v);
    diagInv[v] = glm::dvec3(1.0 / d[0][0], 1.0 / d[1][1], 1.0 / d[2][2]);
  }
  r = f;
  double rz = 0.0, f2 = 0.0;
  for (uint32_t v = 0; v < n; ++v) {
    z[v] = diagInv[v] * r[v];
    p[v] = z[v];
    rz += glm::dot(r[v], z[v]);
    f2 += glm::dot(f[v], f[v]);
  }
  if (f2 == 0.0) {
    out.converged = true;
    return out;
  }
  constexpr int kMaxIterations = 50000;
  for (out.iterations = 0; out.iterations < kMaxIterations; ++out.iterations) {
    apply(p, Ap);
    double pAp = 0.0;
    for (uint32_t v = 0; v < n; ++v) pAp += glm::dot(p[v], Ap[v]);
    const double alpha = rz / pAp;
    double r2 = 0.0;
    for (uint32_t v = 0; v < n; ++v) {
      out.u[v] += alpha * p[v];
      r[v] -= alpha * Ap[v];
      r2 += glm::dot(r[v], r[v]);
    }
    if (r2 < 1e-24 * f2) {
      out.converged = true;
      break;
    }
    double rzNew = 0.0;
    for (uint32_t v = 0; v < n; ++v) {
      z[v] = diagInv[v] * r[v];
      rzNew += glm::dot(r[v], z[v]);
    }
    for (uint32_t v = 0; v < n; ++v) p[v] = z[v] + (rzNew / rz) * p[v];
    rz = rzNew;
  }
  return out;
}

glm::dvec3 meanDisplacement(const SimModel& m, const std::vector<glm::dvec3>& u) {
  double M = 0.0;
  glm::dvec3 sum(0.0);
  for (uint32_t v = 0; v < m.vertexCount(); ++v) {
    M += m.mass[v];
    sum += double(m.mass[v]) * u[v];
  }
  return sum / M;
}

}  // namespace tetlab
