// Scene files: a scene with every field away from its default survives
// save -> load unchanged (bit for bit), and bad files fail with the file, the
// JSON Pointer of the bad value and what to do.
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/scene/scene_json.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

SceneDesc everythingChanged() {
  SceneDesc s;
  s.name = "round trip";
  s.description = "every value away from its default";
  s.seed = 1234567890123ull;
  BodySpec mesh;
  mesh.name = "bunny";
  mesh.source = BodySource::Mesh;
  mesh.meshPath = "meshes/bunny_10k.obj";
  mesh.fitSize = 0.37f;
  mesh.tets = TetSpec{1234, false, 1.7, TetMethod::VoxelOnly, 17};
  mesh.transform = BodyTransform{{0.1f, 0.2f, 0.3f}, {10.0f, 20.0f, 30.0f}, 1.5f, {0.01f, 0.0f, 0.02f}, 15.0f, true, 0.4f};
  mesh.material = Material{2.5e5f, 0.41f, 950.0f, 0.01f, 3e-4f, 7.5e-6f};
  mesh.kind = BodyKindChoice::Cloth;
  mesh.pins.push_back(Region{{-1.0f, 0.9f, -1.0f}, {1.0f, 1.1f, 1.0f}});
  mesh.densityRegions.push_back(DensityRegion{Region{{0, 0, 0}, {1, 1, 1}}, 5000.0f});
  mesh.initialVelocity = {0.5f, -1.0f / 3.0f, 0.25f};
  s.bodies.push_back(mesh);
  BodySpec box;
  box.source = BodySource::Box;
  box.box = BoxGenerator{{-0.2f, 0.0f, -0.1f}, {0.4f, 0.1f, 0.2f}, {8u, 2u, 4u}, CubeSplit::Five, {}};
  box.box.keep.push_back(Region{{-1, -1, -1}, {0, 1, 1}});
  s.bodies.push_back(box);
  BodySpec sphere;
  sphere.source = BodySource::Sphere;
  sphere.sphere = SphereGenerator{{0.1f, 0.2f, 0.3f}, 0.07f, 5};
  s.bodies.push_back(sphere);
  BodySpec torus;
  torus.source = BodySource::Torus;
  torus.torus = TorusGenerator{{0, 1, 0}, 0.2f, 0.06f, 17, 3};
  s.bodies.push_back(torus);
  BodySpec cloth;
  cloth.source = BodySource::Cloth;
  cloth.cloth = ClothGenerator{{-0.3f, 0.7f, -0.2f}, {0.6f, 0.4f}, {12u, 9u}};
  s.bodies.push_back(cloth);
  s.pinnedVertices = {3, 5, 8};
  s.unpinnedVertices = {1};

  SolverSettings& st = s.settings;
  st.solver = SolverKind::Avbd;
  st.step.dt = 1.0f / 120.0f;
  st.step.substeps = 7;
  st.step.iterations = 13;
  st.step.gravity = {0.1f, -3.7f, 0.2f};
  st.step.velocityDamping = 0.3f;
  st.step.gpuSchedule = GpuSchedule::OneGroup;
  st.step.constraints = ConstraintToggles{true, true, true, false, true, false, false, false};
  st.positionBased.stretchScale = {1.1f, 1.2f, 1.3f};
  st.positionBased.shearScale = {0.7f, 0.8f, 0.9f};
  st.positionBased.restScale = {1.2f, 0.9f, 1.05f};
  st.positionBased.materialAxis = {0.6f, 0.8f, 0.0f};
  st.positionBased.tetherSlack = 0.05f;
  st.positionBased.contactOffset = 0.002f;
  st.pbd = PbdParams{PbdScheme::Jacobi, 1.7f, PbdStiffnessMapping::PerIteration, 90.0f};
  st.xpbd = XpbdParams{0.5f};
  st.step.rayleigh = RayleighDampingSettings{57, 2e-4f};
  st.vbd.initialGuess = VbdInitialGuess::InertiaAcceleration;
  st.vbd.accelerate = true;
  st.vbd.chebyshevRho = 0.85f;
  st.vbd.safeguard = HessianSafeguard::DeterminantThreshold;
  st.vbd.determinantThreshold = 2e-6f;
  st.vbd.contactStiffness = 3e5f;
  st.vbd.contactThickness = 0.001f;
  st.vbd.frictionEpsilon = 0.02f;
  st.vbd.bodyContactStiffness = 3.5f;
  st.avbd.primal.bodyContactStiffness = 1.5f;
  st.avbd.primal.initialGuess = VbdInitialGuess::Inertia;
  st.avbd.primal.safeguard = HessianSafeguard::None;
  st.avbd.alpha = 0.9f;
  st.avbd.gamma = 0.95f;
  st.avbd.beta = 1e7f;
  st.avbd.kStart = 500.0f;
  st.avbd.kStartInertia = 2.0f;
  st.avbd.kMax = 1e8f;
  st.avbd.hardContacts = false;
  st.avbd.hardPins = true;
  st.avbd.hardAttachment = true;
  st.avbd.hardEdges = true;
  st.avbd.friction = false;
  st.colliders.ground = GroundPlane{false, -0.1f, 0.8f};
  st.colliders.spheres.push_back(SphereCollider{{1, 2, 3}, 0.3f, 0.1f});
  BoxCollider b;
  b.center = {0.5f, 0.1f, 0.0f};
  b.halfExtents = {0.2f, 0.05f, 0.1f};
  b.rotation = glm::mat3(glm::vec3(0, 1, 0), glm::vec3(-1, 0, 0), glm::vec3(0, 0, 1));  // 90 deg about z
  b.friction = 0.3f;
  st.colliders.boxes.push_back(b);
  st.colliders.capsules.push_back(CapsuleCollider{{0, 0, 0}, {0, 1, 0}, 0.05f, 0.6f});
  TorusCollider ring;
  ring.center = {0.2f, 0.3f, -0.1f};
  ring.majorRadius = 0.35f;
  ring.minorRadius = 1.0f / 30.0f;
  ring.rotation = glm::mat3(glm::vec3(1, 0, 0), glm::vec3(0, 0, 1), glm::vec3(0, -1, 0));  // 90 deg about x
  ring.friction = 0.25f;
  st.colliders.tori.push_back(ring);
  MeshCollider meshCollider;
  meshCollider.mesh = "meshes/spot.obj";
  meshCollider.center = {0.1f, 0.2f, 0.3f};
  meshCollider.size = 0.45f;
  meshCollider.resolution = 33;
  meshCollider.friction = 0.7f;
  st.colliders.meshes.push_back(meshCollider);
  st.colliders.planes.push_back(PlaneCollider{{0.0f, 0.1f, 0.0f}, {0.3f, 1.0f / 3.0f, 0.0f}, 0.45f});
  st.bodyContacts = BodyContactParams{0.003f, 0.04f, 0.7f, true};
  st.wind = WindSettings{true, {3.0f, -0.5f, 1.0f / 3.0f}, 1.1f, 0.9f, 0.4f, 0.35f, 0.7f, 42};
  s.camera = CameraSpec{true, {0.1f, 0.2f, 0.3f}, 2.5f, 40.0f, 25.0f};
  s.mouse = MouseSpec{5000.0f, 250.0f};
  return s;
}

