// Building scenes from descriptions: every preset file in assets/scenes builds;
// the beam file is the `beam` preset the physics tests validate; pins, kept
// cells and density regions give the counts and masses geometry predicts; the
// seed reproduces placements; render surfaces sit exactly on the rest shape.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "tests/preset_files.h"
#include "core/mesh/embedding.h"
#include "core/scene/scene_build.h"
#include "core/scene/scene_json.h"
#include "core/sim/presets.h"
#include "core/sim/sdf_grid.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

const fs::path kAssets = test::assetsDir();
SceneBuildOptions assetOptions() { return test::presetBuildOptions(); }

Result<BuiltScene> buildFile(const std::string& name) {
  Result<SceneDesc> desc = loadSceneFile(kAssets / "scenes" / name);
  if (!desc) return desc.error();
  return buildScene(*desc, assetOptions());
}

double totalMass(const SimModel& m) {
  double sum = 0.0;
  for (float x : m.mass) sum += x;
  return sum;
}

TEST(SceneBuild, EveryPresetFileBuildsWithSurfacesOnTheRestShape) {
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(kAssets / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    SCOPED_TRACE(entry.path().filename().string());
    Result<BuiltScene> built = buildFile(entry.path().filename().string());
    ASSERT_TRUE(built.ok()) << built.error().message;
    const SimModel& m = built->scene.model;
    EXPECT_GT(m.tetCount() + m.clothTriangles.size() + m.strandSegments.size(), 0u);
    ASSERT_EQ(built->surfaces.size(), built->bodies.size());
    std::vector<glm::vec4> rest(m.vertexCount());
    for (uint32_t i = 0; i < m.vertexCount(); ++i) rest[i] = glm::vec4(m.restPositions[i], 0.0f);
    for (const BodySurface& r : built->surfaces) {
      if (m.isStrand(r.body)) {  // strands are drawn as lines: no surface
        EXPECT_TRUE(r.surface.triangles.empty()) << r.name;
        continue;
      }
      ASSERT_FALSE(r.surface.triangles.empty()) << r.name;
      ASSERT_EQ(r.embedding.vertices.size(), r.surface.positions.size());
      const BodyRange& range = built->bodies[r.body];
      for (const glm::uvec4& ids : r.embedding.vertices)
        for (int k = 0; k < 4; ++k) {
          ASSERT_GE(ids[k], range.vertexBegin);
          ASSERT_LT(ids[k], range.vertexEnd);
        }
      // The embedding reproduces the surface at rest: exact for boundary surfaces, to float
      // rounding of the barycentric weights (relative to the body size) for embedded ones.
      std::vector<glm::vec3> placed(r.surface.positions.size());
      applyEmbedding(r.embedding, rest, placed);
      float size = 0.0f, worst = 0.0f;
      for (size_t i = 0; i < placed.size(); ++i) {
        size = std::max(size, glm::length(r.surface.positions[i] - r.surface.positions[0]));
        worst = std::max(worst, glm::length(placed[i] - r.surface.positions[i]));
      }
      EXPECT_LE(worst, r.fromBoundary ? 0.0f : 1e-5f * size) << r.name;
    }
  }
  EXPECT_GE(files, 6u) << "bunny_drop, beam, hang, pile, chain, squash";
}

TEST(SceneBuild, BeamFileIsTheBeamPresetLiftedHalfAMetre) {
  Result<BuiltScene> file = buildFile("beam.json");
  ASSERT_TRUE(file.ok()) << file.error().message;
  PresetOptions options;
  options.material = presetDefaultMaterial("beam");
  Result<Scene> preset = makePresetScene("beam", options);
  ASSERT_TRUE(preset.ok()) << preset.error().message;
  const SimModel& a = file->scene.model;
  const SimModel& b = preset->model;
  ASSERT_EQ(a.vertexCount(), b.vertexCount());
  ASSERT_EQ(a.tetCount(), b.tetCount());
  for (uint32_t i = 0; i < a.vertexCount(); ++i)
    ASSERT_EQ(a.restPositions[i], b.restPositions[i] + glm::vec3(0.0f, 0.5f, 0.0f)) << "vertex " << i;
  EXPECT_EQ(file->scene.pinned, preset->pinned);
  EXPECT_EQ(a.materials.at(0).youngsModulus, b.materials.at(0).youngsModulus);
  EXPECT_FALSE(file->scene.settings.colliders.ground.enabled);
}

