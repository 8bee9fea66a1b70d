// Picking against hand-built geometry with known answers: the triangle a ray
// through a unit cube must hit, misses, the camera ray through a projected
// point, and attachment weights that reproduce the hit point. Also prints the
// pick time on the 10k-triangle bunny and a 100k-triangle sphere (reported,
// never asserted).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include <glm/geometric.hpp>

#include "app/render/mesh_geometry.h"
#include "app/render/picking.h"
#include "core/mesh/embedding.h"
#include "core/mesh/obj_loader.h"
#include "core/model/generators.h"

namespace tetlab {
namespace {

// Unit cube [0,1]^3, corners i + 2j + 4k, triangles counter-clockwise from outside.
SurfaceMesh unitCube() {
  SurfaceMesh m;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) m.positions.push_back(glm::vec3(float(i), float(j), float(k)));
  m.triangles = {{0, 2, 3}, {0, 3, 1},   // z = 0, normal -z
                 {4, 5, 7}, {4, 7, 6},   // z = 1, normal +z
                 {0, 1, 5}, {0, 5, 4},   // y = 0
                 {2, 6, 7}, {2, 7, 3},   // y = 1
                 {0, 4, 6}, {0, 6, 2},   // x = 0
                 {1, 3, 7}, {1, 7, 5}};  // x = 1
  return m;
}

TEST(Picking, CubeTrianglesAreOutward) {
  const SurfaceMesh cube = unitCube();
  for (const glm::uvec3& t : cube.triangles) {
    const glm::vec3 a = cube.positions[t.x], b = cube.positions[t.y], c = cube.positions[t.z];
    const glm::vec3 n = glm::cross(b - a, c - a);
    EXPECT_GT(glm::dot(n, (a + b + c) / 3.0f - glm::vec3(0.5f)), 0.0f);
  }
}

TEST(Picking, RayHitsTheKnownTriangleOfAUnitCube) {
  const SurfaceMesh cube = unitCube();
  const Ray ray{{0.25f, 0.6f, 5.0f}, {0.0f, 0.0f, -1.0f}};
  const std::optional<SurfaceHit> hit = pickSurface(ray, cube.positions, cube.triangles);
  ASSERT_TRUE(hit.has_value());
  // The +z face z = 1 is split along (0,0)-(1,1); the point (0.25, 0.6) has y > x: triangle {4, 7, 6}.
  EXPECT_EQ(hit->triangle, 3u);
  EXPECT_NEAR(hit->t, 4.0f, 1e-6f);
  EXPECT_NEAR(glm::distance(hit->point, glm::vec3(0.25f, 0.6f, 1.0f)), 0.0f, 1e-6f);
  // point = b0 p4 + b1 p7 + b2 p6 with p4 = (0,0), p7 = (1,1), p6 = (0,1) in (x, y):
  // x = b1 = 0.25, y = b1 + b2 = 0.6 -> b2 = 0.35, b0 = 0.4.
  EXPECT_NEAR(hit->barycentric.x, 0.40f, 1e-6f);
  EXPECT_NEAR(hit->barycentric.y, 0.25f, 1e-6f);
  EXPECT_NEAR(hit->barycentric.z, 0.35f, 1e-6f);

  // The same ray from inside the cube hits the back of the z = 0 face... going -z from z = 0.5.
  const Ray inside{{0.25f, 0.6f, 0.5f}, {0.0f, 0.0f, -1.0f}};
  const std::optional<SurfaceHit> back = pickSurface(inside, cube.positions, cube.triangles);
  ASSERT_TRUE(back.has_value());
  EXPECT_NEAR(back->t, 0.5f, 1e-6f);
  EXPECT_TRUE(back->triangle == 0u || back->triangle == 1u);
}

TEST(Picking, MissesReturnNullopt) {
  const SurfaceMesh cube = unitCube();
  EXPECT_FALSE(pickSurface(Ray{{1.5f, 0.5f, 5.0f}, {0.0f, 0.0f, -1.0f}}, cube.positions, cube.triangles));
  EXPECT_FALSE(pickSurface(Ray{{0.5f, 0.5f, 5.0f}, {0.0f, 0.0f, 1.0f}}, cube.positions, cube.triangles))
      << "the cube is behind the ray";
  EXPECT_FALSE(pickSurface(Ray{{0.5f, 0.5f, 5.0f}, {0.0f, 0.0f, -1.0f}}, cube.positions, {}));
  EXPECT_FALSE(intersectRayTriangle(Ray{{0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, -1.0f}}, glm::vec3(0.0f), glm::vec3(1.0f),
                                    glm::vec3(2.0f)))
      << "degenerate triangle";
  // An out-of-range index is skipped, not read.
  const std::vector<glm::uvec3> bad = {{0u, 1u, 99u}};
  EXPECT_FALSE(pickSurface(Ray{{0.1f, 0.1f, 5.0f}, {0.0f, 0.0f, -1.0f}}, cube.positions, bad));
}

TEST(Picking, CameraRayPassesThroughTheProjectedPointWithLensShift) {
  OrbitCamera camera;
  camera.target = glm::vec3(0.3f, 0.2f, -0.1f);
  camera.distance = 2.5f;
  camera.lensShift = glm::vec2(0.3f, 0.0f);
  const glm::vec2 viewport(1280.0f, 720.0f);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  for (int i = 0; i < 20; ++i) {
    const glm::vec3 p = camera.target + glm::vec3(u(rng), u(rng), u(rng));
    const std::optional<glm::vec2> pixel = projectToScreen(camera, p, viewport);
    ASSERT_TRUE(pixel.has_value());
    const Ray ray = cameraRay(camera, *pixel, viewport);
    EXPECT_NEAR(glm::length(ray.direction), 1.0f, 1e-5f);
    // Distance from p to the ray, relative to the depth (float unprojection).
    const glm::vec3 d = p - ray.origin;
    const float off = glm::length(d - glm::dot(d, ray.direction) * ray.direction);
    EXPECT_LT(off, 1e-4f * glm::length(d)) << "point " << i;
  }
  EXPECT_FALSE(projectToScreen(camera, camera.eye() - 3.0f * camera.forward(), viewport)) << "behind the eye";
}

TEST(Picking, DragTargetStaysUnderTheCursorAtTheGrabbedDepth) {
  OrbitCamera camera;
  const glm::vec2 viewport(800.0f, 600.0f);
  const glm::vec3 grabbed(0.2f, 0.1f, 0.3f);
  const glm::vec2 cursor(520.0f, 210.0f);
  const glm::vec3 target = dragPlaneTarget(camera, cursor, viewport, grabbed);
  EXPECT_NEAR(glm::dot(target - grabbed, camera.forward()), 0.0f, 1e-5f) << "on the plane facing the camera";
  const std::optional<glm::vec2> back = projectToScreen(camera, target, viewport);
  ASSERT_TRUE(back.has_value());
  EXPECT_NEAR(back->x, cursor.x, 1e-2f);
  EXPECT_NEAR(back->y, cursor.y, 1e-2f);
  EXPECT_FALSE(intersectRayPlane(Ray{{0, 0, 0}, {1, 0, 0}}, glm::vec3(0, 1, 0), glm::vec3(0, 1, 0))) << "parallel";
}

TEST(Picking, EmbeddedAttachmentWeightsSumToOneAndReproduceTheHitPoint) {
  // A sphere surface embedded in a deformed 3x3x3 tet box; pick it through its centre.
  const TetMesh box = makeBoxTetMesh(glm::vec3(0.0f), glm::vec3(1.0f), {3, 3, 3});
  SurfaceMesh sphere = makeUvSphere(0.3f, 12, 24);
  for (glm::vec3& p : sphere.positions) p += glm::vec3(0.5f);
  Result<SurfaceEmbedding> embedding = embedPoints(box, sphere.positions);
  ASSERT_TRUE(embedding.ok()) << embedding.error().message;
  ASSERT_EQ(embedding->outsideVertices, 0u);
  // Deform the tet mesh (a non-affine bend) and move the render surface with it.
  std::vector<glm::vec4> x;
  for (const glm::vec3& p : box.positions)
    x.push_back(glm::vec4(p.x + 0.2f * p.y * p.y, p.y + 0.1f * p.z, p.z - 0.15f * p.x * p.y, 1.0f));
  std::vector<glm::vec3> rendered(sphere.positions.size());
  applyEmbedding(*embedding, x, rendered);

  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-0.2f, 0.2f);
  int hits = 0;
  for (int i = 0; i < 25; ++i) {
    const glm::vec3 aim = glm::vec3(0.62f, 0.55f, 0.5f) + glm::vec3(u(rng), u(rng), 0.0f);
    const Ray ray{aim + glm::vec3(0.0f, 0.0f, 4.0f), {0.0f, 0.0f, -1.0f}};
    const std::optional<SurfaceHit> hit = pickSurface(ray, rendered, sphere.triangles);
    if (!hit) continue;
    ++hits;
    const AttachmentWeights w = embeddedAttachment(*embedding, sphere.triangles[hit->triangle], hit->barycentric);
    ASSERT_EQ(w.vertices.size(), w.weights.size());
    ASSERT_FALSE(w.vertices.empty());
    EXPECT_LE(w.vertices.size(), 12u);
    float sum = 0.0f;
    glm::vec3 p(0.0f);
    for (size_t k = 0; k < w.vertices.size(); ++k) {
      EXPECT_GE(w.weights[k], 0.0f);
      for (size_t j = k + 1; j < w.vertices.size(); ++j) EXPECT_NE(w.vertices[k], w.vertices[j]) << "merged";
      sum += w.weights[k];
      p += w.weights[k] * glm::vec3(x[w.vertices[k]]);
    }
    EXPECT_NEAR(sum, 1.0f, 1e-5f);
    // Inside the tet mesh every embedding weight is >= 0, so the clamp changes nothing
    // and the weights interpolate the hit point exactly (float rounding only).
    EXPECT_LT(glm::distance(p, hit->point), 1e-5f);
  }
  EXPECT_GT(hits, 15);
}

