// OBJ loading: repairs on small hand-written files whose answers are known by
// construction, and hostile files that must give a clear error (file + line).
#include <gtest/gtest.h>

#include <random>

#include "core/mesh/obj_loader.h"
#include "core/mesh/polygon_triangulation.h"
#include "core/mesh/surface_checks.h"
#include "mesh_test_util.h"

namespace tetlab {
namespace {

using test::TempDir;

// A unit cube exported "per face": every quad has its own four vertices (as
// with flat-shaded exports), plus texture coordinates, normals, groups, a
// missing material library and one stray vertex.
std::string unweldedCubeObj() {
  std::ostringstream s;
  s << "# cube with split vertices\nmtllib missing.mtl\nvt 0 0\nvt 1 0\nvt 1 1\nvn 0 0 1\n";
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  int next = 1;
  for (int f = 0; f < 6; ++f) {
    s << (f == 0 ? "g top\nusemtl red\n" : (f == 1 ? "g rest\n" : ""));
    for (int k = 0; k < 4; ++k) {
      const int c = quads[f][k];
      s << "v " << (c & 1) << ' ' << ((c >> 1) & 1) << ' ' << ((c >> 2) & 1) << '\n';
    }
    s << "f " << next << "/1/1 " << next + 1 << "/2/1 " << next + 2 << "//1 " << next + 3 << '\n';
    next += 4;
  }
  s << "v 5 5 5\n";  // referenced by nothing
  return s.str();
}

TEST(MeshObjLoader, WeldsSplitVerticesAndReportsEveryRepair) {
  TempDir dir;
  Result<LoadedSurface> r = loadObj(dir.write("cube.obj", unweldedCubeObj()));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const ObjLoadReport& rep = r->report;
  EXPECT_EQ(rep.inputVertices, 25u);
  EXPECT_EQ(rep.inputFaces, 6u);
  EXPECT_EQ(rep.trianglesFromPolygons, 6u);      // one extra triangle per quad
  EXPECT_EQ(rep.weldedVertices, 24u - 8u);       // 24 face corners share 8 positions
  EXPECT_EQ(rep.unreferencedVerticesRemoved, 1u);
  EXPECT_EQ(rep.degenerateFacesDropped, 0u);
  EXPECT_EQ(rep.duplicateFacesDropped, 0u);
  EXPECT_TRUE(rep.missingMaterialFile);
  ASSERT_EQ(rep.groups.size(), 2u);
  EXPECT_EQ(rep.groups[0], "top");
  EXPECT_EQ(rep.groups[1], "rest");
  EXPECT_EQ(r->mesh.positions.size(), 8u);
  EXPECT_EQ(r->mesh.triangles.size(), 12u);
  const SurfaceCheckReport checks = checkSurface(r->mesh);
  EXPECT_TRUE(checks.watertight());
  EXPECT_TRUE(checks.manifold());
  EXPECT_NEAR(checks.signedVolume, 1.0, 1e-6);
  EXPECT_FALSE(rep.warnings.empty());
}

TEST(MeshObjLoader, DropsDegenerateAndDuplicateFaces) {
  TempDir dir;
  const std::string obj =
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0.5 0 0\n"
      "f 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 4 3\n"  // closed tetrahedron
      "f 1 1 2\n"                             // repeated corner
      "f 1 5 2\n"                             // zero area (5 is the midpoint of 1-2)
      "f 1 2\n"                               // two corners only
      "f 1 3 2\n"                             // exact duplicate
      "f 2 3 1\n"                             // same face, rotated
      "f 1 2 3\n";                            // same vertices, other winding
  Result<LoadedSurface> r = loadObj(dir.write("tet.obj", obj));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->report.inputFaces, 10u);
  EXPECT_EQ(r->report.degenerateFacesDropped, 3u);
  EXPECT_EQ(r->report.duplicateFacesDropped, 3u);
  EXPECT_EQ(r->report.unreferencedVerticesRemoved, 1u);  // vertex 5 only served the dropped face
  EXPECT_EQ(r->mesh.triangles.size(), 4u);
  EXPECT_EQ(r->mesh.positions.size(), 4u);
  EXPECT_TRUE(checkSurface(r->mesh).watertight());
}

TEST(MeshObjLoader, WeldDistanceIsRelativeToTheBoundingBox) {
  TempDir dir;
  // Same triangle pair at two scales; the seam vertices differ by 1e-8 of the size.
  for (double scale : {1e-3, 1.0, 1e6}) {
    std::ostringstream s;
    s.precision(17);
    s << "v 0 0 0\nv " << scale << " 0 0\nv 0 " << scale << " 0\n";
    s << "v " << scale * (1 + 1e-8) << " 0 0\nv 0 " << scale * (1 + 1e-8) << " 0\nv " << scale << ' ' << scale << " 0\n";
    s << "v " << scale * 0.5 << " 0 " << scale * 0.01 << "\n";  // 1e-2 away from everything: never welded
    s << "f 1 2 3\nf 4 6 5\nf 1 7 2\n";
    Result<LoadedSurface> r = loadObj(dir.write("pair.obj", s.str()));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->report.weldedVertices, 2u) << "scale " << scale;
    EXPECT_EQ(r->mesh.positions.size(), 5u) << "scale " << scale;
  }
}

