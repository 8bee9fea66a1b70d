// Quadric simplification keeps a closed manifold surface closed, manifold,
// free of self-intersections and close to its volume, and the pipeline uses
// it so a dense surface ends near the target tet count.
#include <gtest/gtest.h>

#include <numbers>

#include "core/mesh/surface_checks.h"
#include "core/mesh/surface_simplify.h"
#include "core/mesh/tetrahedralize.h"
#include "mesh_test_util.h"

namespace tetlab {
namespace {

TEST(MeshSimplify, DenseSphereStaysClosedManifoldAndKeepsItsVolume) {
  // 16k triangles; the pole fans are slivers (quality ~0.05), which must not
  // stall the simplification and push the error elsewhere.
  const SurfaceMesh dense = test::makeSphere(glm::vec3(0.0f), 1.0f, 64, 128);
  SimplifyReport report;
  Result<SurfaceMesh> r = simplifySurface(dense, 600, &report);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LE(r->triangles.size(), 600u);
  EXPECT_GT(r->triangles.size(), 500u);  // stops at the target, not far below
  EXPECT_EQ(report.trianglesBefore, dense.triangles.size());
  EXPECT_EQ(report.trianglesAfter, r->triangles.size());
  const SurfaceCheckReport c = checkSurface(*r);
  EXPECT_TRUE(c.watertight());
  EXPECT_TRUE(c.manifold());
  EXPECT_TRUE(c.consistentlyOriented());
  EXPECT_EQ(c.selfIntersectingPairs, 0u);
  EXPECT_EQ(c.components, 1u);
  // Euler characteristic of a sphere: V - E + F = 2.
  EXPECT_EQ(int(c.vertices) - int(c.edges) + int(c.triangles), 2);
  // An inscribed polyhedron with ~300 vertices loses a few percent of the
  // ball's volume; quadric placement keeps vertices on the sphere.
  const double ball = 4.0 / 3.0 * std::numbers::pi;
  EXPECT_NEAR(c.signedVolume, signedVolume(dense), 0.03 * ball);
  for (const glm::vec3& p : r->positions) EXPECT_NEAR(glm::length(p), 1.0f, 0.02f);
}

TEST(MeshSimplify, RejectsOpenSurfaces) {
  SurfaceMesh open = test::makeBox();
  open.triangles.pop_back();
  EXPECT_FALSE(simplifySurface(open, 4).ok());
}

TEST(MeshSimplify, PipelineSimplifiesADenseSurfaceTowardTheTarget) {
  const SurfaceMesh dense = test::makeSphere(glm::vec3(0.0f), 1.0f, 48, 96);  // 9120 triangles
  TetOptions opt;
  opt.targetTets = 1500;
  Result<TetResult> r = tetrahedralizeSurface(dense, opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->path, TetPath::TetGen);
  EXPECT_GT(r->simplifiedTriangles, 0u);
  EXPECT_LE(r->simplifiedTriangles, 500u);  // targetTets / 3
  EXPECT_NE(r->reason.find("simplified"), std::string::npos) << r->reason;
  // Without simplification TetGen would keep all 9120 triangles (> 9000 tets).
  EXPECT_LT(r->mesh.tets.size(), 3u * 1500u);
  opt.simplifyDenseSurface = false;
  Result<TetResult> full = tetrahedralizeSurface(dense, opt);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->simplifiedTriangles, 0u);
  EXPECT_GT(full->mesh.tets.size(), dense.triangles.size());
}

}  // namespace
}  // namespace tetlab