TEST(Picking, NegativeExtrapolatedWeightsAreClampedOnlyWhenAsked) {
  // One render triangle whose first corner lies outside its tet (weights 1.2, -0.2).
  SurfaceEmbedding e;
  e.vertices = {{0, 1, 2, 3}, {4, 5, 6, 7}, {4, 5, 6, 7}};
  e.weights = {{1.2f, -0.2f, 0.0f, 0.0f}, {0.25f, 0.25f, 0.25f, 0.25f}, {1.0f, 0.0f, 0.0f, 0.0f}};
  const glm::uvec3 tri(0, 1, 2);
  const glm::vec3 bary(0.5f, 0.3f, 0.2f);
  const AttachmentWeights raw = embeddedAttachment(e, tri, bary, false);
  float sum = 0.0f, minimum = 1.0f;
  for (float w : raw.weights) sum += w, minimum = std::min(minimum, w);
  EXPECT_NEAR(sum, 1.0f, 1e-6f);
  EXPECT_NEAR(minimum, -0.1f, 1e-6f) << "0.5 * -0.2 on vertex 1";
  const AttachmentWeights clamped = embeddedAttachment(e, tri, bary, true);
  sum = 0.0f;
  for (float w : clamped.weights) {
    EXPECT_GT(w, 0.0f);
    sum += w;
  }
  EXPECT_NEAR(sum, 1.0f, 1e-6f);
  EXPECT_EQ(std::find(clamped.vertices.begin(), clamped.vertices.end(), 1u), clamped.vertices.end())
      << "the vertex with a negative weight is dropped";
  // Vertex 4: 0.3 * 0.25 + 0.2 * 1.0 = 0.275 of the unclamped 1.1 total left after dropping -0.1.
  const auto it = std::find(clamped.vertices.begin(), clamped.vertices.end(), 4u);
  ASSERT_NE(it, clamped.vertices.end());
  EXPECT_NEAR(clamped.weights[size_t(it - clamped.vertices.begin())], 0.275f / 1.1f, 1e-6f);
}