// A preset is a scene description: written as a scene file and read back, it
// builds the same model, pins and settings, so `tetlab run --preset X` and a
// saved copy of it run the same simulation.
TEST(SceneBuild, EveryPresetRoundTripsThroughASceneFile) {
  for (const std::string& name : presetNames()) {
    PresetOptions options;
    options.material = presetDefaultMaterial(name);
    options.cellsThick = 1;
    Result<SceneDesc> desc = presetSceneDesc(name, options);
    ASSERT_TRUE(desc.ok()) << desc.error().message;
    Result<SceneDesc> reread = parseSceneJson(sceneToJsonText(*desc), name + ".json");
    ASSERT_TRUE(reread.ok()) << reread.error().message;
    Result<BuiltScene> a = buildScene(*desc, SceneBuildOptions{});
    Result<BuiltScene> b = buildScene(*reread, SceneBuildOptions{});
    ASSERT_TRUE(a.ok() && b.ok()) << name;
    EXPECT_EQ(a->scene.model.restPositions, b->scene.model.restPositions) << name;
    EXPECT_EQ(a->scene.pinned, b->scene.pinned) << name;
    EXPECT_FALSE(a->scene.model.restPositions.empty()) << name;
    EXPECT_EQ(a->scene.settings.solver, SolverKind::Xpbd) << name;
    EXPECT_EQ(b->scene.settings.colliders.ground.enabled, name != "beam") << name;
    EXPECT_EQ(b->scene.model.materials.at(0).youngsModulus, options.material.youngsModulus) << name;
  }
  // The beam is pinned at x = 0 only, the slab at its two top corner edges only.
  PresetOptions options;
  Result<Scene> hang = makePresetScene("hang", options);
  ASSERT_TRUE(hang.ok());
  EXPECT_EQ(hang->pinned.size(), 2u * (options.cellsThick + 1u));
  EXPECT_FALSE(presetSceneDesc("bridge", options).ok());
}

TEST(SceneBuild, HangingSlabIsPinnedAtTwoCornerEdges) {
  Result<BuiltScene> built = buildFile("hang.json");
  ASSERT_TRUE(built.ok()) << built.error().message;
  // Two corner edges through the thickness, 2 cells thick: 3 vertices each.
  ASSERT_EQ(built->scene.pinned.size(), 6u);
  for (uint32_t v : built->scene.pinned) {
    const glm::vec3 p = built->scene.model.restPositions[v];
    EXPECT_NEAR(p.y, 1.0f, 1e-6f);
    EXPECT_NEAR(std::fabs(p.x), 0.3f, 1e-6f);
  }
}

TEST(SceneBuild, ChainKeepsTheColumnAndTheDenseBlockWeighsWhatItsVolumeSays) {
  Result<BuiltScene> built = buildFile("chain.json");
  ASSERT_TRUE(built.ok()) << built.error().message;
  const SimModel& m = built->scene.model;
  // Block: 5 x 4 x 5 cells of 2 cm, 6 tets each; chain: 10 cells above its middle.
  EXPECT_EQ(m.tetCount(), (5u * 4u * 5u + 10u) * 6u);
  EXPECT_EQ(m.vertexCount(), 6u * 5u * 6u + 10u * 4u);
  // Mass: 8 kg block (10000 kg/m^3 x 0.1 x 0.08 x 0.1) plus 10 chain cells at 1000 kg/m^3.
  const double expected = 10000.0 * 0.1 * 0.08 * 0.1 + 1000.0 * 10 * 0.02 * 0.02 * 0.02;
  EXPECT_NEAR(totalMass(m), expected, 1e-5 * expected);
  EXPECT_EQ(built->scene.pinned.size(), 1u);  // one corner of the column's top face: a ball joint
  // Exactly the block's tets are 10x dense: 1000 chain cells' worth of mass hangs on the column.
  ASSERT_EQ(built->tetDensityScale.size(), m.tetCount());
  double denseVolume = 0.0;
  for (uint32_t t = 0; t < m.tetCount(); ++t)
    if (built->tetDensityScale[t] != 1.0f) {
      EXPECT_EQ(built->tetDensityScale[t], 10.0f);
      denseVolume += m.restVolume[t];
    }
  EXPECT_NEAR(denseVolume, 0.1 * 0.08 * 0.1, 1e-6 * 0.1 * 0.08 * 0.1);
}

