// The mesh collider: a closed OBJ's signed distance sampled on a grid
// (core/sim/sdf_grid.h, core/mesh/triangle_distance.h), looked up by every
// solver on both backends (shaders/cl/common/sdf_grid.clh via collider_sample).
//
// The reference is the sphere of assets/meshes/sphere.obj (760 triangles,
// fitted into a unit cube: radius 0.5 up to its polygon): its true signed
// distance is |p| - 0.5 within the mesh's own flattening, which the test
// measures first (the largest gap between a face centre and the sphere).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <glm/geometric.hpp>

#include "core/mesh/obj_loader.h"
#include "core/mesh/triangle_distance.h"
#include "core/scene/mesh_collider_load.h"
#include "core/sim/collider_records.h"
#include "core/sim/sdf_grid.h"
#include "tests/cpu/physics_scenes.h"
#include "tests/preset_files.h"

namespace tetlab {
namespace {

using namespace phystest;

SurfaceMesh unitSphere() {
  ObjLoadOptions load;
  load.normalizeScale = true;
  load.fitSize = 1.0f;
  Result<LoadedSurface> s = loadObj((test::assetsDir() / "meshes" / "sphere.obj").string(), load);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? s->mesh : SurfaceMesh{};
}

// How far the polygon strays from the sphere of radius 0.5 (the Hausdorff
// distance: the deepest point of a face, or the farthest vertex), and the
// largest angle between a face's normal and the radial direction at its
// corners (the faceting an SDF of the polygon inherits in its normals).
struct Faceting {
  double distance = 0.0;  // [m]
  double angle = 0.0;     // [rad]
};

Faceting faceting(const SurfaceMesh& mesh) {
  Faceting f;
  for (const glm::uvec3& t : mesh.triangles) {
    const glm::dvec3 a(mesh.positions[t.x]), b(mesh.positions[t.y]), c(mesh.positions[t.z]);
    f.distance = std::max(f.distance, 0.5 - glm::length(closestPointOnTriangle(glm::dvec3(0.0), a, b, c)));
    const glm::dvec3 n = glm::normalize(glm::cross(b - a, c - a));
    for (const glm::dvec3& v : {a, b, c}) {
      f.distance = std::max(f.distance, std::fabs(glm::length(v) - 0.5));
      f.angle = std::max(f.angle, std::acos(std::min(1.0, glm::dot(n, glm::normalize(v)))));
    }
  }
  return f;
}

TEST(TriangleDistance, MatchesEveryTriangleByBruteForce) {
  const SurfaceMesh mesh = unitSphere();
  ASSERT_FALSE(mesh.triangles.empty());
  const TriangleDistance bvh(mesh);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int n = 0; n < 200; ++n) {
    const glm::dvec3 q(u(rng), u(rng), u(rng));
    double brute = INFINITY;
    for (const glm::uvec3& t : mesh.triangles)
      brute = std::min(brute, glm::length(q - closestPointOnTriangle(q, glm::dvec3(mesh.positions[t.x]),
                                                                         glm::dvec3(mesh.positions[t.y]),
                                                                         glm::dvec3(mesh.positions[t.z]))));
    EXPECT_EQ(bvh.distance(q), brute) << "query " << n;
  }
}

// Corner, edge and face regions of one triangle, against the closed forms.
TEST(TriangleDistance, ClosestPointPicksTheRightRegion) {
  const glm::dvec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  EXPECT_EQ(closestPointOnTriangle({-1, -1, 2}, a, b, c), a);
  EXPECT_EQ(closestPointOnTriangle({2, -0.5, 1}, a, b, c), b);
  EXPECT_EQ(closestPointOnTriangle({0.5, -3, 0}, a, b, c), glm::dvec3(0.5, 0, 0));
  EXPECT_EQ(closestPointOnTriangle({1, 1, 0}, a, b, c), glm::dvec3(0.5, 0.5, 0));
  EXPECT_EQ(closestPointOnTriangle({0.25, 0.25, 3}, a, b, c), glm::dvec3(0.25, 0.25, 0));
}

// The grid's nodes hold the mesh's signed distance: |p| - 0.5 within the
// flattening; sampled (trilinear) between nodes the error adds the
// interpolation of a curved field, at most cell^2 / (8 R) per axis for a
// sphere of radius R (|phi''| <= 1/R across a cell), summed over 3 axes;
// the normal is the radial direction within the faceting plus the stencil's
// error (h / R, h half a cell).
TEST(SdfGrid, SamplesTheSphereAndInterpolatesBetweenNodes) {
  const SurfaceMesh mesh = unitSphere();
  const Faceting facets = faceting(mesh);
  const double flat = facets.distance;
  Result<SdfGrid> grid = sampleSdfGrid(mesh, 40, "sphere.obj");
  ASSERT_TRUE(grid.ok()) << grid.error().message;
  const SdfGrid& g = *grid;
  std::printf("[ measured ] grid %u x %u x %u, cell %.4f m, polygon off the sphere by %.2e m, facets %.3f rad\n",
              g.dims.x, g.dims.y, g.dims.z, double(g.cell), flat, facets.angle);
  EXPECT_LE(std::max({g.dims.x, g.dims.y, g.dims.z}), 40u);
  double worstNode = 0.0;
  for (uint32_t k = 0; k < g.dims.z; ++k)
    for (uint32_t j = 0; j < g.dims.y; ++j)
      for (uint32_t i = 0; i < g.dims.x; ++i) {
        const glm::dvec3 p = glm::dvec3(g.origin) + double(g.cell) * glm::dvec3(i, j, k);
        const double phi = g.phi[(size_t(k) * g.dims.y + j) * g.dims.x + i];
        worstNode = std::max(worstNode, std::fabs(phi - (glm::length(p) - 0.5)));
      }
  EXPECT_LT(worstNode, flat + 1e-6);

  // Through collider_sample: placed at (1, 2, 3), 0.8 m across (radius 0.4), turned.
  Colliders c;
  c.ground.enabled = false;
  MeshCollider m;
  m.center = {1.0f, 2.0f, 3.0f};
  m.size = 0.8f;
  const float a = 0.7f;
  m.rotation = glm::mat3(glm::vec3(std::cos(a), 0.0f, -std::sin(a)), glm::vec3(0.0f, 1.0f, 0.0f),
                         glm::vec3(std::sin(a), 0.0f, std::cos(a)));
  m.grid = std::make_shared<const SdfGrid>(g);
  c.meshes.push_back(m);
  const ColliderRecords records = packColliders(c);
  ASSERT_EQ(records.count(), 2u);
  const double cell = 0.8 * double(g.cell), R = 0.4;
  const double interpolation = 3.0 * cell * cell / (8.0 * R);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  double worst = 0.0, worstAngle = 0.0;
  for (int n = 0; n < 300; ++n) {
    glm::vec3 dir(u(rng), u(rng), u(rng));
    if (glm::length(dir) < 0.1f) continue;
    dir = glm::normalize(dir);
    const float r = 0.2f + 0.3f * (0.5f + 0.5f * u(rng));  // 0.2 .. 0.5 m from the centre: inside and out
    const glm::vec3 p = m.center + r * dir;
    int seen = 0;
    forEachCollider(records, p, [&](const ColliderSample& s) {
      ++seen;
      EXPECT_EQ(s.id, 1);
      worst = std::max(worst, std::fabs(double(s.phi) - (double(r) - R)));
      worstAngle = std::max(worstAngle, double(std::acos(std::min(1.0f, glm::dot(s.normal, dir)))));
    });
    EXPECT_EQ(seen, 1);
  }
  std::printf("[ measured ] placed sphere: worst |phi - (r - R)| %.2e m (bound %.2e), worst normal angle %.3f rad\n",
              worst, 0.8 * flat + interpolation, worstAngle);
  EXPECT_LT(worst, 0.8 * flat + interpolation);
  EXPECT_LT(worstAngle, facets.angle + 0.5 * cell / R);
  // Far outside the grid: the distance to the grid box plus the box face value,
  // and the normal the direction from the box (sdf_grid.clh, SDF_FAR).
  float farPhi = 0.0f;
  glm::vec3 farNormal(0.0f);
  forEachCollider(records, m.center + glm::vec3(0.0f, 3.0f, 0.0f), [&](const ColliderSample& s) {
    farPhi = s.phi;
    farNormal = s.normal;
  });
  EXPECT_NEAR(farPhi, 3.0f - 0.4f, 0.05f);
  EXPECT_NEAR(farNormal.y, 1.0f, 1e-5f);
}

TEST(SdfGrid, AnOpenSurfaceIsRejectedNamingTheFile) {
  SurfaceMesh mesh = unitSphere();
  mesh.triangles.resize(mesh.triangles.size() - 3);
  Result<SdfGrid> grid = sampleSdfGrid(mesh, 20, "holey.obj");
  ASSERT_FALSE(grid.ok());
  EXPECT_NE(grid.error().message.find("holey.obj"), std::string::npos) << grid.error().message;
  EXPECT_NE(grid.error().message.find("closed surface"), std::string::npos) << grid.error().message;
}

// A collider whose grid is not loaded keeps its slot and is never in contact.
TEST(MeshCollider, WithoutAGridItIsInert) {
  Colliders c;
  c.meshes.push_back(MeshCollider{});
  c.spheres.push_back({glm::vec3(0.0f), 1.0f, 0.5f});
  const ColliderRecords records = packColliders(c);
  EXPECT_EQ(records.count(), 3u);
  std::vector<int32_t> ids;
  forEachCollider(records, glm::vec3(0.0f, 5.0f, 0.0f), [&](const ColliderSample& s) { ids.push_back(s.id); });
  EXPECT_EQ(ids, (std::vector<int32_t>{0, 1}));  // ground, sphere (ids follow the record order: sphere before mesh)
}

class MeshColliderContact : public testing::TestWithParam<SolverKind> {};

// A block dropped onto the sphere mesh (0.5 m across, resting on nothing:
// ground off) lands on its top: no vertex inside deeper than the solver's
// contact tolerance (2 mm, as for the analytic colliders), and the sphere
// holds it up: its centre of mass stays above the sphere's top (y = 0.25)
// while it rocks on the apex (a block balanced on a sphere is unstable, and
// the faceted mesh tips it a little one way).
TEST_P(MeshColliderContact, ABlockLandsOnTheMeshAndStaysOut) {
  const SimModel model = buildBox({-0.05f, 0.4f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}, Material{1e5f, 0.3f, 1000, 0});
  SolverSettings settings;
  settings.solver = GetParam();
  settings.colliders.ground.enabled = false;
  MeshCollider m;
  m.mesh = "sphere.obj";
  m.size = 0.5f;
  m.center = {0.0f, 0.0f, 0.0f};
  m.resolution = 32;
  ASSERT_TRUE(loadMeshCollider(m, {test::assetsDir(), test::assetsDir() / "meshes"}).ok());
  settings.colliders.meshes.push_back(m);
  const ColliderRecords records = packColliders(settings.colliders);
  State state = makeState(model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(model, state);
  StepDiagnostics diag;
  float deepest = 0.0f;
  for (int f = 0; f < 45; ++f) {
    ASSERT_TRUE(run(model, settings, *solver, state, 1, diag));
    for (const glm::vec4& x : state.x)
      forEachCollider(records, glm::vec3(x), [&](const ColliderSample& s) { deepest = std::max(deepest, -s.phi); });
  }
  const glm::dvec3 com = centerOfMass(model, state);
  std::printf("%s block on a mesh sphere: centre of mass y %.4f m, lowest vertex %.4f m, deepest inside %.2e m\n",
              phystest::solverName(GetParam()), com.y, minY(state), deepest);
  EXPECT_LT(deepest, 2e-3f);
  EXPECT_GT(com.y, 0.25);
  EXPECT_LT(com.y, 0.4) << "it did not fall at all";
}

INSTANTIATE_TEST_SUITE_P(Solvers, MeshColliderContact,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         paramName);

}  // namespace
}  // namespace tetlab