TEST(Picking, NearestVertex) {
  const std::vector<glm::vec4> x = {{0, 0, 0, 1}, {1, 0, 0, 1}, {0, 2, 0, 0}, {0.4f, 0.1f, 0, 1}};
  EXPECT_EQ(nearestVertex(x, glm::vec3(0.3f, 0.0f, 0.0f)), 3u);
  EXPECT_EQ(nearestVertex(x, glm::vec3(0.0f, 1.7f, 0.0f)), 2u);
  EXPECT_FALSE(nearestVertex({}, glm::vec3(0.0f)));
  const std::vector<uint32_t> candidates = {0u, 1u, 42u};
  EXPECT_EQ(nearestVertexAmong(x, candidates, glm::vec3(0.3f, 0.0f, 0.0f)), 0u) << "3 is not a candidate";
  EXPECT_FALSE(nearestVertexAmong(x, {}, glm::vec3(0.0f)));
}

// Average time of one pickSurface over a grid of rays covering the mesh on screen.
double measurePickMs(const SurfaceMesh& mesh, int* outHits) {
  OrbitCamera camera;
  const Bounds b = computeBounds(mesh.positions);
  const glm::vec2 viewport(1280.0f, 720.0f);
  camera.fitToBounds(b.min, b.max, viewport.x / viewport.y);
  std::vector<Ray> rays;
  for (int j = 0; j < 10; ++j)
    for (int i = 0; i < 20; ++i)
      rays.push_back(cameraRay(camera, glm::vec2(340.0f + 30.0f * i, 160.0f + 40.0f * j), viewport));
  int hits = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const Ray& ray : rays) {
    const std::optional<SurfaceHit> hit = pickSurface(ray, mesh.positions, mesh.triangles);
    if (!hit) continue;
    ++hits;
    // Every hit lies on its ray and inside its triangle.
    EXPECT_LT(glm::distance(hit->point, ray.origin + hit->t * ray.direction), 1e-5f * (1.0f + hit->t));
    EXPECT_NEAR(hit->barycentric.x + hit->barycentric.y + hit->barycentric.z, 1.0f, 1e-5f);
    EXPECT_GE(std::min({hit->barycentric.x, hit->barycentric.y, hit->barycentric.z}), 0.0f);
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  *outHits = hits;
  return ms / double(rays.size());
}

