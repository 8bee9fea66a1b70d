// Embedding: a dense render surface over a coarse tet mesh follows the tets.
// Barycentric interpolation is exact for affine maps, so after deforming the
// tets by x -> A x + b every render vertex must land on A p + b, inside or
// (extrapolated from the nearest tet) just outside the tet mesh.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat3x3.hpp>

#include "core/mesh/embedding.h"
#include "core/mesh/tetrahedralize.h"
#include "mesh_test_util.h"

namespace tetlab {
namespace {

void checkAffine(const TetMesh& tets, const SurfaceMesh& render, const SurfaceEmbedding& e) {
  // Rotation, anisotropic stretch and shear, plus a translation: a generic affine map.
  const glm::mat3 R = glm::mat3(glm::rotate(glm::mat4(1.0f), 0.7f, glm::normalize(glm::vec3(1, 2, 3))));
  glm::mat3 S(1.0f);
  S[0][0] = 1.3f;
  S[1][1] = 0.8f;
  S[2][0] = 0.25f;
  const glm::mat3 A = R * S;
  const glm::vec3 b(0.3f, -2.0f, 5.0f);
  std::vector<glm::vec3> deformed(tets.positions.size());
  for (size_t i = 0; i < deformed.size(); ++i) deformed[i] = A * tets.positions[i] + b;
  std::vector<glm::vec3> moved(render.positions.size());
  applyEmbedding(e, deformed, moved);
  // Mesh size 2 (unit sphere); 1e-5 relative.
  const float tol = 1e-5f * 2.0f;
  float worst = 0.0f;
  for (size_t i = 0; i < moved.size(); ++i) worst = std::max(worst, glm::length(moved[i] - (A * render.positions[i] + b)));
  EXPECT_LE(worst, tol);

  // The float4 overload (device layout, w = inverse mass) gives the same answer.
  std::vector<glm::vec4> deformed4(deformed.size());
  for (size_t i = 0; i < deformed.size(); ++i) deformed4[i] = glm::vec4(deformed[i], 123.0f);
  std::vector<glm::vec3> moved4(render.positions.size());
  applyEmbedding(e, deformed4, moved4);
  for (size_t i = 0; i < moved.size(); ++i) ASSERT_EQ(moved4[i], moved[i]);

  // Normals recomputed on the moved surface equal the transformed normals
  // (inverse transpose), up to the rounding of the moved positions.
  std::vector<glm::vec3> n0, n1;
  computeVertexNormals(render.positions, render.triangles, n0);
  computeVertexNormals(moved, render.triangles, n1);
  const glm::mat3 N = glm::transpose(glm::inverse(A));
  float worstAngle = 1.0f;
  for (size_t i = 0; i < n0.size(); ++i) worstAngle = std::min(worstAngle, glm::dot(glm::normalize(N * n0[i]), n1[i]));
  EXPECT_GT(worstAngle, 0.999f);
}

TEST(MeshEmbedding, DenseSurfaceFollowsAffineDeformationOfTetGenMesh) {
  const SurfaceMesh coarse = test::makeSphere(glm::vec3(0.0f), 1.0f, 8, 16);
  const SurfaceMesh render = test::makeSphere(glm::vec3(0.0f), 1.0f, 48, 96);  // ~9k triangles
  TetOptions opt;
  opt.targetTets = 400;
  Result<TetResult> tets = tetrahedralizeSurface(coarse, opt);
  ASSERT_TRUE(tets.ok()) << tets.error().message;
  ASSERT_EQ(tets->path, TetPath::TetGen);
  Result<SurfaceEmbedding> e = embedPoints(tets->mesh, render.positions);
  ASSERT_TRUE(e.ok()) << e.error().message;
  // The dense sphere bulges out of the coarse polyhedron between its vertices.
  EXPECT_GT(e->outsideVertices, 0u);
  EXPECT_LT(e->maxOutsideDistance, 0.1);  // 1 - cos(pi / 8) ~= 0.076 for 8 rings
  for (size_t i = 0; i < render.positions.size(); ++i) {
    const glm::vec4 w = e->weights[i];
    EXPECT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f);
  }
  checkAffine(tets->mesh, render, *e);
}

TEST(MeshEmbedding, DenseSurfaceFollowsAffineDeformationOfVoxelMesh) {
  const SurfaceMesh render = test::makeSphere(glm::vec3(0.0f), 1.0f, 32, 64);
  TetOptions opt;
  opt.method = TetMethod::VoxelOnly;
  opt.voxelResolution = 8;
  Result<TetResult> tets = tetrahedralizeSurface(render, opt);
  ASSERT_TRUE(tets.ok()) << tets.error().message;
  Result<SurfaceEmbedding> e = embedPoints(tets->mesh, render.positions);
  ASSERT_TRUE(e.ok()) << e.error().message;
  checkAffine(tets->mesh, render, *e);
}

TEST(MeshEmbedding, InsidePointsGetTheirContainingTet) {
  // Two tets sharing a face; points inside each land in that tet with weights in [0, 1].
  TetMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  m.tets = {{0, 1, 2, 3}, {1, 2, 3, 4}};
  if (test::tetVolume(m, m.tets[1]) < 0) std::swap(m.tets[1].z, m.tets[1].w);
  const std::vector<glm::vec3> pts = {{0.1f, 0.1f, 0.1f}, {0.6f, 0.6f, 0.6f}, {1.0f / 3, 1.0f / 3, 1.0f / 3}};
  Result<SurfaceEmbedding> e = embedPoints(m, pts);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->tet[0], 0u);
  EXPECT_EQ(e->tet[1], 1u);
  EXPECT_EQ(e->outsideVertices, 0u);
  for (const glm::vec4& w : e->weights)
    for (int k = 0; k < 4; ++k) {
      EXPECT_GE(w[k], -1e-6f);
      EXPECT_LE(w[k], 1.0f + 1e-6f);
    }
  const glm::vec4 w0 = e->weights[0];
  EXPECT_NEAR(w0.x, 0.7f, 1e-6f);  // 1 - 0.1 - 0.1 - 0.1
  EXPECT_FALSE(embedPoints(TetMesh{}, pts).ok());
}

}  // namespace
}  // namespace tetlab
