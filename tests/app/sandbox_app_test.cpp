// The sandbox app in-process under Xvfb (skipped without DISPLAY): every preset
// runs through all four solvers switched live (frames as the app draws them),
// with screenshots (each preset on each solver for 300 frames without a switch:
// preset_runs_test.cpp); `--ui-open` brings the OpenCL device list into view; a mouse drag and a shift-click pin driven by synthetic
// events through Window::pushEvent (the path GLFW's callbacks take); a dropped
// OBJ loads while the old scene keeps running; and the documented CLI line
// `tetlab --scene beam --solver avbd --headless --frames 300 --screenshot` works.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>
#include <unistd.h>

#include "tests/app/app_test_util.h"
#include "tests/app/body_pixels.h"
#include "app/app.h"
#include "core/scene/mesh_collider_load.h"
#include "app/render/picking.h"
#include "core/scene/enum_names.h"
#include "core/scene/scene_json.h"
#include "core/sim/state_setup.h"
#include "run_process.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

const fs::path kAssets = fs::path(TETLAB_SOURCE_DIR) / "assets";

fs::path tempDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tetlab_sandbox_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The preset with OBJ bodies made small (absolute mesh paths, so the copy loads from anywhere).
fs::path smallPresetFile(const std::string& file, const fs::path& dir) {
  Result<SceneDesc> desc = loadSceneFile(kAssets / "scenes" / file);
  EXPECT_TRUE(desc.ok()) << desc.error().message;
  for (BodySpec& b : desc->bodies)
    if (b.source == BodySource::Mesh) {
      b.meshPath = (kAssets / b.meshPath).string();
      b.tets.targetTets = 400;
    }
  const fs::path out = dir / file;
  EXPECT_TRUE(saveSceneFile(out, *desc).ok());
  return out;
}

AppOptions headlessOptions(const fs::path& scene) {
  AppOptions o;
  o.scenePath = scene;
  o.sceneArgument = scene.string();
  o.assetDirs = {kAssets};
  o.headless = true;
  o.width = 960;  // wide enough for the view to be centred right of the panel
  o.height = 540;
  return o;
}

// One pass of main()'s loop. render = false skips drawing (software GL is the slow part
// of these tests); input, UI and simulation still run exactly as in the app.
using test::createApp;

void runFrame(App& app, bool render = true) {
  if (render) {
    app.frame();
    return;
  }
  app.pollEvents();
  app.newFrame();
  app.drawUi();
  app.step();
  app.discardFrame();
}

float minY(const State& s) {
  float y = INFINITY;
  for (const glm::vec4& x : s.x) y = std::min(y, x.y);
  return y;
}

bool finite(const State& s) {
  for (const glm::vec4& x : s.x)
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z)) return false;
  return true;
}

using test::bodyPixelShare;

class SandboxApp : public testing::TestWithParam<std::string> {};

// PBD -> XPBD -> VBD -> AVBD switched live with keys 1-4, 45 frames each (every
// 5th drawn), the last frame of each solver saved as DIR/<solver><suffix>.png.
// Per solver: it stays the active one, on `backend`, finite, not blown up, and
// (with a ground) above it once impacts are over; the screenshot shows the body.
// Returns the largest displacement from the start over the run.
float runEverySolverLive(App& app, const fs::path& dir, const std::string& suffix, Backend backend) {
  SimSession* session = app.session();
  const std::vector<glm::vec4> start = session->state().x;
  const bool ground = session->settings().colliders.ground.enabled;
  const int keys[] = {GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3, GLFW_KEY_4};
  for (int k = 0; k < 4; ++k) {
    InputEvent key;
    key.type = InputEvent::Type::kKeyPress;
    key.key = keys[k];
    app.window().pushEvent(key);
    float lowest = INFINITY;
    for (int f = 0; f < 45; ++f) {
      runFrame(app, f % 5 == 4);
      EXPECT_EQ(session->solver(), SolverKind(k));
      EXPECT_EQ(session->backend(), backend) << solverDisplayName(SolverKind(k)) << " changed backend";
      if (session->blownUp()) {
        ADD_FAILURE() << solverDisplayName(SolverKind(k)) << ": " << session->blowUpMessage();
        return 0.0f;
      }
      if (f >= 25) {
        EXPECT_TRUE(session->syncPositions().ok());
        EXPECT_TRUE(finite(session->state()));
        lowest = std::min(lowest, minY(session->state()));
      }
    }
    if (ground) EXPECT_GE(lowest, session->settings().colliders.ground.height - 1e-3f) << solverDisplayName(SolverKind(k));
    const fs::path shot = dir / (std::string(solverName(SolverKind(k))) + suffix + ".png");
    EXPECT_TRUE(app.writeScreenshot(shot).ok());
    EXPECT_GT(bodyPixelShare(shot), 0.002) << shot << ": no body pixels in the screenshot";
  }
  EXPECT_TRUE(session->syncPositions().ok());
  float moved = 0.0f;
  for (size_t i = 0; i < start.size(); ++i)
    moved = std::max(moved, glm::length(glm::vec3(session->state().x[i]) - glm::vec3(start[i])));
  return moved;
}