TEST(Picking, ReportsPickTimeOnTheBunnyAndA100kTriangleSphere) {
  Result<LoadedSurface> bunny = loadObj(std::string(TETLAB_SOURCE_DIR) + "/assets/meshes/bunny_10k.obj");
  ASSERT_TRUE(bunny.ok()) << bunny.error().message;
  int hits = 0;
  const double bunnyMs = measurePickMs(bunny->mesh, &hits);
  EXPECT_GT(hits, 20) << "the ray grid covers the bunny";
  const SurfaceMesh sphere = makeUvSphere(1.0f, 160, 320);
  int sphereHits = 0;
  const double sphereMs = measurePickMs(sphere, &sphereHits);
  EXPECT_GT(sphereHits, 20);
  std::printf("[ pick time ] bunny %zu triangles: %.3f ms/pick; sphere %zu triangles: %.3f ms/pick\n",
              bunny->mesh.triangles.size(), bunnyMs, sphere.triangles.size(), sphereMs);
}

}  // namespace
}  // namespace tetlab

namespace tetlab {
namespace {

// Strands have no triangles: a point is picked by its angle from the ray, the
// nearest in angle within the bound, and none outside it or behind the eye.
TEST(Picking, NearPointPicksTheStrandPointClosestInAngle) {
  const Ray ray{glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -1.0f)};
  const std::vector<glm::vec4> x = {{0.02f, 0.0f, -1.0f, 1.0f},    // 1.15 degrees off
                                    {0.005f, 0.0f, -1.0f, 1.0f},   // 0.29 degrees off
                                    {0.0f, 0.0f, 1.0f, 1.0f},      // behind the eye
                                    {0.009f, 0.0f, -2.0f, 1.0f}};  // 0.26 degrees off, farther
  const std::vector<uint32_t> all = {0, 1, 2, 3};
  const auto hit = pickNearPoint(ray, x, all, 0.0175f);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->vertex, 3u);
  EXPECT_NEAR(hit->t, 2.0f, 1e-6f);
  EXPECT_FALSE(pickNearPoint(ray, x, std::vector<uint32_t>{0, 2}, 0.0175f).has_value());
}

}  // namespace
}  // namespace tetlab