TEST(SceneJson, RoundTripKeepsEverySettingExactly) {
  const SceneDesc original = everythingChanged();
  const std::string text = sceneToJsonText(original);
  Result<SceneDesc> loaded = parseSceneJson(text, "roundtrip.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message << "\n" << text;
  // A second save of the loaded scene writes the same document ...
  EXPECT_EQ(sceneToJsonText(*loaded), text);
  // ... and spot checks of the typed values, bitwise for floats.
  const SceneDesc& l = *loaded;
  EXPECT_EQ(l.seed, original.seed);
  ASSERT_EQ(l.bodies.size(), 5u);
  EXPECT_EQ(l.bodies[0].source, BodySource::Mesh);
  EXPECT_EQ(l.bodies[0].meshPath, original.bodies[0].meshPath);
  EXPECT_EQ(l.bodies[0].tets.method, TetMethod::VoxelOnly);
  EXPECT_EQ(l.bodies[0].tets.voxelResolution, 17);
  EXPECT_TRUE(l.bodies[0].transform.lift);
  EXPECT_TRUE(sameBits(l.bodies[0].initialVelocity.y, -1.0f / 3.0f));
  EXPECT_TRUE(sameBits(l.bodies[0].material.poissonRatio, 0.41f));
  EXPECT_TRUE(sameBits(l.bodies[0].material.thickness, 3e-4f));
  EXPECT_TRUE(sameBits(l.bodies[0].material.bendingStiffness, 7.5e-6f));
  EXPECT_LT(l.bodies[1].material.bendingStiffness, 0.0f) << "the default, the plate's D, saved as \"plate\"";
  EXPECT_EQ(l.bodies[0].kind, BodyKindChoice::Cloth);
  EXPECT_TRUE(sameBits(l.bodies[0].densityRegions.at(0).density, 5000.0f));
  EXPECT_EQ(l.bodies[1].source, BodySource::Box);
  EXPECT_EQ(l.bodies[1].box.split, CubeSplit::Five);
  EXPECT_EQ(l.bodies[1].box.cells, glm::uvec3(8, 2, 4));
  ASSERT_EQ(l.bodies[1].box.keep.size(), 1u);
  EXPECT_EQ(l.bodies[2].source, BodySource::Sphere);
  EXPECT_EQ(l.bodies[3].source, BodySource::Torus);
  EXPECT_EQ(l.bodies[3].torus.ringSegments, 17u);
  EXPECT_EQ(l.bodies[4].source, BodySource::Cloth);
  EXPECT_EQ(l.bodies[4].cloth.cells, glm::uvec2(12, 9));
  EXPECT_TRUE(sameBits(l.bodies[4].cloth.size.y, 0.4f) && sameBits(l.bodies[4].cloth.min.y, 0.7f));
  EXPECT_EQ(l.pinnedVertices, original.pinnedVertices);
  EXPECT_EQ(l.unpinnedVertices, original.unpinnedVertices);
  const SolverSettings& a = l.settings;
  const SolverSettings& e = original.settings;
  EXPECT_EQ(a.solver, SolverKind::Avbd);
  EXPECT_TRUE(sameBits(a.step.dt, e.step.dt));
  EXPECT_EQ(a.step.substeps, 7);
  EXPECT_EQ(a.step.iterations, 13);
  EXPECT_TRUE(sameBits(a.step.gravity.y, e.step.gravity.y));
  EXPECT_TRUE(a.step.constraints.edges && a.step.constraints.tetVolume && a.step.constraints.strainBased);
  EXPECT_FALSE(a.step.constraints.neoHookean || a.step.constraints.collisions || a.step.constraints.bodyContacts ||
               a.step.constraints.bending);
  EXPECT_TRUE(sameBits(a.bodyContacts.thickness, 0.003f) && sameBits(a.bodyContacts.searchRadius, 0.04f));
  EXPECT_TRUE(sameBits(a.bodyContacts.friction, 0.7f) && a.bodyContacts.selfCollision);
  EXPECT_EQ(a.pbd.scheme, PbdScheme::Jacobi);
  EXPECT_EQ(a.pbd.mapping, PbdStiffnessMapping::PerIteration);
  EXPECT_TRUE(sameBits(a.xpbd.complianceScale, 0.5f));
  EXPECT_EQ(a.step.rayleigh.maxIterations, 57);
  EXPECT_EQ(a.step.gpuSchedule, GpuSchedule::OneGroup);
  EXPECT_TRUE(sameBits(a.step.rayleigh.tolerance, 2e-4f));
  EXPECT_EQ(a.vbd.safeguard, HessianSafeguard::DeterminantThreshold);
  EXPECT_TRUE(sameBits(a.vbd.determinantThreshold, 2e-6f));
  EXPECT_TRUE(sameBits(a.vbd.bodyContactStiffness, 3.5f));
  EXPECT_TRUE(sameBits(a.avbd.primal.bodyContactStiffness, 1.5f));
  EXPECT_EQ(a.avbd.primal.safeguard, HessianSafeguard::None);
  EXPECT_TRUE(sameBits(a.avbd.beta, 1e7f));
  EXPECT_TRUE(a.avbd.hardPins && a.avbd.hardEdges && !a.avbd.friction);
  EXPECT_FALSE(a.colliders.ground.enabled);
  ASSERT_EQ(a.colliders.boxes.size(), 1u);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r)
      EXPECT_TRUE(sameBits(a.colliders.boxes[0].rotation[c][r], e.colliders.boxes[0].rotation[c][r]));
  ASSERT_EQ(a.colliders.meshes.size(), 1u);
  EXPECT_EQ(a.colliders.meshes[0].mesh, "meshes/spot.obj");
  EXPECT_EQ(a.colliders.meshes[0].resolution, 33);
  EXPECT_TRUE(sameBits(a.colliders.meshes[0].size, 0.45f) && sameBits(a.colliders.meshes[0].friction, 0.7f));
  EXPECT_FALSE(a.colliders.meshes[0].grid) << "parsing loads nothing: buildScene samples the grid";
  ASSERT_EQ(a.colliders.tori.size(), 1u);
  EXPECT_TRUE(sameBits(a.colliders.tori[0].minorRadius, 1.0f / 30.0f) && sameBits(a.colliders.tori[0].friction, 0.25f));
  EXPECT_TRUE(sameBits(a.colliders.tori[0].rotation[1][2], 1.0f));
  ASSERT_EQ(a.colliders.planes.size(), 1u);
  EXPECT_TRUE(sameBits(a.colliders.planes[0].normal.y, 1.0f / 3.0f) && sameBits(a.colliders.planes[0].friction, 0.45f));
  EXPECT_TRUE(a.wind.enabled);
  EXPECT_TRUE(sameBits(a.wind.velocity.z, 1.0f / 3.0f) && sameBits(a.wind.gustPeriod, 0.7f));
  EXPECT_EQ(a.wind.seed, 42u);
  EXPECT_TRUE(l.camera.set);
  EXPECT_TRUE(sameBits(l.mouse.maxForce, 250.0f));
}