TEST(SceneBuild, RecomputedLumpedMassMatchesTheBuilder) {
  Result<BuiltScene> built = buildFile("pile.json");
  ASSERT_TRUE(built.ok()) << built.error().message;
  SimModel m = built->scene.model;
  const std::vector<float> before = m.mass;
  recomputeLumpedMass(m, {});
  for (size_t i = 0; i < before.size(); ++i) EXPECT_NEAR(m.mass[i], before[i], 1e-6f * before[i]);
  // Doubling one body's density doubles exactly that body's mass.
  Material denser = m.materials[1];
  denser.density *= 2.0f;
  m.materials.set(1, denser);
  recomputeLumpedMass(m, {});
  for (size_t i = 0; i < before.size(); ++i) {
    const float factor = m.vertexBody[i] == 1 ? 2.0f : 1.0f;
    EXPECT_NEAR(m.mass[i], factor * before[i], 1e-6f * before[i]);
  }
}

SceneDesc twoBodies(uint64_t seed) {
  SceneDesc d;
  d.seed = seed;
  BodySpec still;
  still.box.cells = glm::uvec3(2);
  BodySpec spun = still;
  spun.transform.translate = {1.0f, 0.0f, 0.0f};
  spun.transform.randomYawDegrees = 90.0f;
  spun.transform.randomOffset = {0.1f, 0.0f, 0.1f};
  d.bodies = {still, spun};
  return d;
}

TEST(SceneBuild, SeedReproducesRandomPlacementAndOnlyMovesRandomizedBodies) {
  auto positions = [](uint64_t seed) {
    Result<BuiltScene> b = buildScene(twoBodies(seed), {});
    EXPECT_TRUE(b.ok()) << b.error().message;
    return b->scene.model.restPositions;
  };
  const auto a = positions(1), again = positions(1), other = positions(2);
  ASSERT_EQ(a, again);
  const uint32_t firstBodyVertices = 27;  // 3^3 lattice points
  bool secondMoved = false;
  for (uint32_t i = 0; i < a.size(); ++i) {
    if (i < firstBodyVertices)
      EXPECT_EQ(a[i], other[i]) << "a body without random ranges must not depend on the seed";
    else
      secondMoved = secondMoved || a[i] != other[i];
  }
  EXPECT_TRUE(secondMoved);
  // The random offset stays within its range: the box centre moves at most 0.1 m in x and z.
  glm::vec3 centre(0.0f);
  for (uint32_t i = firstBodyVertices; i < a.size(); ++i) centre += a[i];
  centre /= float(a.size() - firstBodyVertices);
  EXPECT_LE(std::fabs(centre.x - 1.0f), 0.1f + 1e-5f);
  EXPECT_LE(std::fabs(centre.z), 0.1f + 1e-5f);
  EXPECT_NEAR(centre.y, 0.0f, 1e-5f);
}

TEST(SceneBuild, LiftPutsTheLowestPointAtTheGivenHeight) {
  SceneDesc d;
  BodySpec b;
  b.source = BodySource::Sphere;
  b.transform.rotateDegrees = {30.0f, 10.0f, 0.0f};
  b.transform.lift = true;
  b.transform.liftTo = 0.25f;
  d.bodies = {b};
  Result<BuiltScene> built = buildScene(d, {});
  ASSERT_TRUE(built.ok()) << built.error().message;
  float minY = INFINITY;
  for (const glm::vec3& p : built->scene.model.restPositions) minY = std::min(minY, p.y);
  EXPECT_NEAR(minY, 0.25f, 1e-6f);
}