// 45 frames per solver, PBD -> XPBD -> VBD -> AVBD switched live (keys 1-4), 180 frames in all
// (every 5th drawn, the last of each solver saved as a screenshot):
// the body moves, stays finite and, where there is a ground, above it once impacts are over.
TEST_P(SandboxApp, PresetRunsOnEverySolverWithScreenshots) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("preset_" + GetParam().substr(0, GetParam().find('.')));
  Result<std::unique_ptr<App>> created = createApp(headlessOptions(smallPresetFile(GetParam(), dir)));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  ASSERT_NE(app.session(), nullptr);
  EXPECT_GT(runEverySolverLive(app, dir, "", Backend::Cpu), 0.005f) << "the body must move";
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Presets, SandboxApp,
                         testing::Values("bunny_drop.json", "beam.json", "hang.json", "pile.json", "chain.json",
                                         "squash.json"),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param.substr(0, info.param.find('.'));
                         });

// A beam scene for input tests: damped so a pull settles within a second.
fs::path dampedBeam(const fs::path& dir) {
  Result<SceneDesc> desc = loadSceneFile(kAssets / "scenes" / "beam.json");
  EXPECT_TRUE(desc.ok());
  desc->settings.step.velocityDamping = 5.0f;
  const fs::path out = dir / "beam.json";
  EXPECT_TRUE(saveSceneFile(out, *desc).ok());
  return out;
}

// The point on the beam's top face 2.5 cm from its free end, on screen.
glm::vec2 beamTipOnScreen(App& app) {
  const std::optional<glm::vec2> p = projectToScreen(app.camera(), glm::vec3(0.975f, 0.55f, 0.0f), app.displaySize());
  EXPECT_TRUE(p.has_value());
  return p.value_or(glm::vec2(0.0f));
}

TEST(SandboxInput, MouseDragPullsTheGrabbedPointTowardsTheCursor) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("drag");
  Result<std::unique_ptr<App>> created = createApp(headlessOptions(dampedBeam(dir)));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  runFrame(app);
  SimSession& session = *app.session();
  const glm::vec2 cursor = beamTipOnScreen(app);

  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonPress, cursor));
  runFrame(app);
  ASSERT_TRUE(session.dragging()) << "the press on the beam must grab it";
  const glm::vec3 grabbed = session.dragPoint();
  EXPECT_NEAR(grabbed.x, 0.975f, 0.03f) << "grabbed where the cursor points";

  // 60 pixels up: about 15 cm at this zoom, on the plane through the grabbed point facing the camera.
  const glm::vec2 up = cursor + glm::vec2(0.0f, -60.0f);
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kCursorMove, up));
  runFrame(app);
  const glm::vec3 target = session.state().mouse.target;
  EXPECT_GT(target.y - grabbed.y, 0.08f) << "the target follows the cursor upwards";
  const std::optional<glm::vec2> targetOnScreen = projectToScreen(app.camera(), target, app.displaySize());
  ASSERT_TRUE(targetOnScreen.has_value());
  EXPECT_NEAR(targetOnScreen->x, up.x, 1.0f) << "the target is under the cursor";
  EXPECT_NEAR(targetOnScreen->y, up.y, 1.0f);

  for (int f = 0; f < 90; ++f) runFrame(app, f % 10 == 9);
  // The spring (auto: twice the beam's 98 N weight at 5 cm stretch, 3900 N/m) is 15x stiffer than
  // the cantilever's tip (3 E I / L^3 = 250 N/m), and holding the tip up there takes ~75 N, under
  // the 196 N cap: at rest the gap is ~2 cm of the initial ~15 cm. Asserted: more than half closed.
  const glm::vec3 pulled = session.dragPoint();
  std::printf("drag: grabbed y %.4f, target y %.4f, after 1.5 s y %.4f (gap %.4f of %.4f m)\n", grabbed.y, target.y,
              pulled.y, glm::length(target - pulled), glm::length(target - grabbed));
  EXPECT_LT(glm::length(target - pulled), 0.5f * glm::length(target - grabbed))
      << "grabbed " << grabbed.y << " target " << target.y << " now " << pulled.y;
  EXPECT_GT(pulled.y, grabbed.y + 0.05f);

  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonRelease, up));
  runFrame(app);
  EXPECT_FALSE(session.dragging());
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

