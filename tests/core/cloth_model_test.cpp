// Cloth bodies in the model (core/model/model_builder.cpp, body_constants.cpp):
// the lumped mass is rho h A, the edge-spring membrane has the plane-stress
// energy of its material (material.h: clothEdgeModulus), the edges toggle
// keeps gating the solids' springs only, and broken sheets are refused with
// the body and triangle named.
#include <gtest/gtest.h>

#include <cmath>

#include "core/model/body_constants.h"
#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/energy.h"
#include "core/sim/state_setup.h"

namespace tetlab {
namespace {

constexpr float kSide = 0.5f;        // [m]
constexpr float kThickness = 2e-3f;  // [m]
constexpr float kDensity = 300.0f;   // [kg/m^3]
constexpr float kYoungs = 2.0e6f;    // [Pa]

BodyDesc clothBody(glm::uvec2 cells = {8, 6}) {
  SurfaceMesh patch = makeClothPatch(glm::vec3(-0.25f, 1.0f, -0.25f), glm::vec2(kSide), cells);
  BodyDesc b = clothBody(patch);
  b.material.youngsModulus = kYoungs;
  b.material.density = kDensity;
  b.material.thickness = kThickness;
  b.name = "sheet";
  return b;
}

TEST(ClothPatch, GridOfCounterClockwiseTrianglesFacingUp) {
  const SurfaceMesh m = makeClothPatch(glm::vec3(0.0f), glm::vec2(1.0f, 2.0f), glm::uvec2(4, 3));
  EXPECT_EQ(m.positions.size(), 5u * 4u);
  ASSERT_EQ(m.triangles.size(), 2u * 4u * 3u);
  double area = 0.0;
  for (const glm::uvec3& t : m.triangles) {
    const glm::vec3 n = glm::cross(m.positions[t.y] - m.positions[t.x], m.positions[t.z] - m.positions[t.x]);
    EXPECT_GT(n.y, 0.0f) << "every triangle faces +y";
    area += 0.5 * double(glm::length(n));
  }
  EXPECT_NEAR(area, 2.0, 1e-6);
}

TEST(ClothModel, LumpedMassIsDensityTimesThicknessTimesArea) {
  const BodyDesc body = clothBody();
  Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  ASSERT_TRUE(model.ok()) << model.error().message;
  EXPECT_EQ(model->tetCount(), 0u);
  EXPECT_TRUE(model->isCloth(0));
  EXPECT_EQ(model->clothTriangles.size(), body.triangles.size());
  EXPECT_EQ(model->boundaryTriangles.size(), body.triangles.size()) << "the sheet is drawn and touched";
  EXPECT_EQ(model->surfaceVertices.size(), model->vertexCount());
  // Unique edges of an 8 x 6 grid with one diagonal per cell: 8*7 + 9*6 + 48.
  EXPECT_EQ(model->edgeCount(), 8u * 7u + 9u * 6u + 48u);
  double mass = 0.0;
  for (float m : model->mass) {
    EXPECT_GT(m, 0.0f);
    mass += m;
  }
  EXPECT_NEAR(mass, double(kDensity) * kThickness * kSide * kSide, 1e-6 * mass);
}

// Under x -> (1 + eps) x every edge stretches by eps L, so the spring energy is
// sum 1/2 k_e (eps L_e)^2 = 1.5 E h eps^2 sum A_e: the plane-stress energy
// E h A eps^2 / (1 - nu) of a uniform dilation with nu = 1/3 (material.h).
// The sheet scaled by 1 + eps about a point in its plane.
State dilated(const SimModel& model, float eps) {
  State state = makeState(model);
  const glm::vec3 centre(0.0f, 1.0f, 0.0f);
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    state.x[i] = glm::vec4(centre + (1.0f + eps) * (model.restPositions[i] - centre), state.x[i].w);
  return state;
}

TEST(ClothModel, EdgeSpringEnergyOfAUniformDilationIsPlaneStress) {
  const BodyDesc body = clothBody({7, 5});
  Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  ASSERT_TRUE(model.ok()) << model.error().message;
  const float eps = 0.01f;
  const State state = dilated(*model, eps);
  SolverSettings settings;
  settings.step.constraints.edges = false;  // the solids' toggle: a cloth's springs act regardless
  settings.step.constraints.membrane = false;
  const double nu = 1.0 / 3.0;
  const double expected = double(kYoungs) * kThickness * kSide * kSide * eps * eps / (1.0 - nu);
  EXPECT_NEAR(computeElasticEnergy(*model, settings, state), expected, 1e-3 * expected);
}

// The membrane (cloth_membrane.h) under the same dilation: E = e I with
// e = eps + eps^2 / 2 and W = A e^2 (2 mu_h + 2 lambda_h) = E h A e^2 / (1 - nu),
// the plane-stress energy with the material's own nu (the springs' is fixed at 1/3).
TEST(ClothModel, MembraneEnergyOfAUniformDilationIsPlaneStressWithTheMaterialsPoissonRatio) {
  for (float nu : {0.0f, 0.3f, 0.45f}) {
    BodyDesc body = clothBody({7, 5});
    body.material.poissonRatio = nu;
    Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1));
    ASSERT_TRUE(model.ok()) << model.error().message;
    ASSERT_EQ(model->membraneCount(), model->clothTriangles.size());
    const float eps = 0.01f;
    const State state = dilated(*model, eps);
    SolverSettings settings;
    settings.step.constraints.bending = false;
    ASSERT_TRUE(settings.step.constraints.membrane) << "the membrane is the default cloth stretch";
    const double e = eps + 0.5 * eps * eps;
    const double expected = double(kYoungs) * kThickness * kSide * kSide * e * e / (1.0 - double(nu));
    EXPECT_NEAR(computeElasticEnergy(*model, settings, state), expected, 2e-3 * expected) << "nu " << nu;
  }
}