TEST(SceneBuild, ExplicitPinListsOverrideRegions) {
  SceneDesc d;
  BodySpec b;
  b.box.cells = glm::uvec3(2);
  b.pins.push_back(Region{glm::vec3(-1.0f), glm::vec3(1.0f, -0.1f + 1e-6f, 1.0f)});  // the bottom face: 9 vertices
  d.bodies = {b};
  Result<BuiltScene> regions = buildScene(d, {});
  ASSERT_TRUE(regions.ok());
  ASSERT_EQ(regions->scene.pinned.size(), 9u);
  d.unpinnedVertices = {regions->scene.pinned[0]};
  d.pinnedVertices = {26};  // the top corner
  Result<BuiltScene> edited = buildScene(d, {});
  ASSERT_TRUE(edited.ok());
  std::set<uint32_t> pinned(edited->scene.pinned.begin(), edited->scene.pinned.end());
  EXPECT_EQ(pinned.size(), 9u);
  EXPECT_FALSE(pinned.count(regions->scene.pinned[0]));
  EXPECT_TRUE(pinned.count(26));
  EXPECT_EQ(edited->regionPins, regions->scene.pinned);

  d.pinnedVertices = {27};
  Result<BuiltScene> bad = buildScene(d, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("pinned_vertices names vertex 27 but the model has 27 vertices"),
            std::string::npos)
      << bad.error().message;
}

TEST(SceneBuild, MissingMeshNamesTheBodyAndWhereItLooked) {
  SceneDesc d;
  BodySpec b;
  b.name = "ghost";
  b.source = BodySource::Mesh;
  b.meshPath = "no_such_mesh.obj";
  d.bodies = {b};
  Result<BuiltScene> built = buildScene(d, assetOptions());
  ASSERT_FALSE(built.ok());
  const std::string& message = built.error().message;
  EXPECT_NE(message.find("body 'ghost'"), std::string::npos) << message;
  EXPECT_NE(message.find("no_such_mesh.obj"), std::string::npos) << message;
  EXPECT_NE(message.find((kAssets / "meshes" / "no_such_mesh.obj").string()), std::string::npos) << message;
}

// A scene's mesh collider is loaded with the scene (its grid sampled, its
// surface kept for drawing), found like a body's mesh; a missing or open OBJ
// fails the build with the file named.
TEST(SceneBuild, MeshCollidersLoadWithTheSceneAndBadOnesNameTheFile) {
  SceneDesc d;
  BodySpec b;
  b.source = BodySource::Box;
  d.bodies = {b};
  MeshCollider m;
  m.mesh = "torus.obj";
  m.resolution = 24;
  d.settings.colliders.meshes.push_back(m);
  Result<BuiltScene> built = buildScene(d, assetOptions());
  ASSERT_TRUE(built.ok()) << built.error().message;
  const MeshCollider& loaded = built->scene.settings.colliders.meshes.at(0);
  ASSERT_TRUE(loaded.grid && loaded.surface);
  EXPECT_EQ(std::max({loaded.grid->dims.x, loaded.grid->dims.y, loaded.grid->dims.z}), 24u);
  EXPECT_FALSE(loaded.surface->triangles.empty());

  d.settings.colliders.meshes[0].mesh = "no_such_collider.obj";
  Result<BuiltScene> missing = buildScene(d, assetOptions());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no_such_collider.obj"), std::string::npos) << missing.error().message;
  EXPECT_NE(missing.error().message.find("mesh collider"), std::string::npos) << missing.error().message;
}

// Body kinds of an OBJ body: "auto" makes an open surface (a hemisphere cap
// with a rim) a cloth of the surface's own triangles, drawn as they are; a
// closed one stays a solid; "cloth" makes even a closed one a sheet.
// The hair generator: strands of points grown along the head's normals, each
// segment length / (points - 1), roots on the sphere and clamped (two points).
TEST(SceneBuild, HairGrowsClampedStrandsFromTheHead) {
  SceneDesc d;
  BodySpec b;
  b.name = "hair";
  b.source = BodySource::Hair;
  b.hair.center = glm::vec3(0.0f, 1.0f, 0.0f);
  b.hair.radius = 0.1f;
  b.hair.strands = 20;
  b.hair.points = 6;
  b.hair.length = 0.15f;
  b.hair.capDegrees = 70.0f;
  b.material.thickness = 1e-3f;
  d.bodies = {b};
  Result<BuiltScene> built = buildScene(d, assetOptions());
  ASSERT_TRUE(built.ok()) << built.error().message;
  const SimModel& m = built->scene.model;
  EXPECT_TRUE(m.isStrand(0));
  EXPECT_EQ(m.vertexCount(), 20u * 6u);
  EXPECT_EQ(m.strandSegments.size(), 20u * 5u);
  EXPECT_EQ(m.hingeCount(), 20u * 4u) << "every interior point bends";
  EXPECT_EQ(built->scene.pinned.size(), 20u * 2u) << "root and next point of every strand";
  for (uint32_t s = 0; s < 20; ++s) {
    const glm::vec3 root = m.restPositions[s * 6], tip = m.restPositions[s * 6 + 5];
    EXPECT_NEAR(glm::length(root - b.hair.center), 0.1f, 1e-5f);
    EXPECT_NEAR(glm::length(tip - b.hair.center), 0.25f, 1e-5f) << "straight along the normal without jitter";
    EXPECT_GE(glm::normalize(root - b.hair.center).y, std::cos(70.0f * 3.14159265f / 180.0f) - 1e-5f) << "within the cap";
  }
  EXPECT_TRUE(built->surfaces.empty() || built->surfaces[0].surface.triangles.empty()) << "drawn as lines";
}

