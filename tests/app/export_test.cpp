// OBJ export round trip through core's own loader: positions come back
// bit-exact (9 significant digits are enough for any float), triangles and
// normals are intact, several bodies share one file with offset indices.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <glm/geometric.hpp>

#include "app/render/mesh_geometry.h"
#include "app/output/obj_export.h"
#include "core/mesh/obj_loader.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tetlab_export_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

TEST(ObjExport, RoundTripThroughLoadObjKeepsPositionsExactly) {
  SurfaceMesh mesh = makeUvSphere(0.37f, 10, 20);
  // Awkward floats: not representable in few decimal digits.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1e-3f, 1e-3f);
  for (glm::vec3& p : mesh.positions) p = p * 1.0001234f + glm::vec3(u(rng), 12.345678f, u(rng));
  std::vector<glm::vec3> normals;
  computeVertexNormals(mesh.positions, mesh.triangles, normals);

  const fs::path dir = freshDir("roundtrip");
  ObjSequenceWriter writer(dir);
  const ExportSurface surface{"sphere", mesh.positions, normals, mesh.triangles};
  ASSERT_TRUE(writer.write(std::span<const ExportSurface>(&surface, 1), "t = 0 s").ok());
  ASSERT_TRUE(writer.write(std::span<const ExportSurface>(&surface, 1)).ok());
  EXPECT_EQ(writer.framesWritten(), 2);
  EXPECT_EQ(writer.framePath(0).filename(), "surface_00000.obj");
  ASSERT_TRUE(fs::exists(dir / "surface_00001.obj"));

  Result<LoadedSurface> loaded = loadObj((dir / "surface_00000.obj").string());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ASSERT_EQ(loaded->mesh.positions.size(), mesh.positions.size());
  ASSERT_EQ(loaded->mesh.triangles.size(), mesh.triangles.size());
  for (size_t i = 0; i < mesh.positions.size(); ++i)
    EXPECT_EQ(loaded->mesh.positions[i], mesh.positions[i]) << "vertex " << i << ": %.9g round-trips floats";
  for (size_t i = 0; i < mesh.triangles.size(); ++i) EXPECT_EQ(loaded->mesh.triangles[i], mesh.triangles[i]);

  // Normals are there as vn lines, one per vertex, referenced by every face corner.
  std::ifstream in(dir / "surface_00000.obj");
  std::string line;
  size_t vn = 0, faces = 0;
  while (std::getline(in, line)) {
    if (line.rfind("vn ", 0) == 0) {
      std::istringstream s(line.substr(3));
      glm::vec3 n;
      s >> n.x >> n.y >> n.z;
      EXPECT_NEAR(glm::length(n), 1.0f, 1e-5f);
      EXPECT_LT(glm::distance(n, normals[vn]), 1e-5f);
      ++vn;
    }
    if (line.rfind("f ", 0) == 0) {
      EXPECT_NE(line.find("//"), std::string::npos) << line;
      ++faces;
    }
  }
  EXPECT_EQ(vn, normals.size());
  EXPECT_EQ(faces, mesh.triangles.size());
  fs::remove_all(dir);
}

TEST(ObjExport, SeveralBodiesShareOneFileWithOffsetIndices) {
  SurfaceMesh a = makeUvSphere(0.2f, 6, 8), b = makeUvSphere(0.3f, 5, 7);
  for (glm::vec3& p : b.positions) p += glm::vec3(1.0f, 0.0f, 0.0f);
  const ExportSurface surfaces[] = {{"a", a.positions, {}, a.triangles}, {"b", b.positions, {}, b.triangles}};
  const fs::path dir = freshDir("bodies");
  const fs::path path = dir / "two.obj";
  ASSERT_TRUE(writeObj(path, surfaces).ok());
  Result<LoadedSurface> loaded = loadObj(path.string());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ASSERT_EQ(loaded->mesh.positions.size(), a.positions.size() + b.positions.size());
  ASSERT_EQ(loaded->mesh.triangles.size(), a.triangles.size() + b.triangles.size());
  const size_t base = a.positions.size();
  for (size_t i = 0; i < b.triangles.size(); ++i)
    EXPECT_EQ(loaded->mesh.triangles[a.triangles.size() + i], b.triangles[i] + glm::uvec3(uint32_t(base)));
  fs::remove_all(dir);
}

TEST(ObjExport, BadInputAndUnwritablePathsAreErrors) {
  const SurfaceMesh mesh = makeUvSphere(1.0f, 4, 6);
  const std::vector<glm::uvec3> bad = {{0u, 1u, 999u}};
  const ExportSurface badIndex{"bad", mesh.positions, {}, bad};
  const fs::path dir = freshDir("bad");
  Status s = writeObj(dir / "x.obj", std::span<const ExportSurface>(&badIndex, 1));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("out of range"), std::string::npos) << s.error().message;
  const std::vector<glm::vec3> twoNormals(2, glm::vec3(0.0f, 1.0f, 0.0f));
  const ExportSurface badNormals{"n", mesh.positions, twoNormals, mesh.triangles};
  EXPECT_FALSE(writeObj(dir / "y.obj", std::span<const ExportSurface>(&badNormals, 1)).ok());
  const ExportSurface fine{"ok", mesh.positions, {}, mesh.triangles};
  s = writeObj("/proc/tetlab-no-such-dir/z.obj", std::span<const ExportSurface>(&fine, 1));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("/proc/tetlab-no-such-dir/z.obj"), std::string::npos) << s.error().message;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tetlab
