// The sliver pass after TetGen (core/mesh/tet_improve.h, issue 41 item 8).
// What it must keep: every tet positive, the volume and the surface (flips
// and interior moves keep it exactly; a corner slides only within a surface
// that is flat around it to 5 degrees). What it must gain: the stated bound,
// 6V/Lmax^3 >= 0.1 on every mesh TetGen meshes as given (no simplification),
// at the window's and tetlab run's target and at 5,000; before the pass those
// meshes reached 0.017-0.052 (cube 0.027, low-poly torus 0.018 at 2,000).
// Scans simplified for TetGen keep slivers between surface vertices across
// parts thinner than their triangles; for them the pass only has to help.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "core/mesh/obj_loader.h"
#include "core/mesh/tet_cleanup.h"
#include "core/mesh/tet_improve.h"
#include "core/mesh/tetrahedralize.h"
#include "tests/lowpoly_torus.h"
#include "tests/tetgen_only.h"

namespace tetlab {
namespace {

constexpr double kStatedBound = 0.1;

using Face = std::array<uint32_t, 3>;

// The boundary faces as sorted corner triples, with their corners' positions.
std::map<Face, std::array<glm::vec3, 3>> boundary(const TetMesh& m) {
  std::map<Face, int> count;
  for (const glm::uvec4& t : m.tets)
    for (int k = 0; k < 4; ++k) {
      Face f;
      int j = 0;
      for (int l = 0; l < 4; ++l)
        if (l != k) f[size_t(j++)] = t[l];
      std::sort(f.begin(), f.end());
      ++count[f];
    }
  std::map<Face, std::array<glm::vec3, 3>> out;
  for (const auto& [f, c] : count)
    if (c == 1) out[f] = {m.positions[f[0]], m.positions[f[1]], m.positions[f[2]]};
  return out;
}

// Area of the faces that lie on one tet only.
double surfaceArea(const TetMesh& m) {
  double area = 0.0;
  for (const auto& [f, p] : boundary(m)) {
    const glm::dvec3 a(p[0]), b(p[1]), d(p[2]);
    area += 0.5 * glm::length(glm::cross(b - a, d - a));
  }
  return area;
}

double totalVolume(const TetMesh& m) {
  double v = 0.0;
  for (const glm::uvec4& t : m.tets) v += tetSignedVolume(m, t);
  return v;
}

// A 4 x 4 x 4 grid of cubes, 6 Kuhn tets each, with one interior vertex
// pushed almost onto a neighbour's plane: a cluster of flat tets the surface
// never sees.
TetMesh kuhnGridWithSlivers() {
  const int n = 4;
  TetMesh m;
  auto id = [&](int i, int j, int k) { return uint32_t((i * (n + 1) + j) * (n + 1) + k); };
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j)
      for (int k = 0; k <= n; ++k) m.positions.push_back(glm::vec3(float(i), float(j), float(k)) * 0.25f);
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        for (const auto& p : perms) {
          int c[3] = {i, j, k};
          glm::uvec4 t;
          t[0] = id(c[0], c[1], c[2]);
          for (int s = 0; s < 3; ++s) {
            ++c[p[s]];
            t[s + 1] = id(c[0], c[1], c[2]);
          }
          m.tets.push_back(t);
        }
  cleanTetMesh(m);  // orients them
  m.positions[id(2, 2, 2)] += glm::vec3(0.23f, 0.02f, 0.0f);
  return m;
}

TEST(TetImprove, RaisesInteriorSliversAndKeepsSurfaceAndVolume) {
  TetMesh m = kuhnGridWithSlivers();
  const TetMesh before = m;
  const double volumeBefore = totalVolume(m);
  const TetImproveReport r = improveTetQuality(m);
  std::printf("[ measured ] Kuhn grid with a pushed vertex: least 6V/Lmax^3 %.4f -> %.4f (%zu + %zu flips, %zu moves)\n",
              r.minQualityBefore, r.minQualityAfter, r.flips23, r.flips32, r.smoothed);
  ASSERT_LT(r.minQualityBefore, 0.05);  // the pushed vertex made slivers
  EXPECT_GE(r.minQualityAfter, kStatedBound);
  EXPECT_DOUBLE_EQ(r.minQualityAfter, minTetQuality(m));
  for (const glm::uvec4& t : m.tets) ASSERT_GT(tetSignedVolume(m, t), 0.0);
  EXPECT_NEAR(totalVolume(m), volumeBefore, 1e-6 * volumeBefore);
  // Surface corners may only slide within the box's faces: a coordinate at 0
  // or 1 stays there, so a corner on an edge of the box does not move at all.
  for (size_t v = 0; v < m.positions.size(); ++v)
    for (int k = 0; k < 3; ++k) {
      const float c = before.positions[v][k];
      if (c == 0.0f || c == 1.0f) EXPECT_EQ(m.positions[v][k], c) << "vertex " << v << " axis " << k;
    }
  EXPECT_NEAR(surfaceArea(m), 6.0, 1e-5);
  EXPECT_NEAR(surfaceArea(before), 6.0, 1e-5);
}

// A surface corner pushed along its face makes slivers the pass may fix by
// sliding it back; with keepSurface (the deformer's setting) every boundary
// triangle and corner stays bit for bit, and only interior work is done.
TEST(TetImprove, KeepSurfaceLeavesEveryBoundaryTriangleAsItWas) {
  auto pushedSurfaceCorner = [] {
    TetMesh m = kuhnGridWithSlivers();
    m.positions[uint32_t((2 * 5 + 2) * 5 + 0)] += glm::vec3(0.22f, 0.0f, 0.0f);  // (2, 2, 0): on the z = 0 face
    return m;
  };
  TetMesh kept = pushedSurfaceCorner(), free = pushedSurfaceCorner();
  const auto before = boundary(kept);
  TetImproveOptions keep;
  keep.keepSurface = true;
  const TetImproveReport rk = improveTetQuality(kept, keep);
  const TetImproveReport rf = improveTetQuality(free);
  std::printf("[ measured ] pushed surface corner: least 6V/Lmax^3 %.4f -> %.4f keeping the surface, %.4f free\n",
              rk.minQualityBefore, rk.minQualityAfter, rf.minQualityAfter);
  for (const glm::uvec4& t : kept.tets) ASSERT_GT(tetSignedVolume(kept, t), 0.0);
  EXPECT_EQ(rk.hullSliversRemoved, 0u);
  EXPECT_GE(rk.minQualityAfter, rk.minQualityBefore);
  EXPECT_TRUE(boundary(kept) == before) << "a boundary triangle or corner changed";
  // The check can fail: without keepSurface the pass does change the surface here.
  EXPECT_FALSE(boundary(free) == before);
}

// Three needles around a short edge through an equilateral triangle: the
// 3-2 flip makes two tets with the triangle as their shared face.
TEST(TetImprove, EdgeRemovalReplacesThreeNeedlesByTwoTets) {
  TetMesh m;
  const float r = 1.0f;
  for (int k = 0; k < 3; ++k) {
    const float a = 2.0f * float(M_PI) * float(k) / 3.0f;
    m.positions.push_back({r * std::cos(a), r * std::sin(a), 0.0f});
  }
  m.positions.push_back({0.0f, 0.0f, 0.1f});
  m.positions.push_back({0.0f, 0.0f, -0.1f});
  for (int k = 0; k < 3; ++k) m.tets.push_back({uint32_t(k), uint32_t((k + 1) % 3), 3u, 4u});
  cleanTetMesh(m);
  const double before = minTetQuality(m);
  const double volume = totalVolume(m);
  const TetImproveReport rep = improveTetQuality(m);
  ASSERT_LT(before, TetImproveOptions{}.goal);
  EXPECT_EQ(rep.flips32, 1u);
  EXPECT_EQ(m.tets.size(), 2u);
  EXPECT_GT(minTetQuality(m), before);
  EXPECT_NEAR(totalVolume(m), volume, 1e-6 * volume);
}

struct MeshCase {
  std::string name;  // an assets/meshes file, or "torus20x9" / "torus36x5" for the generated low-poly tori
  int target;
};

Result<LoadedSurface> loadCase(const MeshCase& c) {
  if (c.name == "torus20x9") return loadObjText("torus.obj", test::lowPolyTorusObj(20, 9, 0.3));
  if (c.name == "torus36x5") return loadObjText("torus.obj", test::lowPolyTorusObj(36, 5, 0.15));
  return loadObj((std::filesystem::path(TETLAB_SOURCE_DIR) / "assets" / "meshes" / (c.name + ".obj")).string());
}

class TetImproveMeshes : public ::testing::TestWithParam<MeshCase> {};

TEST_P(TetImproveMeshes, MeshAsGivenReachesTheStatedBound) {
  const MeshCase c = GetParam();
  Result<LoadedSurface> surface = loadCase(c);
  ASSERT_TRUE(surface.ok()) << surface.error().message;
  Result<TetResult> tets = test::tetGenOnly(surface->mesh, c.target);
  ASSERT_TRUE(tets.ok()) << tets.error().message;
  ASSERT_EQ(tets->simplifiedTriangles, 0u) << "this case is about meshes TetGen gets as given";
  const double q = minTetQuality(tets->mesh);
  std::printf("[ measured ] %s, target %d: %zu tets, least 6V/Lmax^3 %.4f (TetGen gave %.4f)\n", c.name.c_str(),
              c.target, tets->mesh.tets.size(), q, tets->improve.minQualityBefore);
  EXPECT_GE(q, kStatedBound);
  EXPECT_GE(double(tets->mesh.tets.size()), 0.5 * c.target);
  EXPECT_LE(double(tets->mesh.tets.size()), 2.0 * c.target);
}

INSTANTIATE_TEST_SUITE_P(AsGiven, TetImproveMeshes,
                         ::testing::Values(MeshCase{"cube_5", 2000}, MeshCase{"sphere", 2000}, MeshCase{"torus", 2000},
                                           MeshCase{"torus20x9", 2000}, MeshCase{"torus36x5", 2000},
                                           MeshCase{"cube_5", 5000}, MeshCase{"torus", 5000},
                                           MeshCase{"torus20x9", 5000}),
                         [](const auto& info) { return info.param.name + "_" + std::to_string(info.param.target); });

// Simplified scans: the pass never lowers the least quality, and its hull
// sliver removals (the only change to the surface) cost under 0.5 % of the
// volume TetGen meshed.
TEST(TetImprove, SimplifiedScansOnlyGain) {
  for (const char* name : {"bunny_10k", "spot", "armadillo_4k_surface"}) {
    Result<LoadedSurface> surface = loadCase({name, 2000});
    ASSERT_TRUE(surface.ok()) << surface.error().message;
    TetOptions options;
    options.method = TetMethod::TetGenOnly;
    Result<TetResult> tets = tetrahedralizeSurface(surface->mesh, options);
    ASSERT_TRUE(tets.ok()) << tets.error().message;
    TetOptions raw = options;
    raw.quality = false;  // no sliver pass, and no -q: only for the volume TetGen meshes
    Result<TetResult> plain = tetrahedralizeSurface(surface->mesh, raw);
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    const double v = totalVolume(tets->mesh), v0 = totalVolume(plain->mesh);
    std::printf("[ measured ] %s: least 6V/Lmax^3 %.4f -> %.4f, %zu hull slivers removed, volume %.5f of TetGen's\n",
                name, tets->improve.minQualityBefore, tets->improve.minQualityAfter, tets->improve.hullSliversRemoved,
                v / v0);
    EXPECT_GE(tets->improve.minQualityAfter, tets->improve.minQualityBefore);
    EXPECT_NEAR(v / v0, 1.0, 5e-3);
  }
}

}  // namespace
}  // namespace tetlab