// An OBJ of polylines and no faces loads as strands (kind auto), and kind
// "strand" takes the polylines of a file that also has faces.
TEST(SceneBuild, ObjPolylinesBecomeStrands) {
  const fs::path dir = fs::temp_directory_path() / "tetlab_strand_kind_test";
  fs::create_directories(dir);
  const fs::path rope = dir / "rope.obj";
  {
    std::ofstream out(rope);
    for (int k = 0; k < 5; ++k) out << "v " << 0.1 * k << " 1 0\n";
    out << "v 0 0 0\nv 1 0 0\nv 0 0 1\n";
    out << "l 1 2 3 4 5\n";
  }
  SceneDesc d;
  BodySpec b;
  b.name = "rope";
  b.source = BodySource::Mesh;
  b.meshPath = rope.string();
  b.material.thickness = 5e-3f;
  d.bodies = {b};
  Result<BuiltScene> autoKind = buildScene(d, assetOptions());
  ASSERT_TRUE(autoKind.ok()) << autoKind.error().message;
  EXPECT_TRUE(autoKind->scene.model.isStrand(0));
  EXPECT_EQ(autoKind->scene.model.strandSegments.size(), 4u);
  EXPECT_EQ(autoKind->scene.model.vertexCount(), 5u) << "points outside every polyline are not bodies";
  EXPECT_NE(autoKind->bodies[0].note.find("no faces"), std::string::npos) << autoKind->bodies[0].note;
  {
    std::ofstream out(rope, std::ios::app);
    out << "f 6 7 8\n";
  }
  Result<BuiltScene> surfaceToo = buildScene(d, assetOptions());
  ASSERT_TRUE(surfaceToo.ok()) << surfaceToo.error().message;
  EXPECT_TRUE(surfaceToo->scene.model.isCloth(0)) << "auto: a file with a face is a surface (one open triangle: a cloth)";
  d.bodies[0].kind = BodyKindChoice::Strand;
  Result<BuiltScene> forced = buildScene(d, assetOptions());
  ASSERT_TRUE(forced.ok()) << forced.error().message;
  EXPECT_TRUE(forced->scene.model.isStrand(0));
  EXPECT_NE(forced->bodies[0].note.find("kind \"strand\""), std::string::npos);
  fs::remove_all(dir);
}

