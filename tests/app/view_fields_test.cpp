// View field maths against analytic deformations: affine maps have a known F,
// Green strain and volume change; the Neo-Hookean stress is the energy's
// gradient (checked by finite differences of the project's one energy
// function); von Mises has textbook values for hydrostatic, uniaxial and
// shear states.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include "app/render/colormap.h"
#include "app/render/view_fields.h"
#include "core/mesh/embedding.h"
#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/state_setup.h"
#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/neo_hookean.clh"

namespace tetlab {
namespace {

SimModel boxModel(glm::uvec3 cells = {2, 2, 2}, Material material = {}) {
  BodyDesc body;
  body.mesh = makeBoxTetMesh(glm::vec3(0.0f), glm::vec3(1.0f), cells);
  body.material = material;
  body.name = "box";
  Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << model.error().message;
  return std::move(model).value();
}

// x = A X + b for every vertex (w kept).
void applyAffine(const SimModel& model, const glm::mat3& A, glm::vec3 b, State& state) {
  for (uint32_t v = 0; v < model.vertexCount(); ++v)
    state.x[v] = glm::vec4(A * model.restPositions[v] + b, state.x[v].w);
}

float maxAbsDifference(const glm::mat3& a, const glm::mat3& b) {
  float m = 0.0f;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m = std::max(m, std::abs(a[c][r] - b[c][r]));
  return m;
}

const glm::mat3 kStretchShear(glm::vec3(1.2f, 0.1f, 0.0f), glm::vec3(-0.05f, 0.9f, 0.2f), glm::vec3(0.0f, 0.0f, 1.1f));

TEST(ViewFields, AffineDeformationGivesItsMatrixAsFAndTheAnalyticGreenStrain) {
  const SimModel model = boxModel();
  State state = makeState(model);
  applyAffine(model, kStretchShear, glm::vec3(0.3f, -2.0f, 5.0f), state);
  const glm::mat3 E = 0.5f * (glm::transpose(kStretchShear) * kStretchShear - glm::mat3(1.0f));
  const float expectedNorm = frobeniusNorm(E);
  // |E|_F by hand from the entries, independent of frobeniusNorm.
  float sum = 0.0f;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) sum += E[c][r] * E[c][r];
  EXPECT_NEAR(expectedNorm, std::sqrt(sum), 1e-6f);

  for (uint32_t t = 0; t < model.tetCount(); ++t) {
    const glm::mat3 F = deformationGradient(model, state.x, t);
    // Float rounding of unit-cell differences: a few ulps of the entries.
    EXPECT_LT(maxAbsDifference(F, kStretchShear), 1e-5f) << "tet " << t;
    EXPECT_LT(maxAbsDifference(greenStrain(F), E), 1e-5f) << "tet " << t;
  }
  ScalarField strain;
  computeField(ColorField::kStrain, {&model, state.x, state.v, nullptr}, strain);
  ASSERT_EQ(strain.domain, FieldDomain::kTet);
  ASSERT_EQ(strain.values.size(), model.tetCount());
  for (float value : strain.values) EXPECT_NEAR(value, expectedNorm, 1e-5f);

