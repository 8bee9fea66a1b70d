// Diagonal flips (core/mesh/diagonal_flips.h): a closed polygon mesh whose
// non-planar quad, split by ear clipping, crosses another part of the surface
// is mended by the quad's other diagonal, and reaches TetGen.
//
// The mesh: a unit box whose top is the quad A(0,0,1) B(1,0,1) C(1,1,1.4)
// D(0,1,1) (C lifted), and a small closed box inside it just under the top
// (a cavity: [0.45, 0.55]^2 x [0.95, 1.15]). Split along A-C the top is the
// upper surface 1 + 0.4 min(x, y) (at least 1.18 over the small box: clear);
// along B-D, the split ear clipping takes from corner A, it is the lower
// surface 1 + 0.4 max(0, x + y - 1) (1.00-1.04 there), which cuts through the
// small box. The tetrahedron ABCD lies between the two splits.
#include <gtest/gtest.h>

#include <array>

#include "core/mesh/diagonal_flips.h"
#include "core/mesh/polygon_triangulation.h"
#include "core/mesh/self_intersection.h"
#include "core/mesh/surface_checks.h"
#include "core/mesh/tetrahedralize.h"

namespace tetlab {
namespace {

// Appends the box with corners lo..hi as 6 quads triangulated by
// triangulatePolygon, outward when `outward`, and the top corner (hi.x, hi.y)
// lifted by `lift` (so the top quad is non-planar).
void appendBox(SurfaceMesh& mesh, glm::dvec3 lo, glm::dvec3 hi, double lift, bool outward) {
  const uint32_t base = uint32_t(mesh.positions.size());
  for (int k = 0; k < 8; ++k) {
    glm::dvec3 p((k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z);
    if (k == 7) p.z += lift;
    mesh.positions.emplace_back(p);
  }
  // Corners counter-clockwise seen from outside; the top starts at (lo.x, lo.y) = A.
  const std::array<std::array<uint32_t, 4>, 6> faces = {{{0, 2, 3, 1},   // bottom
                                                         {4, 5, 7, 6},   // top: A B C D
                                                         {0, 1, 5, 4},   // y = lo
                                                         {2, 6, 7, 3},   // y = hi
                                                         {0, 4, 6, 2},   // x = lo
                                                         {1, 3, 7, 5}}};  // x = hi
  for (const auto& f : faces) {
    std::vector<glm::dvec3> corners;
    std::array<uint32_t, 4> ids = f;
    if (!outward) std::reverse(ids.begin(), ids.end());
    for (uint32_t id : ids) corners.push_back(glm::dvec3(mesh.positions[base + id]));
    std::vector<glm::uvec3> local;
    triangulatePolygon(corners, local);
    for (const glm::uvec3& t : local) mesh.triangles.push_back({base + ids[t.x], base + ids[t.y], base + ids[t.z]});
  }
}

SurfaceMesh boxWithACavityUnderALiftedCorner() {
  SurfaceMesh mesh;
  appendBox(mesh, {0, 0, 0}, {1, 1, 1}, 0.4, true);
  appendBox(mesh, {0.45, 0.45, 0.95}, {0.55, 0.55, 1.15}, 0.0, false);
  return mesh;
}

TEST(DiagonalFlips, TheOtherDiagonalOfTheLiftedQuadMendsTheSurface) {
  SurfaceMesh mesh = boxWithACavityUnderALiftedCorner();
  const size_t before = findSelfIntersections(mesh).intersectingPairs;
  ASSERT_GT(before, 0u) << "ear clipping split the top along B-D, through the cavity";
  const SurfaceMesh original = mesh;
  const DiagonalFlipReport r = flipCrossingDiagonals(mesh);
  EXPECT_EQ(r.crossingBefore, before);
  EXPECT_EQ(r.crossingAfter, 0u);
  EXPECT_EQ(r.flipped, 1u);
  EXPECT_EQ(findSelfIntersections(mesh).intersectingPairs, 0u);
  // Same vertices and triangle count, still closed, manifold and consistently oriented.
  EXPECT_EQ(mesh.positions.size(), original.positions.size());
  EXPECT_EQ(mesh.triangles.size(), original.triangles.size());
  SurfaceCheckOptions options;
  options.checkSelfIntersections = false;
  const SurfaceCheckReport c = checkSurface(mesh, options);
  EXPECT_TRUE(c.watertight() && c.manifold() && c.consistentlyOriented());
  // The flip adds the tetrahedron ABCD (volume |det| / 6 = 0.4 / 6) under the top; float corners.
  EXPECT_NEAR(c.signedVolume, checkSurface(original, options).signedVolume + 0.4 / 6.0, 1e-6);
}

// A surface whose crossing no flip can mend is left as it was.
TEST(DiagonalFlips, ACrossingNoFlipMendsIsLeftAlone) {
  SurfaceMesh mesh;
  appendBox(mesh, {0, 0, 0}, {1, 1, 1}, 0.0, true);
  appendBox(mesh, {0.5, 0.5, 0.5}, {1.5, 1.5, 1.5}, 0.0, true);  // two boxes overlapping in volume
  const SurfaceMesh original = mesh;
  const DiagonalFlipReport r = flipCrossingDiagonals(mesh);
  EXPECT_GT(r.crossingBefore, 0u);
  EXPECT_EQ(r.crossingAfter, r.crossingBefore);
  EXPECT_EQ(r.flipped, 0u);
  EXPECT_EQ(mesh.triangles, original.triangles);
}

// The pipeline takes the mended surface to TetGen instead of the voxel fallback.
TEST(DiagonalFlips, TheMendedSurfaceReachesTetGen) {
  const SurfaceMesh mesh = boxWithACavityUnderALiftedCorner();
  TetOptions options;
  options.targetTets = 300;
  Result<TetResult> r = tetrahedralizeSurface(mesh, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->path, TetPath::TetGen) << r->reason;
  EXPECT_EQ(r->diagonalFlips.flipped, 1u);
  EXPECT_NE(r->reason.find("1 diagonal was flipped"), std::string::npos) << r->reason;
  EXPECT_FALSE(r->mesh.tets.empty());
}

}  // namespace
}  // namespace tetlab