TEST(SceneJson, APlaneWithoutANormalDirectionIsRejected) {
  Result<SceneDesc> bad = parseSceneJson(
      R"({ "bodies": [ { "sphere": {} } ], "colliders": { "planes": [ { "point": [0, 0, 0], "normal": [0, 0, 0] } ] } })",
      "plane.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("/colliders/planes/0/normal"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("non-zero"), std::string::npos) << bad.error().message;
}

TEST(SceneJson, ATorusWithoutAHoleIsRejected) {
  Result<SceneDesc> bad = parseSceneJson(
      R"({ "bodies": [ { "sphere": {} } ],
           "colliders": { "tori": [ { "center": [0, 0, 0], "major_radius": 0.1, "minor_radius": 0.2 } ] } })",
      "torus.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("/colliders/tori/0/minor_radius"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("smaller than major_radius"), std::string::npos) << bad.error().message;
}

// Numbers the parser or the float fields cannot hold (issue 16): a clear error
// naming the file, the line and column or the field, never an abort.
TEST(SceneJson, NumbersBeyondTheRangeTheyAreStoredInAreClearErrors) {
  const std::string head = R"({ "bodies": [ { "sphere": {} } ],
  "step": { "dt": )";
  Result<SceneDesc> huge = parseSceneJson(head + "1e400 } }", "huge.json");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().message.find("huge.json:2:19"), std::string::npos) << huge.error().message;
  EXPECT_NE(huge.error().message.find("'1e400'"), std::string::npos) << huge.error().message;
  EXPECT_NE(huge.error().message.find("beyond the range of a double"), std::string::npos) << huge.error().message;

  Result<SceneDesc> gravity =
      parseSceneJson(R"({ "bodies": [ { "sphere": {} } ], "step": { "gravity": [0, -1e39, 0] } })", "g.json");
  ASSERT_FALSE(gravity.ok());
  EXPECT_NE(gravity.error().message.find("/step/gravity/1"), std::string::npos) << gravity.error().message;
  EXPECT_NE(gravity.error().message.find("32-bit float"), std::string::npos) << gravity.error().message;

  Result<SceneDesc> rotation = parseSceneJson(
      R"({ "bodies": [ { "sphere": {} } ], "colliders": { "boxes": [ { "center": [0, 0, 0], "half_extents": [1, 1, 1],
           "rotation": [[1e39, 0, 0], [0, 1, 0], [0, 0, 1]] } ] } })",
      "r.json");
  ASSERT_FALSE(rotation.ok()) << "a non-finite rotation must not pass the orthonormality check";
  EXPECT_NE(rotation.error().message.find("/colliders/boxes/0/rotation"), std::string::npos)
      << rotation.error().message;
}

