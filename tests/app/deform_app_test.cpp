// The deformer in the window (issue 15 items 1 and 2): `tetlab deform
// --window` opens it on the timeline, which plays one frame per app frame
// headless and loops; a scrub shows that frame solved; a bad animation is
// reported while the app keeps running; the simulation comes back on close.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/app.h"
#include "app/render/picking.h"
#include "core/deform/anim_sequence.h"
#include "core/session/deform_session.h"
#include "tests/app/app_test_util.h"
#include "tests/squashed_cube.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;
const fs::path kAssets = fs::path(TETLAB_SOURCE_DIR) / "assets";

fs::path writeSquashes(const std::string& name, int frames) { return test::writeSquashedCubes("app_" + name, frames); }

AppOptions deformOptions(const fs::path& dir) {
  AppOptions o;
  o.scenePath = kAssets / "scenes" / "beam.json";
  o.sceneArgument = o.scenePath.string();
  o.assetDirs = {kAssets};
  o.headless = true;
  o.backend = Backend::Cpu;
  o.width = 960;
  o.height = 540;
  DeformArgs d;
  d.rest = "cube_5.obj";
  d.anim = (dir / "f_%04d.obj").string();
  d.targetTets = 600;
  d.window = true;
  o.deform = d;
  return o;
}

TEST(DeformApp, TheTimelinePlaysLoopsAndScrubs) {
  const fs::path dir = writeSquashes("play", 3);
  Result<std::unique_ptr<App>> app = test::createApp(deformOptions(dir));
  ASSERT_TRUE(app.ok()) << app.error().message;
  DeformSession* d = (*app)->deformer();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->frames(), 3u);
  EXPECT_TRUE(d->playing);
  EXPECT_EQ(d->frame(), 0u);
  std::vector<size_t> seen;
  for (int i = 0; i < 4; ++i) {
    (*app)->frame();
    seen.push_back(d->frame());
  }
  EXPECT_EQ(seen, (std::vector<size_t>{1, 2, 0, 1}));  // one frame per app frame, looping
  // The clock follows the timeline.
  EXPECT_DOUBLE_EQ(d->time(), 1.0 / double(d->fps));
  // The solved frame undoes part of its 10 % squash.
  EXPECT_GT(d->report().solvedVolume, d->report().animatedVolume);
  d->playing = false;
  ASSERT_TRUE(d->showFrame(2).ok());
  (*app)->frame();
  EXPECT_EQ(d->frame(), 2u);
  EXPECT_EQ(d->frameFile(), "f_0002.obj");
  EXPECT_EQ((*app)->finish(), 0);
}

TEST(DeformApp, ABadAnimationIsReportedAndTheAppKeepsRunning) {
  const fs::path dir = writeSquashes("bad", 2);
  AppOptions o = deformOptions(dir);
  o.deform.reset();
  Result<std::unique_ptr<App>> app = test::createApp(o);
  ASSERT_TRUE(app.ok()) << app.error().message;
  // A frame with one vertex more (and a triangle using it).
  std::ofstream(dir / "f_0001.obj", std::ios::app) << "v 3 3 3\nf 1 2 153\n";
  DeformSettings settings;
  ASSERT_TRUE((*app)->openDeformer("cube_5.obj", (dir / "f_%04d.obj").string(), settings, 600).ok());
  Status scrub = (*app)->deformer()->showFrame(1);
  ASSERT_FALSE(scrub.ok());
  // The message names the file and both counts.
  EXPECT_NE(scrub.error().message.find("f_0001.obj: 153 vertices, but the rest mesh cube_5.obj has 152"),
            std::string::npos)
      << scrub.error().message;
  (*app)->frame();
  EXPECT_EQ((*app)->deformer()->frame(), 0u);  // the last good frame stays shown
  bool reported = false;
  for (const UiMessage& m : (*app)->messages()) reported |= m.error && m.text.find("f_0001.obj") != std::string::npos;
  EXPECT_TRUE(reported);
  // A pattern with no frames at all: an error, no deformer, the simulation goes on.
  (*app)->closeDeformer();
  Status none = (*app)->openDeformer("cube_5.obj", (dir / "nothing_%04d.obj").string(), settings, 600);
  EXPECT_FALSE(none.ok());
  EXPECT_EQ((*app)->deformer(), nullptr);
  (*app)->frame();
  EXPECT_EQ((*app)->finish(), 0);
}