TEST(ClothModel, EdgesToggleGatesTheSolidsSpringsAndMembraneToggleTheCloths) {
  std::vector<BodyDesc> bodies;
  bodies.push_back(BodyDesc{makeBoxTetMesh(glm::vec3(0.0f), glm::vec3(0.1f), glm::uvec3(1)), Material{}, "box"});
  bodies.push_back(clothBody({2, 2}));
  Result<SimModel> model = buildSimModel(bodies);
  ASSERT_TRUE(model.ok()) << model.error().message;
  const SpringChoice clothSprings{.solidEdges = false, .clothMembrane = false};
  EXPECT_TRUE(anyEdgeSprings(*model, clothSprings));
  std::vector<float> k;
  packEdgeStiffness(*model, clothSprings, k);
  for (uint32_t e = 0; e < model->edgeCount(); ++e) {
    const bool cloth = model->isCloth(model->vertexBody[model->edges[e].x]);
    if (cloth) {
      // k_e = 3 E h A_e / L^2 (material.h).
      EXPECT_NEAR(k[e], 3.0 * kYoungs * kThickness * model->edgeVolume[e] / std::pow(model->restLength[e], 2.0),
                  1e-5 * k[e]);
    } else {
      EXPECT_EQ(k[e], 0.0f) << "a solid's edge springs are off with the toggle";
    }
  }
  packEdgeStiffness(*model, {.solidEdges = true, .clothMembrane = false}, k);
  for (uint32_t e = 0; e < model->edgeCount(); ++e) EXPECT_GT(k[e], 0.0f);
  // With its membrane on, the cloth's edges carry no springs: the triangles are its stretch.
  const SpringChoice membrane{.solidEdges = false, .clothMembrane = true};
  EXPECT_FALSE(anyEdgeSprings(*model, membrane));
  packEdgeStiffness(*model, {.solidEdges = true, .clothMembrane = true}, k);
  for (uint32_t e = 0; e < model->edgeCount(); ++e)
    EXPECT_EQ(k[e] > 0.0f, !model->isCloth(model->vertexBody[model->edges[e].x])) << "edge " << e;
}

TEST(ClothModel, RefusesZeroAreaTrianglesAndNonPositiveThickness) {
  BodyDesc sliver = clothBody({2, 2});
  sliver.mesh.positions.push_back(sliver.mesh.positions[0] + glm::vec3(0.1f, 0.0f, 0.0f));
  sliver.mesh.positions.push_back(sliver.mesh.positions[0] + glm::vec3(0.2f, 0.0f, 0.0f));
  const uint32_t n = uint32_t(sliver.mesh.positions.size());
  sliver.triangles.emplace_back(0u, n - 2, n - 1);  // three collinear points
  Result<SimModel> a = buildSimModel(std::span<const BodyDesc>(&sliver, 1));
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("body 'sheet'"), std::string::npos) << a.error().message;
  EXPECT_NE(a.error().message.find("cloth triangle"), std::string::npos) << a.error().message;

  BodyDesc thin = clothBody({2, 2});
  thin.material.thickness = 0.0f;
  Result<SimModel> b = buildSimModel(std::span<const BodyDesc>(&thin, 1));
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("thickness"), std::string::npos) << b.error().message;

  BodyDesc loose = clothBody({2, 2});
  loose.mesh.positions.push_back(glm::vec3(5.0f));  // in no triangle: no mass
  Result<SimModel> c = buildSimModel(std::span<const BodyDesc>(&loose, 1));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("used by no triangle"), std::string::npos) << c.error().message;
}

}  // namespace
}  // namespace tetlab