TEST(SandboxInput, ShiftClickPinsAndUnpinsTheNearestVertex) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("pin");
  Result<std::unique_ptr<App>> created = createApp(headlessOptions(dampedBeam(dir)));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  app.session()->setPaused(true);  // keep the beam where it was clicked
  runFrame(app);
  SimSession& session = *app.session();
  const uint32_t pinnedBefore = pinnedCount(session.state());
  const glm::vec2 cursor = beamTipOnScreen(app);
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonPress, cursor, true));
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonRelease, cursor, true));
  runFrame(app);
  EXPECT_FALSE(session.dragging()) << "shift-click pins, it does not drag";
  ASSERT_EQ(pinnedCount(session.state()), pinnedBefore + 1);
  uint32_t pinned = 0;
  for (uint32_t i = 0; i < session.state().x.size(); ++i)
    if (session.isPinned(i) && session.model().restPositions[i].x > 0.5f) pinned = i;
  // The nearest vertex to (0.975, 0.55, 0): a top-face lattice vertex 2.5 cm or less away.
  EXPECT_LE(glm::length(session.model().restPositions[pinned] - glm::vec3(0.975f, 0.55f, 0.0f)), 0.04f);
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonPress, cursor, true));
  runFrame(app);
  EXPECT_EQ(pinnedCount(session.state()), pinnedBefore);
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

// Ctrl-drags 40 pixels to the right from the front of a round collider
// (centre, radius; `centreOf` reads where it is now) in the paused pile scene,
// and checks that it moved along the camera's right vector, in the plane facing
// the camera, and that no body was dragged.
void expectCtrlDragMoves(App& app, float radius, const std::function<glm::vec3()>& centreOf) {
  SimSession& session = *app.session();
  runFrame(app);
  const glm::vec3 centre = centreOf();
  // The collider's front-facing point nearest the camera, on screen.
  const glm::vec3 front = centre + radius * glm::normalize(app.camera().eye() - centre);
  const std::optional<glm::vec2> cursor = projectToScreen(app.camera(), front, app.displaySize());
  ASSERT_TRUE(cursor.has_value());
  InputEvent press = test::leftMouse(InputEvent::Type::kButtonPress, *cursor);
  press.ctrl = true;
  app.window().pushEvent(press);
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kCursorMove, *cursor + glm::vec2(40.0f, 0.0f)));
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonRelease, *cursor + glm::vec2(40.0f, 0.0f)));
  runFrame(app);
  EXPECT_FALSE(session.dragging()) << "ctrl-drag moves colliders, not bodies";
  const glm::vec3 moved = centreOf() - centre;
  EXPECT_GT(glm::dot(moved, app.camera().right()), 0.03f) << moved.x << " " << moved.y << " " << moved.z;
  EXPECT_NEAR(glm::dot(moved, app.camera().forward()), 0.0f, 1e-4f);
  EXPECT_NEAR(glm::dot(moved, app.camera().up()), 0.0f, 1e-3f);
}

TEST(SandboxInput, CtrlDragMovesACollider) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("collider");
  Result<std::unique_ptr<App>> created = createApp(headlessOptions(smallPresetFile("pile.json", dir)));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  SimSession& session = *app.session();
  session.setPaused(true);
  const float radius = session.settings().colliders.spheres.at(0).radius;
  expectCtrlDragMoves(app, radius, [&] { return session.settings().colliders.spheres.at(0).center; });
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