// The hold brush: a stroke on the rest body paints the vertices within its
// radius (of the rest point under the cursor), a stroke on the solved body
// paints by the same rest-space point, the frame is solved again on release
// with them held, and erase takes them off.
TEST(DeformApp, TheBrushPaintsHeldVerticesOnAnyBody) {
  const fs::path dir = writeSquashes("brush", 2);
  Result<std::unique_ptr<App>> created = test::createApp(deformOptions(dir));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  DeformSession& d = *app.deformer();
  d.playing = false;
  ASSERT_TRUE(d.showFrame(1).ok());
  app.frame();
  ASSERT_NE(app.deformRow(), nullptr);
  app.deformUi().brush = DeformUiState::Brush::Paint;
  app.deformUi().brushRadius = 0.15f;
  const std::vector<glm::vec3>& rest = d.rest().positions;
  // The centre of the rest body's front face (z = +0.5) faces the camera.
  const glm::vec3 front(0.0f, 0.0f, 0.5f);
  std::optional<glm::vec2> onRest = projectToScreen(app.camera(), front + app.deformRow()->offset(0), app.displaySize());
  ASSERT_TRUE(onRest.has_value());
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonPress, *onRest));
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonRelease, *onRest));
  app.frame();
  ASSERT_EQ(d.settings().hold, DeformHold::Painted);
  ASSERT_EQ(d.settings().painted.size(), rest.size());
  size_t painted = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    const float r = glm::length(rest[i] - front);
    if (d.settings().painted[i]) {
      ++painted;
      EXPECT_LT(r, 0.15f + 0.02f) << "vertex " << i << " painted " << r << " m from the stroke";
    } else {
      EXPECT_GT(r, 0.15f - 0.02f) << "vertex " << i << " missed " << r << " m from the stroke";
    }
  }
  EXPECT_GE(painted, 1u);
  EXPECT_EQ(d.report().heldVertices, painted);  // solved again on release, with them held
  for (size_t i = 0; i < rest.size(); ++i)
    if (d.settings().painted[i]) EXPECT_EQ(d.solved()[i], d.animated()[i]) << "vertex " << i;

  // A stroke on the solved body's (squashed) front face paints by its rest point.
  const glm::vec3 corner(0.3f, 0.1f, 0.5f);  // a front-face grid vertex
  size_t cornerIndex = 0;
  for (size_t i = 0; i < rest.size(); ++i)
    if (glm::length(rest[i] - corner) < 1e-4f) cornerIndex = i;
  ASSERT_FALSE(d.settings().painted[cornerIndex]);
  app.deformUi().brushRadius = 0.02f;
  std::optional<glm::vec2> onSolved =
      projectToScreen(app.camera(), d.solved()[cornerIndex] + app.deformRow()->offset(2), app.displaySize());
  ASSERT_TRUE(onSolved.has_value());
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonPress, *onSolved));
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonRelease, *onSolved));
  app.frame();
  EXPECT_TRUE(d.settings().painted[cornerIndex]);

  // Erase where we painted first.
  app.deformUi().brush = DeformUiState::Brush::Erase;
  app.deformUi().brushRadius = 0.3f;
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonPress, *onRest));
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonRelease, *onRest));
  app.frame();
  for (size_t i = 0; i < rest.size(); ++i)
    if (glm::length(rest[i] - front) < 0.28f) EXPECT_FALSE(d.settings().painted[i]) << "vertex " << i;
  // Orbit again: a press no longer paints.
  app.deformUi().brush = DeformUiState::Brush::Off;
  const std::vector<uint8_t> before = d.settings().painted;
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonPress, *onSolved));
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonRelease, *onSolved));
  app.frame();
  EXPECT_EQ(d.settings().painted, before);
  EXPECT_EQ(app.finish(), 0);
}

}  // namespace
}  // namespace tetlab
