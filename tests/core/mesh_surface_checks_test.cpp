// Surface checks on hand-built cases whose topology is known by construction.
#include <gtest/gtest.h>

#include <numbers>

#include "core/mesh/self_intersection.h"
#include "core/mesh/surface_checks.h"
#include "core/mesh/winding_number.h"
#include "mesh_test_util.h"

namespace tetlab {
namespace {

TEST(MeshSurfaceChecks, ClosedBoxIsWatertightManifoldAndOutward) {
  const SurfaceCheckReport r = checkSurface(test::makeBox());
  EXPECT_EQ(r.edges, 18u);  // 12 cube edges + 6 face diagonals
  EXPECT_TRUE(r.watertight());
  EXPECT_TRUE(r.manifold());
  EXPECT_TRUE(r.consistentlyOriented());
  EXPECT_TRUE(r.outwardOriented());
  EXPECT_EQ(r.components, 1u);
  EXPECT_TRUE(r.selfIntersectionChecked);
  EXPECT_EQ(r.selfIntersectingPairs, 0u);
  EXPECT_NEAR(r.signedVolume, 1.0, 1e-12);
  EXPECT_TRUE(r.problems().empty());
}

TEST(MeshSurfaceChecks, MissingFaceLeavesFourBoundaryEdges) {
  SurfaceMesh box = test::makeBox();
  box.triangles.erase(box.triangles.begin(), box.triangles.begin() + 2);  // drop one quad
  const SurfaceCheckReport r = checkSurface(box);
  EXPECT_EQ(r.boundaryEdges, 4u);
  EXPECT_FALSE(r.watertight());
  EXPECT_TRUE(r.manifold());
}

TEST(MeshSurfaceChecks, ThreeFacesOnAnEdgeAreNonManifold) {
  // Two boxes sharing the edge x = 1, y = 1 (welded): that edge has four faces,
  // and both of its end vertices are pinch points of two fans.
  SurfaceMesh a = test::makeBox(glm::vec3(0.0f), glm::vec3(1.0f));
  const SurfaceMesh b = test::makeBox(glm::vec3(1.0f, 1.0f, 0.0f), glm::vec3(2.0f, 2.0f, 1.0f));
  SurfaceMesh m = test::merge(a, b);
  // Weld b's corners (1,1,0) and (1,1,1) onto a's vertices 3 and 7.
  for (glm::uvec3& t : m.triangles)
    for (int k = 0; k < 3; ++k) {
      if (t[k] == 8 + 0) t[k] = 3;
      if (t[k] == 8 + 4) t[k] = 7;
    }
  const SurfaceCheckReport r = checkSurface(m);
  EXPECT_EQ(r.nonManifoldEdges, 1u);
  EXPECT_FALSE(r.manifold());
  EXPECT_TRUE(r.watertight());
}

TEST(MeshSurfaceChecks, BowTieVertexIsNonManifold) {
  // Two tetrahedra touching at a single shared vertex.
  SurfaceMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
  const uint32_t tets[2][4] = {{0, 1, 2, 3}, {0, 4, 5, 6}};
  for (const auto& t : tets) {
    m.triangles.push_back({t[0], t[2], t[1]});
    m.triangles.push_back({t[0], t[1], t[3]});
    m.triangles.push_back({t[1], t[2], t[3]});
    m.triangles.push_back({t[0], t[3], t[2]});
  }
  const SurfaceCheckReport r = checkSurface(m);
  EXPECT_EQ(r.nonManifoldEdges, 0u);
  EXPECT_EQ(r.nonManifoldVertices, 1u);
  EXPECT_EQ(r.components, 2u);
  EXPECT_TRUE(r.watertight());
}

TEST(MeshSurfaceChecks, FixOrientationFlipsTheOneWrongFace) {
  SurfaceMesh box = test::makeBox();
  std::swap(box.triangles[5].y, box.triangles[5].z);
  SurfaceCheckReport before = checkSurface(box);
  EXPECT_EQ(before.inconsistentEdges, 3u);  // its three edges disagree with their neighbours
  const OrientationFixReport fix = fixOrientation(box);
  EXPECT_EQ(fix.trianglesFlipped, 1u);
  EXPECT_EQ(fix.componentsFlippedOutward, 0u);
  const SurfaceCheckReport after = checkSurface(box);
  EXPECT_TRUE(after.consistentlyOriented());
  EXPECT_NEAR(after.signedVolume, 1.0, 1e-12);
}

TEST(MeshSurfaceChecks, FixOrientationTurnsAnInsideOutBoxAndKeepsACavityInward) {
  // Outer box inside out, plus an inner box (a cavity) that faces outward:
  // after the fix the outer faces out and the cavity faces in.
  SurfaceMesh outer = test::makeBox(glm::vec3(0.0f), glm::vec3(4.0f));
  for (glm::uvec3& t : outer.triangles) std::swap(t.y, t.z);
  const SurfaceMesh inner = test::makeBox(glm::vec3(1.0f), glm::vec3(2.0f));
  SurfaceMesh m = test::merge(outer, inner);
  const OrientationFixReport fix = fixOrientation(m);
  EXPECT_EQ(fix.componentsFlippedOutward, 2u);
  EXPECT_EQ(fix.trianglesFlipped, 24u);
  EXPECT_NEAR(signedVolume(m), 64.0 - 1.0, 1e-9);
}

TEST(MeshSurfaceChecks, OverlappingSpheresSelfIntersect) {
  const SurfaceMesh a = test::makeSphere(glm::vec3(0.0f), 1.0f);
  const SurfaceMesh apart = test::merge(a, test::makeSphere(glm::vec3(3.0f, 0.0f, 0.0f), 1.0f));
  EXPECT_EQ(checkSurface(apart).selfIntersectingPairs, 0u);
  EXPECT_EQ(checkSurface(a).selfIntersectingPairs, 0u);
  const SurfaceMesh overlap = test::merge(a, test::makeSphere(glm::vec3(1.0f, 0.0f, 0.0f), 1.0f));
  const SurfaceCheckReport r = checkSurface(overlap);
  EXPECT_GT(r.selfIntersectingPairs, 0u);
  EXPECT_FALSE(r.selfIntersectionExamples.empty());
  EXPECT_TRUE(r.watertight());  // each sphere is closed: only the crossing is wrong
}

TEST(MeshSurfaceChecks, TriangleTriangleCases) {
  const glm::dvec3 a0(0, 0, 0), a1(1, 0, 0), a2(0, 1, 0);
  // Pierces through the interior.
  EXPECT_TRUE(trianglesIntersect(a0, a1, a2, {0.2, 0.2, -1}, {0.2, 0.2, 1}, {0.3, 0.25, 1}));
  // Parallel, above.
  EXPECT_FALSE(trianglesIntersect(a0, a1, a2, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}));
  // Coplanar, overlapping without edge crossings (contained).
  EXPECT_TRUE(trianglesIntersect(a0, a1, a2, {0.1, 0.1, 0}, {0.3, 0.1, 0}, {0.1, 0.3, 0}));
  // Coplanar, disjoint.
  EXPECT_FALSE(trianglesIntersect(a0, a1, a2, {2, 2, 0}, {3, 2, 0}, {2, 3, 0}));
  // Crossing the plane outside the triangle.
  EXPECT_FALSE(trianglesIntersect(a0, a1, a2, {2, 2, -1}, {2, 2, 1}, {3, 2, 1}));
}

TEST(MeshWindingNumber, IsOneInsideZeroOutsideAndFastMatchesExact) {
  const SurfaceMesh s = test::makeSphere(glm::vec3(0.0f), 1.0f, 16, 32);
  const FastWindingNumber fast(s);
  // First-order far field with beta = 2: each far node is off by O((r/d)^2) of
  // its contribution, a few percent in all, far from the 0.5 inside threshold.
  constexpr double kFastTolerance = 0.05;
  for (const glm::dvec3 q : {glm::dvec3(0.0), glm::dvec3(0.5, 0.2, -0.3), glm::dvec3(0.0, 0.0, 0.9)}) {
    EXPECT_NEAR(windingNumberExact(s, q), 1.0, 1e-9);  // closed surface: exactly 1 up to rounding
    EXPECT_NEAR(fast.evaluate(q), 1.0, kFastTolerance);
  }
  for (const glm::dvec3 q : {glm::dvec3(2.0, 0.0, 0.0), glm::dvec3(1.2, 1.2, 1.2), glm::dvec3(0.0, 0.0, -1.1)}) {
    EXPECT_NEAR(windingNumberExact(s, q), 0.0, 1e-9);
    EXPECT_NEAR(fast.evaluate(q), 0.0, kFastTolerance);
  }
  // Open hemisphere seen from its centre: half the sphere's solid angle.
  SurfaceMesh cap = s;
  cap.triangles.clear();
  for (const glm::uvec3& t : s.triangles) {
    const float z = (s.positions[t.x].z + s.positions[t.y].z + s.positions[t.z].z) / 3.0f;
    if (z > 0.0f) cap.triangles.push_back(t);
  }
  EXPECT_NEAR(windingNumberExact(cap, glm::dvec3(0.0)), 0.5, 1e-9);
  EXPECT_NEAR(solidAngle({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}), std::numbers::pi / 2.0, 1e-12);
}

}  // namespace
}  // namespace tetlab