TEST(SceneBuild, OpenObjBecomesClothAndKindOverridesIt) {
  const fs::path dir = fs::temp_directory_path() / "tetlab_cloth_kind_test";
  fs::create_directories(dir);
  const fs::path cap = dir / "cap.obj";
  {
    std::ofstream out(cap);
    // An open cap: a ring of 8 vertices around a raised centre, 8 triangles, 8 rim edges.
    out << "v 0 0.3 0\n";
    for (int k = 0; k < 8; ++k) {
      const double a = 2.0 * 3.14159265358979 * k / 8.0;
      out << "v " << std::cos(a) << " 0 " << std::sin(a) << "\n";
    }
    for (int k = 0; k < 8; ++k) out << "f 1 " << 2 + (k + 1) % 8 << " " << 2 + k << "\n";
  }
  SceneDesc d;
  BodySpec b;
  b.name = "cap";
  b.source = BodySource::Mesh;
  b.meshPath = cap.string();
  b.material.thickness = 5e-4f;
  d.bodies = {b};
  Result<BuiltScene> open = buildScene(d, assetOptions());
  ASSERT_TRUE(open.ok()) << open.error().message;
  const SimModel& m = open->scene.model;
  EXPECT_TRUE(m.isCloth(0));
  EXPECT_EQ(m.tetCount(), 0u);
  EXPECT_EQ(m.vertexCount(), 9u);
  EXPECT_EQ(m.clothTriangles.size(), 8u);
  EXPECT_NE(open->bodies[0].note.find("open surface, 8 boundary edges"), std::string::npos) << open->bodies[0].note;
  ASSERT_EQ(open->surfaces.size(), 1u);
  EXPECT_EQ(open->surfaces[0].surface.triangles.size(), 8u);
  double clothMass = 0.0, area = 0.0;
  for (float x : m.mass) clothMass += x;
  for (float a : m.clothTriangleArea) area += a;
  EXPECT_NEAR(clothMass, 1000.0 * 5e-4 * area, 1e-6 * clothMass);

  d.bodies[0].meshPath = "cube_5.obj";
  Result<BuiltScene> closed = buildScene(d, assetOptions());
  ASSERT_TRUE(closed.ok()) << closed.error().message;
  EXPECT_FALSE(closed->scene.model.isCloth(0));
  EXPECT_GT(closed->scene.model.tetCount(), 0u);
  d.bodies[0].kind = BodyKindChoice::Cloth;
  Result<BuiltScene> forced = buildScene(d, assetOptions());
  ASSERT_TRUE(forced.ok()) << forced.error().message;
  EXPECT_TRUE(forced->scene.model.isCloth(0));
  EXPECT_EQ(forced->scene.model.tetCount(), 0u);
  fs::remove_all(dir);
}

TEST(SceneBuild, JobReportsProgressAndCanBeCancelled) {
  Result<SceneDesc> desc = loadSceneFile(kAssets / "scenes" / "pile.json");
  ASSERT_TRUE(desc.ok());
  SceneBuildJob job;
  job.start(*desc, assetOptions());
  while (!job.finished()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  std::optional<Result<BuiltScene>> result = job.take();
  ASSERT_TRUE(result.has_value());
  ASSERT_TRUE(result->ok()) << result->error().message;
  // Every body of the file is built (the pile has several).
  ASSERT_GT(desc->bodies.size(), 1u);
  EXPECT_EQ((*result)->bodies.size(), desc->bodies.size());
  EXPECT_FALSE(job.take().has_value()) << "a result is taken once";

  // Cancelled before it starts working: the build stops with a cancel message.
  std::atomic<bool> cancel{true};
  Result<BuiltScene> cancelled = buildScene(*desc, assetOptions(), {}, &cancel);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_NE(cancelled.error().message.find("cancelled"), std::string::npos);
}

}  // namespace
}  // namespace tetlab

namespace tetlab {
namespace {

// A relative mesh path belongs to the scene: its folder wins over the working
// directory (a stray file there must not shadow the scene's mesh), and a
// folder or device where the mesh should be is named as such (issue 16).
TEST(SceneMeshPath, TheScenesFolderComesBeforeTheWorkingDirectory) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("tetlab_mesh_path_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "scene");
  fs::create_directories(root / "cwd" / "folder.obj");
  for (const fs::path& p : {root / "scene" / "m.obj", root / "cwd" / "m.obj"}) std::ofstream(p) << "# mesh\n";
  const fs::path previous = fs::current_path();
  fs::current_path(root / "cwd");
  Result<fs::path> found = resolveSceneMeshPath("m.obj", {root / "scene"});
  Result<fs::path> onlyHere = resolveSceneMeshPath("m.obj", {});
  Result<fs::path> folder = resolveSceneMeshPath("folder.obj", {root / "scene"});
  fs::current_path(previous);
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_EQ(found->lexically_normal(), (root / "scene" / "m.obj").lexically_normal());
  ASSERT_TRUE(onlyHere.ok()) << "the working directory is the last resort";
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().message.find("is not a regular file"), std::string::npos) << folder.error().message;
  fs::remove_all(root);
}

}  // namespace
}  // namespace tetlab