// The same for a mesh collider (sphere.obj, 0.3 m across, above the pile):
// picked by sphere tracing its sampled field, moved by its centre.
TEST(SandboxInput, CtrlDragMovesAMeshCollider) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("mesh_collider");
  Result<std::unique_ptr<App>> created = createApp(headlessOptions(smallPresetFile("pile.json", dir)));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  SimSession& session = *app.session();
  session.setPaused(true);
  MeshCollider m;
  m.mesh = "sphere.obj";
  m.size = 0.3f;
  m.resolution = 24;
  m.center = {0.0f, 0.6f, 0.0f};
  ASSERT_TRUE(loadMeshCollider(m, {kAssets, kAssets / "meshes"}).ok());
  session.settings().colliders.meshes.push_back(m);
  expectCtrlDragMoves(app, 0.15f, [&] { return session.settings().colliders.meshes.at(0).center; });
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

TEST(SandboxInput, DroppedObjLoadsWhileTheSceneKeepsRunning) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("drop");
  Result<std::unique_ptr<App>> created = createApp(headlessOptions(dampedBeam(dir)));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  InputEvent drop;
  drop.type = InputEvent::Type::kDrop;
  drop.paths = {(kAssets / "meshes" / "cube_5.obj").string()};
  app.window().pushEvent(drop);
  runFrame(app, false);
  const uint64_t beamFrames = app.session()->frame();
  int frames = 0;
  while ((app.loading() || app.session()->desc().name != "cube_5") && frames < 3000) {
    runFrame(app, false);
    ++frames;
  }
  ASSERT_EQ(app.session()->desc().name, "cube_5") << "the dropped OBJ did not load";
  EXPECT_FALSE(app.session()->built().bodies.empty());
  for (const UiMessage& m : app.messages()) EXPECT_FALSE(m.error) << m.text;
  (void)beamFrames;
  runFrame(app);
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

TEST(SandboxInput, DroppedMissingFileIsAMessageNotACrash) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("dropbad");
  Result<std::unique_ptr<App>> created = createApp(headlessOptions(dampedBeam(dir)));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  InputEvent drop;
  drop.type = InputEvent::Type::kDrop;
  drop.paths = {(dir / "not_there.obj").string()};
  app.window().pushEvent(drop);
  runFrame(app);
  ASSERT_FALSE(app.messages().empty());
  EXPECT_TRUE(app.messages().back().error);
  EXPECT_NE(app.messages().back().text.find("not_there.obj"), std::string::npos) << app.messages().back().text;
  EXPECT_EQ(app.session()->desc().name, "Cantilever beam") << "the running scene stays";
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

TEST(SandboxScene, SavedSceneReloadsWithItsEditsAndMeshPath) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("save");
  // The preset as shipped (mesh path relative to assets/), saved into another folder.
  Result<std::unique_ptr<App>> created = createApp(headlessOptions(kAssets / "scenes" / "bunny_drop.json"));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  SimSession& session = *app.session();
  session.setSolver(SolverKind::Avbd);
  session.settings().step.iterations = 7;
  Material m = session.material(0);
  m.youngsModulus = 2.5e5f;
  session.setMaterial(0, m);
  session.togglePin(3);
  app.camera().distance = 2.0f;
  runFrame(app);
  const fs::path file = dir / "sub" / "mine.json";
  ASSERT_TRUE(app.saveScene(file.string()).ok());
  Result<SceneDesc> saved = loadSceneFile(file);
  ASSERT_TRUE(saved.ok()) << saved.error().message;
  EXPECT_EQ(saved->settings.solver, SolverKind::Avbd);
  EXPECT_EQ(saved->settings.step.iterations, 7);
  EXPECT_EQ(saved->bodies.at(0).material.youngsModulus, 2.5e5f);
  EXPECT_EQ(saved->pinnedVertices, std::vector<uint32_t>{3});
  EXPECT_TRUE(saved->camera.set);
  EXPECT_FLOAT_EQ(saved->camera.distance, 2.0f);
  EXPECT_TRUE(fs::path(saved->bodies[0].meshPath).is_relative()) << saved->bodies[0].meshPath;
  // It builds from its new folder: the mesh path was rewritten relative to it.
  SceneBuildOptions options;
  options.searchDirs = {file.parent_path()};
  Result<BuiltScene> rebuilt = buildScene(*saved, options);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.error().message;
  EXPECT_EQ(rebuilt->scene.model.vertexCount(), session.model().vertexCount());
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