  ScalarField volume;
  computeField(ColorField::kVolumeChange, {&model, state.x, state.v, nullptr}, volume);
  const float expectedVolume = std::abs(glm::determinant(kStretchShear) - 1.0f);
  for (float value : volume.values) EXPECT_NEAR(value, expectedVolume, 1e-5f);
  EXPECT_NEAR(volume.max, expectedVolume, 1e-5f);
}

TEST(ViewFields, RigidMotionHasNoStrainNoVolumeChangeAndNoStress) {
  const SimModel model = boxModel();
  State state = makeState(model);
  const float a = 0.7f;
  const glm::mat3 R(glm::vec3(std::cos(a), std::sin(a), 0.0f), glm::vec3(-std::sin(a), std::cos(a), 0.0f),
                    glm::vec3(0.0f, 0.0f, 1.0f));
  applyAffine(model, R, glm::vec3(1.0f, 2.0f, 3.0f), state);
  for (ColorField field : {ColorField::kStrain, ColorField::kVolumeChange, ColorField::kStress}) {
    ScalarField out;
    computeField(field, {&model, state.x, state.v, nullptr}, out);
    // Float rounding leaves |F - R| ~ 1e-6, times lambda + 2 mu ~ 1.7e6 Pa: a few Pa of stress.
    const float tolerance = field == ColorField::kStress ? 20.0f : 2e-5f;
    EXPECT_LT(out.max, tolerance) << colorFieldName(field);
  }
}

TEST(ViewFields, NeoHookeanPiolaIsTheEnergyGradient) {
  const NeoHookeanParameters p = neoHookeanFromMaterial(Material{1.0e6f, 0.3f, 1000.0f, 0.0f});
  EXPECT_LT(maxAbsDifference(neoHookeanPiola(glm::mat3(1.0f), p), glm::mat3(0.0f)), 1e-6f * p.mu)
      << "the rest state is stress free (gamma = 1 + mu / lambda)";
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.25, 0.25);
  for (int trial = 0; trial < 5; ++trial) {
    glm::dmat3 F(1.0);
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) F[c][r] += u(rng);
    const glm::mat3 P = neoHookeanPiola(glm::mat3(F), p);
    // Central differences of psi in double (the .clh energy is float, so evaluate the same formula in double).
    auto psi = [&](const glm::dmat3& G) {
      double Ic = 0.0;
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) Ic += G[c][r] * G[c][r];
      const double dJ = glm::determinant(G) - (1.0 + double(p.mu) / p.lambda);
      return 0.5 * p.mu * (Ic - 3.0) + 0.5 * p.lambda * dJ * dJ - 0.5 * double(p.mu) * p.mu / p.lambda;
    };
    // The double formula is the project's energy: compare with the float .clh at F.
    const glm::mat3 Ff(F);
    EXPECT_NEAR(psi(F), clm::nh_energy_density(clm::mat3_cols(Ff[0], Ff[1], Ff[2]), p.mu, p.lambda), 1e-5 * p.mu);
    const double h = 1e-6;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) {
        glm::dmat3 Fp = F, Fm = F;
        Fp[c][r] += h;
        Fm[c][r] -= h;
        const double dpsi = (psi(Fp) - psi(Fm)) / (2.0 * h);
        EXPECT_NEAR(P[c][r], dpsi, 1e-5 * p.lambda) << "entry (" << r << "," << c << ")";
      }
  }
}

TEST(ViewFields, VonMisesOfTextbookStressStates) {
  const float s = 3.0e5f;
  EXPECT_NEAR(vonMises(glm::mat3(s)), 0.0f, 1e-6f * s) << "hydrostatic";
  glm::mat3 uniaxial(0.0f);
  uniaxial[0][0] = s;
  EXPECT_NEAR(vonMises(uniaxial), s, 1e-6f * s) << "uniaxial: sigma_vM = |sigma|";
  glm::mat3 shear(0.0f);
  shear[0][1] = shear[1][0] = s;
  EXPECT_NEAR(vonMises(shear), std::sqrt(3.0f) * s, 1e-6f * s) << "pure shear: sqrt(3) tau";
  // A uniform dilation of the Neo-Hookean solid is a hydrostatic Cauchy stress.
  const NeoHookeanParameters p = neoHookeanFromMaterial(Material{});
  const glm::mat3 sigma = cauchyStress(glm::mat3(1.05f), p);
  EXPECT_GT(std::abs(sigma[0][0]), 1e3f);
  EXPECT_NEAR(vonMises(sigma), 0.0f, 1e-5f * std::abs(sigma[0][0]));
  EXPECT_EQ(vonMises(cauchyStress(glm::mat3(-1.0f), p)), 0.0f) << "inverted: no Cauchy stress";
}