TEST(MeshObjLoader, NormalizesScaleAndKeepsTheOriginalUnits) {
  TempDir dir;
  const SurfaceMesh box = test::makeBox(glm::vec3(10.0f, 20.0f, 30.0f), glm::vec3(14.0f, 22.0f, 31.0f));
  ObjLoadOptions opt;
  opt.normalizeScale = true;
  opt.fitSize = 2.0f;
  Result<LoadedSurface> r = loadObj(dir.write("box.obj", test::toObj(box)), opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : r->mesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  EXPECT_NEAR(hi.x - lo.x, 2.0f, 1e-6f);  // the longest side (4 units) fits fitSize
  EXPECT_NEAR(hi.y - lo.y, 1.0f, 1e-6f);
  EXPECT_NEAR(0.5f * (lo.z + hi.z), 0.0f, 1e-6f);
  EXPECT_FLOAT_EQ(r->scaleToOriginal, 2.0f);
  for (size_t i = 0; i < box.positions.size(); ++i) {
    const glm::vec3 back = r->mesh.positions[i] * r->scaleToOriginal + r->offsetToOriginal;
    EXPECT_NEAR(glm::length(back - box.positions[i]), 0.0f, 1e-5f);
  }
}

TEST(MeshPolygonTriangulation, EarClippingKeepsConcavePolygonsInside) {
  // An L-shaped hexagon starting at a corner from which a fan would leave the polygon.
  const std::vector<glm::dvec3> ring = {{2, 0, 0}, {2, 1, 0}, {1, 1, 0}, {1, 2, 0}, {0, 2, 0}, {0, 0, 0}};
  std::vector<glm::uvec3> tris;
  triangulatePolygon(ring, tris);
  ASSERT_EQ(tris.size(), 4u);
  double area = 0.0;
  for (const glm::uvec3& t : tris) {
    const glm::dvec3 n = glm::cross(ring[t.y] - ring[t.x], ring[t.z] - ring[t.x]);
    EXPECT_GT(n.z, 0.0) << "every triangle keeps the polygon's winding";
    area += 0.5 * n.z;
  }
  EXPECT_NEAR(area, 3.0, 1e-12);  // the L is three unit squares
}

template <class T>
void expectError(const Result<T>& r, const std::string& path, const std::string& fragment) {
  ASSERT_FALSE(r.ok()) << "expected an error containing '" << fragment << "'";
  EXPECT_NE(r.error().message.find(path), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(fragment), std::string::npos) << r.error().message;
}

TEST(MeshObjLoader, HostileFilesGiveClearErrors) {
  TempDir dir;
  std::mt19937 rng(1234);
  std::string garbage(4096, '\0');
  for (char& c : garbage) c = char(rng() & 0xff);
  std::string p = dir.write("garbage.obj", garbage);
  expectError(loadObj(p), p, "binary data");

  p = dir.write("empty.obj", "");
  expectError(loadObj(p), p, "empty");

  p = dir.write("nan.obj", "v 0 0 0\nv 1 0 0\nv nan 1 0\nf 1 2 3\n");
  expectError(loadObj(p), p + ":3:", "not finite");

  p = dir.write("inf.obj", "v 0 0 0\nv 1 0 0\nv 0 1e39 0\nf 1 2 3\n");
  expectError(loadObj(p), p + ":3:", "not finite");

  p = dir.write("range.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 9\n");
  expectError(loadObj(p), p + ":5:", "only 3 vertices");

  p = dir.write("zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");
  expectError(loadObj(p), p + ":4:", "index 0");

  p = dir.write("relative.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n");
  expectError(loadObj(p), p + ":4:", "relative");

  p = dir.write("twocoords.obj", "v 0 0\nf 1 1 1\n");
  expectError(loadObj(p), p + ":1:", "three coordinates");

  p = dir.write("word.obj", "v 0 0 0\nv 1 0 zero\nf 1 2 1\n");
  expectError(loadObj(p), p + ":2:", "not a number");

  p = dir.write("slashes.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1/1/1 2 3\n");
  expectError(loadObj(p), p + ":4:", "more than three");

  p = dir.write("points.obj", "v 0 0 0\nv 1 0 0\n");
  expectError(loadObj(p), p, "no faces");

  p = dir.write("text.txt", "hello, this is not a mesh\njust words\n");
  expectError(loadObj(p), p, "no faces");

  p = dir.write("allsame.obj", "v 1 1 1\nv 1 1 1\nv 1 1 1\nf 1 2 3\n");
  expectError(loadObj(p), p, "same point");

  p = (dir.path() / "does_not_exist.obj").string();
  expectError(loadObj(p), p, "cannot open");

  p = dir.path().string();
  expectError(loadObj(p), p, "directory");
}

TEST(MeshObjLoader, RelativeIndicesAndForwardReferencesWork) {
  TempDir dir;
  // Negative indices count back from the last vertex so far; a forward
  // reference (vertex defined after the face) is accepted like most readers do.
  const std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -1 -2\nf 1 2 4\nv 0 0 1\nf 2 3 4\nf 1 4 3\n";
  Result<LoadedSurface> r = loadObj(dir.write("rel.obj", obj));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->mesh.triangles.size(), 4u);
  EXPECT_TRUE(checkSurface(r->mesh).watertight());
}