TEST(SandboxOpenCl, KernelSyntaxErrorShowsTheLogAndTheRunGoesOn) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const OpenClStatus cl = queryOpenClStatus(DeviceChoice{});
  if (!cl.chosen) GTEST_SKIP() << "no OpenCL device: " << cl.error;
  const fs::path dir = tempDir("kernels");
  fs::copy(fs::path(TETLAB_SOURCE_DIR) / "shaders", dir / "shaders", fs::copy_options::recursive);
  AppOptions options = headlessOptions(dampedBeam(dir));
  options.opencl = cl;
  options.backend = Backend::OpenCl;
  options.kernelDir = dir / "shaders";
  Result<std::unique_ptr<App>> created = createApp(options);
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  SimSession& session = *app.session();
  ASSERT_EQ(session.backend(), Backend::OpenCl);
  for (int f = 0; f < 5; ++f) runFrame(app, false);
  // Break the VBD kernel file the running solver was built from (newer mtime, so it is seen as edited).
  const fs::path vbd = dir / "shaders" / "cl" / "vbd.cl";
  std::ofstream(vbd, std::ios::app) << "\n__kernel void broken( { this is not OpenCL C }\n";
  fs::last_write_time(vbd, fs::last_write_time(vbd) + std::chrono::seconds(2));
  const std::vector<glm::vec4> before = session.state().x;
  for (int f = 0; f < 61; ++f) runFrame(app, false);
  bool reported = false;
  for (const UiMessage& m : app.messages())
    reported = reported || (m.error && m.text.find("kernel rebuild failed") != std::string::npos);
  EXPECT_TRUE(reported) << "the compiler log must reach the window";
  EXPECT_FALSE(session.blownUp()) << session.blowUpMessage();
  EXPECT_EQ(session.backend(), Backend::OpenCl);
  EXPECT_NE(session.state().x, before) << "the previous kernels keep stepping";
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

// The default scene on the OpenCL backend, PBD -> XPBD -> VBD -> AVBD switched
// live with keys 1-4: every solver runs on the device (none falls back to the
// CPU), the bunny moves, stays finite and above the ground after the impact,
// and each solver's screenshot shows it.
TEST(SandboxOpenCl, DefaultSceneOnEverySolverLive) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const OpenClStatus cl = queryOpenClStatus(DeviceChoice{});
  if (!cl.chosen) GTEST_SKIP() << "no OpenCL device: " << cl.error;
  const fs::path dir = tempDir("opencl_default");
  AppOptions options = headlessOptions(smallPresetFile("bunny_drop.json", dir));
  options.opencl = cl;
  options.backend = Backend::OpenCl;
  Result<std::unique_ptr<App>> created = createApp(options);
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  ASSERT_EQ(app.session()->backend(), Backend::OpenCl);
  EXPECT_GT(runEverySolverLive(app, dir, "_opencl", Backend::OpenCl), 0.05f) << "the bunny falls 40 cm: it must move";
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

TEST(SandboxOpenCl, ChoosingADeviceInTheUiKeepsTheStateAndRunsOnIt) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const OpenClStatus cl = queryOpenClStatus(DeviceChoice{});
  if (!cl.chosen) GTEST_SKIP() << "no OpenCL device: " << cl.error;
  const fs::path dir = tempDir("device");
  AppOptions options = headlessOptions(dampedBeam(dir));
  options.opencl = cl;
  options.backend = Backend::OpenCl;
  Result<std::unique_ptr<App>> created = createApp(options);
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  for (int f = 0; f < 5; ++f) runFrame(app);
  ASSERT_TRUE(app.session()->syncPositions().ok());
  const std::vector<glm::vec4> before = app.session()->state().x;

  // The same device again rebuilds context, simulator and drawing path (every
  // machine has at least this one); the state crosses over unchanged.
  Status s = app.selectOpenClDevice(*cl.chosen);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(app.session()->backend(), Backend::OpenCl);
  EXPECT_EQ(app.session()->state().x, before);
  for (int f = 0; f < 5; ++f) runFrame(app);
  ASSERT_TRUE(app.session()->syncPositions().ok());
  EXPECT_FALSE(app.session()->blownUp()) << app.session()->blowUpMessage();
  EXPECT_NE(app.session()->state().x, before) << "the beam keeps moving on the new context";

  // A device that does not exist is refused with the valid range, and nothing changes.
  Status bad = app.selectOpenClDevice(DeviceChoice{int(cl.platforms.size()) + 3, 0});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("platform"), std::string::npos) << bad.error().message;
  EXPECT_EQ(app.session()->backend(), Backend::OpenCl);
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