TEST(ViewFields, SmallUniaxialStretchGivesLinearElasticStress) {
  // Linearised at rest the material has Lame mu, lambda_lin (material.h); under
  // F = diag(1 + e, 1, 1): sigma_xx = (lambda + 2 mu) e, sigma_yy = sigma_zz = lambda e,
  // so sigma_vM = |sigma_xx - sigma_yy| = 2 mu e, up to O(e^2).
  const Material material{1.0e6f, 0.3f, 1000.0f, 0.0f};
  const LameParameters lame = lameFromYoungPoisson(material.youngsModulus, material.poissonRatio);
  const float e = 1e-3f;
  glm::mat3 F(1.0f);
  F[0][0] = 1.0f + e;
  const glm::mat3 sigma = cauchyStress(F, neoHookeanFromMaterial(material));
  EXPECT_NEAR(sigma[0][0], (lame.lambda + 2.0f * lame.mu) * e, 5e-3f * (lame.lambda + 2.0f * lame.mu) * e);
  EXPECT_NEAR(sigma[1][1], lame.lambda * e, 5e-3f * (lame.lambda + 2.0f * lame.mu) * e);
  EXPECT_NEAR(vonMises(sigma), 2.0f * lame.mu * e, 5e-3f * 2.0f * lame.mu * e);
}

TEST(ViewFields, SpeedIsTheVelocityMagnitude) {
  const SimModel model = boxModel();
  State state = makeState(model);
  for (uint32_t v = 0; v < model.vertexCount(); ++v) state.v[v] = glm::vec4(0.1f * v, -2.0f, 0.5f, 99.0f);
  ScalarField speed;
  computeField(ColorField::kSpeed, {&model, state.x, state.v, nullptr}, speed);
  ASSERT_EQ(speed.domain, FieldDomain::kVertex);
  ASSERT_EQ(speed.values.size(), model.vertexCount());
  for (uint32_t v = 0; v < model.vertexCount(); ++v)
    EXPECT_FLOAT_EQ(speed.values[v], std::sqrt(0.01f * v * v + 4.0f + 0.25f)) << "w must not count";
}

TEST(ViewFields, ConstraintErrorIsEdgeLengthErrorOrPenetration) {
  const SimModel model = boxModel({1, 1, 1});
  State state = makeState(model);
  Colliders colliders;
  colliders.ground.height = -1.0f;  // far below: no penetration
  ScalarField error;
  computeField(ColorField::kConstraintError, {&model, state.x, state.v, &colliders}, error);
  EXPECT_EQ(error.max, 0.0f) << "rest state";

  // Move vertex 0 (corner (0,0,0)) by d along -x: its edge to (1,0,0) grows by exactly d,
  // every other incident edge grows by less (|l - L| <= d by the triangle inequality).
  const float d = 0.05f;
  state.x[0].x -= d;
  computeField(ColorField::kConstraintError, {&model, state.x, state.v, &colliders}, error);
  EXPECT_NEAR(error.values[0], d, 1e-6f);
  EXPECT_NEAR(error.values[1], d, 1e-6f) << "vertex (1,0,0) shares that edge";
  EXPECT_NEAR(error.max, d, 1e-6f);

  // Now push the ground up through the box bottom: penetration depth 0.2 for y = 0 vertices.
  state = makeState(model);
  colliders.ground.height = 0.2f;
  computeField(ColorField::kConstraintError, {&model, state.x, state.v, &colliders}, error);
  for (uint32_t v = 0; v < model.vertexCount(); ++v)
    EXPECT_NEAR(error.values[v], model.restPositions[v].y == 0.0f ? 0.2f : 0.0f, 1e-6f) << v;
  SphereCollider sphere;
  sphere.center = glm::vec3(1.0f, 1.0f, 1.0f);
  sphere.radius = 0.5f;
  colliders.ground.enabled = false;
  colliders.spheres.push_back(sphere);
  computeField(ColorField::kConstraintError, {&model, state.x, state.v, &colliders}, error);
  EXPECT_NEAR(error.values[7], 0.5f, 1e-6f) << "corner (1,1,1) at the sphere centre";
}

