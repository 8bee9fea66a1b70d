// Field maths for the view; see view_fields.h for the formulas and why they
// live on the CPU.
#include "app/render/view_fields.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include "core/sim/collider_records.h"

namespace tetlab {

glm::mat3 deformationGradient(const SimModel& model, std::span<const glm::vec4> x, uint32_t tet) {
  const glm::uvec4 t = model.tets[tet];
  const glm::vec3 x0(x[t.x]);
  // Sifakis & Barbic 2012, Eq. 4.1: Ds = [x1-x0, x2-x0, x3-x0]; Eq. 4.2: F = Ds Dm^-1.
  const glm::mat3 Ds(glm::vec3(x[t.y]) - x0, glm::vec3(x[t.z]) - x0, glm::vec3(x[t.w]) - x0);
  return Ds * model.DmInv[tet];
}

glm::mat3 greenStrain(const glm::mat3& F) { return 0.5f * (glm::transpose(F) * F - glm::mat3(1.0f)); }

float frobeniusNorm(const glm::mat3& A) {
  float sum = 0.0f;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) sum += A[c][r] * A[c][r];
  return std::sqrt(sum);
}

glm::mat3 neoHookeanPiola(const glm::mat3& F, NeoHookeanParameters params) {
  // dJ/dF = cof(F): column i is the cross product of the other two columns (J = f0 . (f1 x f2)).
  const glm::mat3 cof(glm::cross(F[1], F[2]), glm::cross(F[2], F[0]), glm::cross(F[0], F[1]));
  const float J = glm::determinant(F);
  const float gamma = 1.0f + params.mu / params.lambda;  // neo_hookean.clh nh_gamma
  // Smith et al. 2018, Eq. 14 without the log term, differentiated: P = mu F + lambda (J - gamma) dJ/dF.
  return params.mu * F + params.lambda * (J - gamma) * cof;
}

glm::mat3 cauchyStress(const glm::mat3& F, NeoHookeanParameters params) {
  const float J = glm::determinant(F);
  if (!(J > 0.0f)) return glm::mat3(0.0f);
  return neoHookeanPiola(F, params) * glm::transpose(F) / J;
}

float vonMises(const glm::mat3& sigma) {
  const float mean = (sigma[0][0] + sigma[1][1] + sigma[2][2]) / 3.0f;
  const glm::mat3 s = sigma - mean * glm::mat3(1.0f);
  float ss = 0.0f;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) ss += s[c][r] * s[c][r];
  return std::sqrt(1.5f * ss);
}

float clothMembraneStrain(const SimModel& model, std::span<const glm::vec4> x, uint32_t triangle) {
  const glm::uvec3 t = model.clothTriangles[triangle];
  auto metric = [](glm::vec3 e1, glm::vec3 e2) {
    return glm::dmat2(glm::dot(e1, e1), glm::dot(e1, e2), glm::dot(e1, e2), glm::dot(e2, e2));
  };
  const std::vector<glm::vec3>& r = model.restPositions;
  const glm::dmat2 G0 = metric(r[t.y] - r[t.x], r[t.z] - r[t.x]);
  const glm::vec3 a(x[t.x]), b(x[t.y]), c(x[t.z]);
  const glm::dmat2 M = glm::inverse(G0) * (metric(b - a, c - a) - G0);
  const glm::dmat2 M2 = M * M;
  return float(std::sqrt(std::max(0.0, 0.25 * (M2[0][0] + M2[1][1]))));
}

void averageTetsToVertices(const SimModel& model, std::span<const float> perTet, std::vector<float>& outPerVertex) {
  const uint32_t n = model.vertexCount();
  outPerVertex.assign(n, 0.0f);
  if (model.vertexTets.offsets.size() != size_t(n) + 1 || perTet.size() < model.tetCount()) return;
  for (uint32_t v = 0; v < n; ++v) {
    double sum = 0.0, weight = 0.0;
    for (uint32_t k = model.vertexTets.offsets[v]; k < model.vertexTets.offsets[v + 1]; ++k) {
      const uint32_t tet = model.vertexTets.items[k] / 4;
      const double w = model.restVolume[tet];
      sum += w * perTet[tet];
      weight += w;
    }
    outPerVertex[v] = weight > 0.0 ? float(sum / weight) : 0.0f;
  }
  const size_t tri = model.clothTriangles.size();
  if (tri == 0 || perTet.size() < model.tetCount() + tri) return;
  std::vector<double> sum(n, 0.0), weight(n, 0.0);
  for (size_t k = 0; k < tri; ++k) {
    const double w = model.clothTriangleArea[k];
    for (int c = 0; c < 3; ++c) {
      sum[model.clothTriangles[k][c]] += w * perTet[model.tetCount() + k];
      weight[model.clothTriangles[k][c]] += w;
    }
  }
  for (uint32_t v = 0; v < n; ++v)
    if (weight[v] > 0.0) outPerVertex[v] = float(sum[v] / weight[v]);
}

void vertexColorIndices(const SimModel& model, std::vector<float>& outPerVertex) {
  outPerVertex.assign(model.vertexCount(), 0.0f);
  for (uint32_t c = 0; c < model.vertexColors.count(); ++c)
    for (uint32_t k = model.vertexColors.begin(c); k < model.vertexColors.end(c); ++k)
      if (k < model.vertexColorOrder.size() && model.vertexColorOrder[k] < outPerVertex.size())
        outPerVertex[model.vertexColorOrder[k]] = float(c);
}