// Scenes the scene fuzz target (tests/fuzz/fuzz_scene.cpp) rejects, kept in
// tests/fuzz/regressions/scene/. Its check: a scene that parses must save and
// load again. A value in range as a double but out of it once stored as a
// float (0.49999999999 -> 0.5, 1e-50 -> 0) parsed, and its saved file did not.
TEST(SceneJson, FuzzValuesOutOfRangeOnceStoredAsFloatsAreClearErrors) {
  struct Case {
    const char* file;
    const char* field;
    const char* detail;
  };
  for (const Case& c : {Case{"poisson_ratio_rounds_to_its_limit.json", "at /bodies/0/material/poisson_ratio",
                             "must be >= 0 and < 0.5, got 0.49999999999, which a 32-bit float stores as 0.5"},
                        Case{"radius_rounds_to_zero.json", "at /bodies/0/sphere/radius",
                             "must be > 0, got 1e-50, which a 32-bit float stores as 0"}}) {
    const fs::path path = fs::path(TETLAB_SOURCE_DIR) / "tests/fuzz/regressions/scene" / c.file;
    Result<SceneDesc> s = loadSceneFile(path);
    ASSERT_FALSE(s.ok()) << c.file;
    EXPECT_NE(s.error().message.find(path.string()), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find(c.field), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find(c.detail), std::string::npos) << s.error().message;
  }
}