TEST(ViewFields, TetAverageIsVolumeWeightedAndKeepsConstants) {
  const SimModel model = boxModel();
  std::vector<float> perTet(model.tetCount(), 2.5f), perVertex;
  averageTetsToVertices(model, perTet, perVertex);
  ASSERT_EQ(perVertex.size(), model.vertexCount());
  for (float value : perVertex) EXPECT_FLOAT_EQ(value, 2.5f);
  // One tet at 1, the rest 0: each of its corners gets V_t / sum of its incident volumes.
  std::fill(perTet.begin(), perTet.end(), 0.0f);
  perTet[3] = 1.0f;
  averageTetsToVertices(model, perTet, perVertex);
  for (int k = 0; k < 4; ++k) {
    const uint32_t v = model.tets[3][k];
    double incident = 0.0;
    for (uint32_t i = model.vertexTets.offsets[v]; i < model.vertexTets.offsets[v + 1]; ++i)
      incident += model.restVolume[model.vertexTets.items[i] / 4];
    EXPECT_NEAR(perVertex[v], model.restVolume[3] / incident, 1e-6);
  }
}

TEST(ViewFields, GraphColourIndicesFollowTheModelsRangesAndAreProper) {
  const SimModel model = boxModel({3, 2, 2});
  std::vector<float> vertexColor, tetColor;
  vertexColorIndices(model, vertexColor);
  tetColorIndices(model, tetColor);
  ASSERT_EQ(vertexColor.size(), model.vertexCount());
  ASSERT_EQ(tetColor.size(), model.tetCount());
  // Proper colourings: no tet has two vertices of one colour; tets of one colour share no vertex.
  for (uint32_t t = 0; t < model.tetCount(); ++t)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) EXPECT_NE(vertexColor[model.tets[t][a]], vertexColor[model.tets[t][b]]);
  for (uint32_t v = 0; v < model.vertexCount(); ++v)
    for (uint32_t i = model.vertexTets.offsets[v]; i < model.vertexTets.offsets[v + 1]; ++i)
      for (uint32_t j = i + 1; j < model.vertexTets.offsets[v + 1]; ++j)
        EXPECT_NE(tetColor[model.vertexTets.items[i] / 4], tetColor[model.vertexTets.items[j] / 4]);
  EXPECT_EQ(uint32_t(*std::max_element(tetColor.begin(), tetColor.end())) + 1, model.tetColors.count());
}

TEST(ViewFields, EmbeddingSamplesReproduceALinearField) {
  const SimModel model = boxModel();
  TetMesh tets{model.restPositions, model.tets};
  const std::vector<glm::vec3> points = {{0.1f, 0.2f, 0.3f}, {0.9f, 0.5f, 0.5f}, {0.45f, 0.77f, 0.05f}};
  Result<SurfaceEmbedding> embedding = embedPoints(tets, points);
  ASSERT_TRUE(embedding.ok()) << embedding.error().message;
  // f(x) = 2x - y + 3z + 1 at the sim vertices; barycentric interpolation is exact for linear f.
  std::vector<float> perVertex(model.vertexCount()), sampled;
  for (uint32_t v = 0; v < model.vertexCount(); ++v) {
    const glm::vec3 p = model.restPositions[v];
    perVertex[v] = 2.0f * p.x - p.y + 3.0f * p.z + 1.0f;
  }
  sampleAtEmbedding(*embedding, perVertex, sampled);
  ASSERT_EQ(sampled.size(), points.size());
  for (size_t i = 0; i < points.size(); ++i)
    EXPECT_NEAR(sampled[i], 2.0f * points[i].x - points[i].y + 3.0f * points[i].z + 1.0f, 1e-5f);
}