void tetColorIndices(const SimModel& model, std::vector<float>& outPerTet) {
  outPerTet.assign(model.tetCount(), 0.0f);
  for (uint32_t c = 0; c < model.tetColors.count(); ++c)
    for (uint32_t t = model.tetColors.begin(c); t < model.tetColors.end(c) && t < outPerTet.size(); ++t)
      outPerTet[t] = float(c);
}

void sampleAtEmbedding(const SurfaceEmbedding& embedding, std::span<const float> perSimVertex,
                       std::vector<float>& outPerRenderVertex) {
  outPerRenderVertex.resize(embedding.vertices.size());
  for (size_t i = 0; i < embedding.vertices.size(); ++i) {
    const glm::uvec4 ids = embedding.vertices[i];
    const glm::vec4 w = embedding.weights[i];
    float value = 0.0f;
    for (int k = 0; k < 4; ++k) value += ids[k] < perSimVertex.size() ? w[k] * perSimVertex[ids[k]] : 0.0f;
    outPerRenderVertex[i] = value;
  }
}

namespace {

void computePerTet(const FieldInputs& in, ColorField field, std::vector<float>& out) {
  const SimModel& model = *in.model;
  out.resize(model.tetCount());
  const bool stress = field == ColorField::kStress;
  std::vector<NeoHookeanParameters> nh;
  if (stress)
    for (const Material& m : model.materials) nh.push_back(neoHookeanFromMaterial(m));
  for (uint32_t t = 0; t < model.tetCount(); ++t) {
    const glm::mat3 F = deformationGradient(model, in.x, t);
    switch (field) {
      case ColorField::kStrain: out[t] = frobeniusNorm(greenStrain(F)); break;
      case ColorField::kVolumeChange: out[t] = std::abs(glm::determinant(F) - 1.0f); break;
      case ColorField::kStress: {
        const uint32_t body = t < model.tetBody.size() ? model.tetBody[t] : 0u;
        const NeoHookeanParameters p = body < nh.size() ? nh[body] : neoHookeanFromMaterial(Material{});
        out[t] = vonMises(cauchyStress(F, p));
        break;
      }
      default: out[t] = 0.0f;
    }
  }
  out.resize(size_t(model.tetCount()) + model.clothTriangles.size(), 0.0f);
  for (uint32_t k = 0; k < model.clothTriangles.size(); ++k) {
    float& value = out[model.tetCount() + k];
    switch (field) {
      case ColorField::kStrain: value = clothMembraneStrain(model, in.x, k); break;
      case ColorField::kVolumeChange: {
        const glm::uvec3 t = model.clothTriangles[k];
        const glm::vec3 a(in.x[t.x]), b(in.x[t.y]), c(in.x[t.z]);
        value = std::abs(0.5f * glm::length(glm::cross(b - a, c - a)) / model.clothTriangleArea[k] - 1.0f);
        break;
      }
      default: value = 0.0f;  // no membrane stress measure yet
    }
  }
}

void computeConstraintError(const FieldInputs& in, std::vector<float>& out) {
  const SimModel& model = *in.model;
  out.assign(model.vertexCount(), 0.0f);
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const glm::uvec2 ends = model.edges[e];
    const float C = std::abs(glm::distance(glm::vec3(in.x[ends.x]), glm::vec3(in.x[ends.y])) - model.restLength[e]);
    // A NaN length marks both ends (std::max(NaN, c) keeps the NaN), so a blow-up shows.
    for (uint32_t v : {ends.x, ends.y}) out[v] = std::isnan(C) ? C : std::max(out[v], C);
  }
  if (in.colliders == nullptr) return;
  const ColliderRecords colliders = packColliders(*in.colliders);
  for (uint32_t v = 0; v < model.vertexCount(); ++v) {
    float depth = 0.0f;
    forEachCollider(colliders, glm::vec3(in.x[v]),
                    [&](const ColliderSample& s) { depth = std::max(depth, -s.phi); });
    out[v] = std::max(out[v], depth);
  }
}

}  // namespace

void computeField(ColorField field, const FieldInputs& in, ScalarField& out) {
  out.field = field;
  out.domain = colorFieldDomain(field);
  out.min = out.max = 0.0f;
  if (in.model == nullptr || in.x.size() != in.model->vertexCount()) {
    out.domain = FieldDomain::kNone;
    out.values.clear();
    return;
  }
  const SimModel& model = *in.model;
  switch (field) {
    case ColorField::kNone: out.values.clear(); break;
    case ColorField::kVertexColor: vertexColorIndices(model, out.values); break;
    case ColorField::kElementColor: tetColorIndices(model, out.values); break;
    case ColorField::kStrain:
    case ColorField::kVolumeChange:
    case ColorField::kStress: computePerTet(in, field, out.values); break;
    case ColorField::kSpeed:
      out.values.resize(model.vertexCount());
      for (uint32_t v = 0; v < model.vertexCount(); ++v)
        out.values[v] = v < in.v.size() ? glm::length(glm::vec3(in.v[v])) : 0.0f;
      break;
    case ColorField::kConstraintError: computeConstraintError(in, out.values); break;
  }
  bool any = false;
  for (float value : out.values) {
    if (!std::isfinite(value)) continue;
    out.min = any ? std::min(out.min, value) : value;
    out.max = any ? std::max(out.max, value) : value;
    any = true;
  }
}

}  // namespace tetlab