// Polylines ('l') are strands: read in file order, repeated points dropped,
// fitted like a surface; a surface load of such a file says what to do.
TEST(MeshObjLoader, PolylinesLoadAsStrandsAndASurfaceLoadSendsThemThere) {
  TempDir dir;
  const std::string p = dir.write("hair.obj",
                                  "v 0 0 0\nv 0 1 0\nv 0 2 0\nv 1 0 0\nv 1 1 0\n"
                                  "l 1 2 2 3\nl 4 5\n");
  Result<LoadedPolylines> lines = loadObjPolylines(p);
  ASSERT_TRUE(lines.ok()) << lines.error().message;
  ASSERT_EQ(lines->lines.size(), 2u);
  EXPECT_EQ(lines->lines[0].size(), 3u) << "the repeated point 2 is dropped";
  EXPECT_EQ(lines->lines[0][2], glm::vec3(0, 2, 0));
  EXPECT_EQ(lines->lines[1].size(), 2u);
  ASSERT_EQ(lines->warnings.size(), 1u);
  ObjLoadOptions fit;
  fit.normalizeScale = true;
  fit.fitSize = 0.5f;
  Result<LoadedPolylines> fitted = loadObjPolylines(p, fit);
  ASSERT_TRUE(fitted.ok());
  EXPECT_NEAR(fitted->lines[0][2].y - fitted->lines[0][0].y, 0.5f, 1e-6f) << "the 2 m extent fits 0.5 m";
  Result<ObjContents> contents = scanObjContents(p);
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(contents->faces, 0u);
  EXPECT_EQ(contents->polylines, 2u);
  expectError(loadObj(p), p, "only 2 polylines");

  const std::string bad = dir.write("bad.obj", "v 0 0 0\nv 1 0 0\nl 1 7\n");
  expectError(loadObjPolylines(bad), bad + ":3:", "vertex 7");
  const std::string single = dir.write("single.obj", "v 0 0 0\nl 1\n");
  expectError(loadObjPolylines(single), single + ":2:", "at least two points");
  const std::string same = dir.write("same.obj", "v 0 0 0\nv 0 0 0\nl 1 2\nf 1 2 1\n");
  expectError(loadObjPolylines(same), same, "fewer than two distinct points");
  const std::string surface = dir.write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  expectError(loadObjPolylines(surface), surface, "no polylines");
}

// Files the OBJ fuzz target (tests/fuzz/fuzz_obj.cpp) crashed the loader with,
// kept in tests/fuzz/regressions/obj/: each is now an error naming the file.
std::string objRegression(const char* name) {
  return std::string(TETLAB_SOURCE_DIR) + "/tests/fuzz/regressions/obj/" + name;
}

// " 0\nf ": a face with no corners and no vertex at all; the weld read the
// first vertex of an empty list.
TEST(MeshObjLoader, FuzzShortFaceWithoutVerticesIsAClearError) {
  const std::string p = objRegression("short_face_without_vertices.obj");
  expectError(loadObj(p), p, "every face has fewer than three corners");
}

// "v 0 0 0e500": our validator reads 0, tinyobjloader 0 * 5^500 = NaN, and the
// NaN reached the weld grid (a float-to-integer cast of NaN). The polyline
// loader shares the vertex read.
TEST(MeshObjLoader, FuzzExponentTheParserReadsAsNanIsAClearError) {
  const std::string p = objRegression("exponent_parsed_as_nan.obj");
  expectError(loadObj(p), p, "vertex 2 (the 'v' statement number 2) has a coordinate the OBJ parser reads as NaN or inf");
  TempDir dir;
  const std::string lines = dir.write("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 0 0e500\nl 1 2 3\n");
  expectError(loadObjPolylines(lines), lines, "vertex 3 (the 'v' statement number 3)");
}

}  // namespace
}  // namespace tetlab