TEST(SandboxUi, PanelSectionNamesParseAndUnknownOnesListTheValidNames) {
  Result<std::vector<std::string>> ok = parsePanelSections("opencl,view");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(*ok, (std::vector<std::string>{"opencl", "view"}));
  for (const char* bad : {"devices", "", "opencl,", "OpenCL"}) {
    Result<std::vector<std::string>> r = parsePanelSections(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("scene, simulation, parameters"), std::string::npos) << r.error().message;
  }
}

// In a 540-px window the default panel (scene, simulation, parameters, numbers
// open) leaves the OpenCL section below the fold; --ui-open opens the named
// sections only and scrolls the first to the top, even with long ones open.
TEST(SandboxUi, UiOpenBringsTheOpenClDeviceListIntoView) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("uiopen");
  const fs::path scene = dampedBeam(dir);
  {
    Result<std::unique_ptr<App>> created = createApp(headlessOptions(scene));
    ASSERT_TRUE(created.ok()) << created.error().message;
    App& app = **created;
    for (int f = 0; f < 3; ++f) runFrame(app);
    const PanelLayout& layout = app.panelLayout();
    EXPECT_EQ(layout.openNow, (std::vector<std::string>{"scene", "simulation", "parameters", "numbers"}));
    EXPECT_EQ(std::count(layout.inViewNow.begin(), layout.inViewNow.end(), "opencl"), 0)
        << "the default panel is expected to hide the OpenCL section below the fold at 540 px";
    EXPECT_EQ(app.finish(), 0);
  }
  AppOptions options = headlessOptions(scene);
  options.uiOpen = {"opencl", "simulation", "parameters", "numbers"};
  Result<std::unique_ptr<App>> created = createApp(options);
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  for (int f = 0; f < 3; ++f) runFrame(app);
  const PanelLayout& layout = app.panelLayout();
  EXPECT_EQ(layout.openNow, (std::vector<std::string>{"simulation", "parameters", "numbers", "opencl"}));
  EXPECT_EQ(std::count(layout.inViewNow.begin(), layout.inViewNow.end(), "opencl"), 1)
      << "the first named section must be scrolled into view";
  // After the first frames the panel scrolls freely again.
  EXPECT_EQ(layout.scrollFrames, 0);
  EXPECT_TRUE(app.writeScreenshot(dir / "ui_open.png").ok());
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

// ---- the real executable ----

std::string shellOutput(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return out;
  char buffer[256];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

TEST(SandboxCli, DocumentedHeadlessSceneLineJustWorks) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("cli");
  const fs::path out = dir / "out.png";
  // Run from the source tree so the relative scene path is the one the README shows.
  const auto r = test::runTetlab("--scene assets/scenes/beam.json --solver avbd --headless --frames 300 --screenshot '" +
                                     out.string() + "'",
                                 "cd '" + std::string(TETLAB_SOURCE_DIR) + "' &&");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists(out));
  // Without --backend the window runs on OpenCL when a device works (SandboxDefaults).
  const char* backend = queryOpenClStatus(DeviceChoice{}).chosen ? "opencl" : "cpu";
  EXPECT_NE(r.output.find(std::string("Cantilever beam, AVBD on ") + backend + ", 300 frames, t = 5.000 s"),
            std::string::npos)
      << r.output;
  EXPECT_GT(bodyPixelShare(out), 0.005) << "the beam is in the picture";
  fs::remove_all(dir);
}