TEST(SceneJson, ShortestFloatTextStillRoundTrips) {
  // 1/60 s is saved as the shortest decimal that reads back to the same float.
  SceneDesc s;
  s.bodies.emplace_back();
  s.settings.step.dt = 1.0f / 60.0f;
  const std::string text = sceneToJsonText(s);
  EXPECT_NE(text.find("\"dt\": 0.016666668"), std::string::npos) << text;
  Result<SceneDesc> loaded = parseSceneJson(text, "dt.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_TRUE(sameBits(loaded->settings.step.dt, 1.0f / 60.0f));
}

TEST(SceneJson, MinimalFileUsesTheStructDefaults) {
  Result<SceneDesc> s = parseSceneJson(R"({ "bodies": [ { "sphere": {} } ] })", "minimal.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  const SolverSettings defaults;
  EXPECT_EQ(s->settings.solver, defaults.solver);
  EXPECT_EQ(s->settings.step.substeps, defaults.step.substeps);
  EXPECT_EQ(s->bodies.at(0).source, BodySource::Sphere);
  EXPECT_EQ(s->bodies.at(0).name, "body 1");
  EXPECT_FALSE(s->camera.set);
}

// Each bad document must fail with the source name, the JSON Pointer (or
// line:column for syntax errors) and a hint.
struct BadCase {
  const char* label;
  const char* json;
  std::vector<const char*> expected;  // substrings of the message
};

class SceneJsonBad : public testing::TestWithParam<BadCase> {};

TEST(SceneJsonLimits, ThousandsOfBodiesAreRefusedAtOnce) {
  std::string json = R"({ "bodies": [)";
  for (int i = 0; i < 1001; ++i) json += std::string(i ? "," : "") + R"({ "box": { "cells": [1, 1, 1] } })";
  json += "] }";
  Result<SceneDesc> r = parseSceneJson(json, "many.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("at /bodies: has 1,001 bodies; a scene holds at most 1000"), std::string::npos)
      << r.error().message;
  // Nested arrays 100,000 deep (an unknown key's value) are an error, not a stack overflow.
  const std::string deep = R"({ "bodies": [ { "box": {} } ], "x": )" + std::string(100000, '[') +
                           std::string(100000, ']') + "}";
  Result<SceneDesc> nested = parseSceneJson(deep, "deep.json");
  ASSERT_FALSE(nested.ok());
  EXPECT_NE(nested.error().message.find("unknown key 'x'"), std::string::npos) << nested.error().message;
}

TEST_P(SceneJsonBad, NamesFilePathAndFix) {
  const BadCase& c = GetParam();
  Result<SceneDesc> r = parseSceneJson(c.json, "scenes/bad.json");
  ASSERT_FALSE(r.ok()) << c.label;
  const std::string& message = r.error().message;
  EXPECT_EQ(message.rfind("scenes/bad.json", 0), 0u) << message;
  for (const char* part : c.expected) EXPECT_NE(message.find(part), std::string::npos) << c.label << ": " << message;
}

INSTANTIATE_TEST_SUITE_P(
    BadFiles, SceneJsonBad,
    testing::Values(
        BadCase{"syntax", "{\n  \"bodies\": [\n    { \"sphere\": {} },\n  ]\n}", {"scenes/bad.json:4:", "not valid JSON"}},
        BadCase{"no bodies", R"({ "name": "x" })", {"at /bodies", "at least one body"}},
        BadCase{"unknown key", R"({ "bodies": [ { "sphere": {}, "material": { "youngs": 1e5 } } ] })",
                {"at /bodies/0/material/youngs", "unknown key 'youngs'", "youngs_modulus", "fix the spelling"}},
        BadCase{"wrong type", R"({ "bodies": [ { "sphere": {} } ], "step": { "substeps": "ten" } })",
                {"at /step/substeps", "expected a whole number", "\"ten\""}},
        BadCase{"out of range", R"({ "bodies": [ { "box": {}, "material": { "poisson_ratio": 0.7 } } ] })",
                {"at /bodies/0/material/poisson_ratio", "< 0.5", "got 0.7"}},
        BadCase{"unknown solver", R"({ "bodies": [ { "box": {} } ], "solver": "fem" })",
                {"at /solver", "unknown value 'fem'", "pbd, xpbd, vbd or avbd"}},
        BadCase{"two geometries", R"({ "bodies": [ { "box": {}, "mesh": "a.obj" } ] })",
                {"at /bodies/0", "exactly one of"}},
        BadCase{"no geometry", R"({ "bodies": [ { "name": "x" } ] })", {"at /bodies/0", "needs its geometry"}},
        BadCase{"bad vector", R"({ "bodies": [ { "box": { "size": [1, 2] } } ] })",
                {"at /bodies/0/box/size", "[x, y, z]"}},
        BadCase{"bad region", R"({ "bodies": [ { "box": {}, "pins": [ { "min": [1, 0, 0], "max": [0, 1, 1] } ] } ] })",
                {"at /bodies/0/pins/0", "min must not exceed max"}},
        BadCase{"torus radii", R"({ "bodies": [ { "torus": { "major_radius": 0.1, "minor_radius": 0.2 } } ] })",
                {"at /bodies/0/torus/minor_radius", "smaller than major_radius"}},
        BadCase{"not a rotation", R"({ "bodies": [ { "box": {} } ], "colliders": { "boxes": [ { "rotation": [[2, 0, 0], [0, 1, 0], [0, 0, 1]] } ] } })",
                {"at /colliders/boxes/0/rotation", "not a rotation", "rotate_deg"}},
        BadCase{"contact thickness", R"({ "bodies": [ { "box": {} } ], "body_contacts": { "thickness": 0.05, "search_radius": 0.02 } })",
                {"at /body_contacts/thickness", "smaller than search_radius"}},
        BadCase{"wrong format", R"({ "format": "blender", "bodies": [ { "box": {} } ] })",
                {"at /format", "not a tetlab scene"}},
        BadCase{"newer version", R"({ "version": 99, "bodies": [ { "box": {} } ] })", {"at /version", "update tetlab"}},
        BadCase{"kind on a generator", R"({ "bodies": [ { "box": {}, "kind": "cloth" } ] })",
                {"at /bodies/0/kind", "\"mesh\" bodies only"}},
        BadCase{"unknown kind", R"({ "bodies": [ { "mesh": "a.obj", "kind": "rope" } ] })",
                {"at /bodies/0/kind", "unknown value 'rope'", "auto, solid, cloth or strand"}},
        BadCase{"hair one point", R"({ "bodies": [ { "hair": { "points": 1 } } ] })",
                {"at /bodies/0/hair/points", "2"}},
        BadCase{"hair and cloth", R"({ "bodies": [ { "hair": {}, "cloth": {} } ] })",
                {"at /bodies/0", "exactly one of", "\"hair\""}},
        BadCase{"cloth size", R"({ "bodies": [ { "cloth": { "size": [0.5, 0.5, 0.5] } } ] })",
                {"at /bodies/0/cloth/size", "[a, b]"}},
        BadCase{"zero thickness", R"({ "bodies": [ { "cloth": {}, "material": { "thickness": 0 } } ] })",
                {"at /bodies/0/material/thickness", "> 0"}},
        BadCase{"negative bending", R"({ "bodies": [ { "cloth": {}, "material": { "bending_stiffness": -1 } } ] })",
                {"at /bodies/0/material/bending_stiffness", "\"plate\"", "the number -1"}},
        BadCase{"bending word", R"({ "bodies": [ { "cloth": {}, "material": { "bending_stiffness": "stiff" } } ] })",
                {"at /bodies/0/material/bending_stiffness", "N m"}},
        BadCase{"not an object", R"([1, 2, 3])", {"at /", "expected an object"}},
        // Scenes past the size limits are refused while reading, before any memory is
        // taken (a 512^3-cell box aborted with std::bad_alloc before the limits).
        BadCase{"box too big", R"({ "bodies": [ { "box": { "cells": [512, 512, 512] } } ] })",
                {"at /bodies/0/box/cells", "805,306,368 tets", "at most 10,000,000", "fewer cells"}},
        BadCase{"bodies add up",
                R"({ "bodies": [ { "box": { "cells": [100, 100, 100] } }, { "box": { "cells": [100, 100, 100] } } ] })",
                {"at /bodies/1", "12,000,000 tets", "fewer or coarser bodies"}},
        BadCase{"hair too big", R"({ "bodies": [ { "hair": { "strands": 4096, "points": 256 } },
                                                 { "hair": { "strands": 4096, "points": 256 } },
                                                 { "hair": { "strands": 4096, "points": 256 } },
                                                 { "hair": { "strands": 4096, "points": 256 } } ] })",
                {"at /bodies/3", "4,194,304 cloth/strand points"}}),
    [](const testing::TestParamInfo<BadCase>& info) {
      std::string name = info.param.label;
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

TEST(SceneJson, FilesSaveAndLoadWithReadableErrors) {
  const fs::path dir = fs::temp_directory_path() / ("tetlab_scene_json_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const SceneDesc original = everythingChanged();
  const fs::path file = dir / "sub" / "scene.json";
  ASSERT_TRUE(saveSceneFile(file, original).ok());
  Result<SceneDesc> loaded = loadSceneFile(file);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(sceneToJsonText(*loaded), sceneToJsonText(original));

  Result<SceneDesc> missing = loadSceneFile(dir / "nope.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("nope.json"), std::string::npos);
  EXPECT_NE(missing.error().message.find("no such file"), std::string::npos);

  Result<SceneDesc> folder = loadSceneFile(dir);
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().message.find("folder"), std::string::npos);

  {
    std::ofstream bad(dir / "bad.json");
    bad << R"({ "bodies": [ { "sphere": { "radius": -1 } } ] })";
  }
  Result<SceneDesc> bad = loadSceneFile(dir / "bad.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find((dir / "bad.json").string() + ": at /bodies/0/sphere/radius"), std::string::npos)
      << bad.error().message;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tetlab