TEST(ViewFields, NonFiniteValuesStayOutOfTheRange) {
  const SimModel model = boxModel({1, 1, 1});
  State state = makeState(model);
  state.v[2] = glm::vec4(NAN, 0.0f, 0.0f, 0.0f);
  state.v[3] = glm::vec4(3.0f, 4.0f, 0.0f, 0.0f);
  ScalarField speed;
  computeField(ColorField::kSpeed, {&model, state.x, state.v, nullptr}, speed);
  EXPECT_TRUE(std::isnan(speed.values[2]));
  EXPECT_FLOAT_EQ(speed.max, 5.0f);
  EXPECT_FLOAT_EQ(speed.min, 0.0f);
  ScalarField none;
  computeField(ColorField::kStrain, {&model, std::span<const glm::vec4>(state.x).first(3), state.v, nullptr}, none);
  EXPECT_EQ(none.domain, FieldDomain::kNone) << "positions of another model are refused, not read out of range";
}

}  // namespace
}  // namespace tetlab

namespace tetlab {
namespace {

TEST(BodyAlbedo, FirstBodyKeepsTheMaterialColourAndNeighboursDiffer) {
  const glm::vec3 base{0.82f, 0.45f, 0.30f};
  EXPECT_EQ(bodyAlbedo(base, 0), base);
  // Bodies of a pile must be told apart: every pair of the first eight differs
  // by a visible step (0.1 in some sRGB channel).
  for (int a = 0; a < 8; ++a)
    for (int b = a + 1; b < 8; ++b) {
      const glm::vec3 d = glm::abs(bodyAlbedo(base, a) - bodyAlbedo(base, b));
      EXPECT_GT(std::max({d.x, d.y, d.z}), 0.1f) << a << " vs " << b;
    }
}

// A sheet has no tets: its strain and area change come from its triangles.
// Stretched by (1 + s) along x and tilted out of its plane (a rotation does
// not strain), every triangle has E = diag(((1 + s)^2 - 1) / 2, 0), so
// |E|_F = ((1 + s)^2 - 1) / 2, and the area grows by s; the vertices carry it.
TEST(ViewFields, ClothStrainAndAreaChangeOfAUniformStretch) {
  const SurfaceMesh patch = makeClothPatch(glm::vec3(0.0f), glm::vec2(0.4f, 0.3f), glm::uvec2(4, 3));
  BodyDesc body = clothBody(patch);
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  ASSERT_TRUE(model.ok()) << model.error().message;
  State state = makeState(*model);
  const float s = 0.1f, c = std::cos(0.6f), sn = std::sin(0.6f);
  for (uint32_t i = 0; i < model->vertexCount(); ++i) {
    const glm::vec3 p = model->restPositions[i];
    const glm::vec3 stretched(p.x * (1.0f + s), p.y, p.z);
    state.x[i] = glm::vec4(c * stretched.x - sn * stretched.z, stretched.y + 0.2f, sn * stretched.x + c * stretched.z,
                           state.x[i].w);  // rotated about y, lifted
  }
  const FieldInputs in{&*model, state.x, state.v, nullptr};
  const float expected = 0.5f * ((1.0f + s) * (1.0f + s) - 1.0f);
  ScalarField strain;
  computeField(ColorField::kStrain, in, strain);
  ASSERT_EQ(strain.values.size(), model->clothTriangles.size());
  for (float v : strain.values) EXPECT_NEAR(v, expected, 1e-5f);
  std::vector<float> perVertex;
  averageTetsToVertices(*model, strain.values, perVertex);
  for (float v : perVertex) EXPECT_NEAR(v, expected, 1e-5f);
  ScalarField area;
  computeField(ColorField::kVolumeChange, in, area);
  for (float v : area.values) EXPECT_NEAR(v, s, 1e-5f);
}

}  // namespace
}  // namespace tetlab