TEST(SandboxCli, BadSceneFileNamesFileAndPathBeforeOpeningAWindow) {
  const fs::path dir = tempDir("clibad");
  const fs::path bad = dir / "bad.json";
  std::ofstream(bad) << R"({ "bodies": [ { "box": {}, "material": { "youngs": 1e5 } } ] })";
  const auto r = test::runTetlab("--scene '" + bad.string() + "' --headless", "env -u DISPLAY -u WAYLAND_DISPLAY");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(bad.string() + ": at /bodies/0/material/youngs: unknown key"), std::string::npos) << r.output;
  const auto missing = test::runTetlab("--scene no_such_scene --headless");
  EXPECT_EQ(missing.exitCode, 1) << missing.output;
  EXPECT_NE(missing.output.find("cannot open scene 'no_such_scene'"), std::string::npos) << missing.output;
  const auto badSolver = test::runTetlab("--scene beam --solver fem --headless");
  EXPECT_EQ(badSolver.exitCode, 1) << badSolver.output;
  EXPECT_NE(badSolver.output.find("unknown solver 'fem'"), std::string::npos) << badSolver.output;
  const auto badSection = test::runTetlab("--scene beam --ui-open devices --headless");
  EXPECT_EQ(badSection.exitCode, 1) << badSection.output;
  EXPECT_NE(badSection.output.find("--ui-open: unknown panel section 'devices'"), std::string::npos)
      << badSection.output;
  fs::remove_all(dir);
}

TEST(SandboxCli, RecordsAVideoAndExportsObjFramesHeadless) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("clirec");
  const bool ffmpeg = findExecutableOnPath("ffmpeg").has_value() && findExecutableOnPath("ffprobe").has_value();
  const fs::path video = ffmpeg ? dir / "beam.mp4" : dir / "pngs";
  const auto r = test::runTetlab("--scene beam --headless --frames 12 --width 320 --height 240 --record '" +
                                 video.string() + "' --export-obj '" + (dir / "obj").string() + "'");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  // 30 video frames per second at dt = 1/60 s: two steps per video frame, 12 frames = 0.4 s.
  EXPECT_NE(r.output.find("24 frames, t = 0.400 s"), std::string::npos) << r.output;
  for (int i = 0; i < 12; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "surface_%05d.obj", i);
    EXPECT_TRUE(fs::exists(dir / "obj" / name)) << name;
  }
  if (ffmpeg) {
    const std::string probe = shellOutput("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                          "stream=nb_read_frames -of csv=p=0 '" + video.string() + "'");
    EXPECT_EQ(probe, "12\n");
  } else {
    EXPECT_TRUE(fs::exists(video / "frame_00011.png"));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tetlab

namespace tetlab {
namespace {

// Without --backend the window steps on OpenCL when a device works (the
// sandbox's purpose; docs/benchmarks.md shows it is the faster path here) ...
TEST(SandboxDefaults, OpenClIsTheDefaultBackendWhenADeviceWorks) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const OpenClStatus cl = queryOpenClStatus(DeviceChoice{});
  if (!cl.chosen) GTEST_SKIP() << "no OpenCL device: " << cl.error;
  const fs::path dir = tempDir("default_backend");
  AppOptions options = headlessOptions(dampedBeam(dir));
  options.opencl = cl;
  ASSERT_FALSE(options.backend.has_value());
  Result<std::unique_ptr<App>> created = createApp(options);
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_EQ((*created)->session()->backend(), Backend::OpenCl);
  fs::remove_all(dir);
}

// ... and on the CPU reference, saying why, when none does.
TEST(SandboxDefaults, WithoutAnOpenClDeviceTheCpuReferenceRunsAndSaysWhy) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = tempDir("default_backend_cpu");
  AppOptions options = headlessOptions(dampedBeam(dir));
  options.opencl = OpenClStatus{};
  options.opencl.error = "no OpenCL platform (test)";
  Result<std::unique_ptr<App>> created = createApp(options);
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  EXPECT_EQ(app.session()->backend(), Backend::Cpu);
  bool said = false;
  for (const UiMessage& m : app.messages())
    said = said || (m.text.find("running on the CPU reference") != std::string::npos &&
                    m.text.find("no OpenCL platform (test)") != std::string::npos);
  EXPECT_TRUE(said) << "the fallback must say why";
  for (int f = 0; f < 3; ++f) runFrame(app, false);
  EXPECT_FALSE(app.session()->blownUp());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tetlab
