// Compare mode in the window (issue 14): a drag made with the mouse in any
// split cell (events through Window::pushEvent, the path of GLFW's callbacks)
// pulls the same vertex in every lane; split and overlay draw every lane;
// `tetlab compare --record` writes an MP4 of the side-by-side view whose frame
// count ffprobe confirms, and the CSV has one row per frame per lane.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <stb_image.h>

#include "app/app.h"
#include "app/render/picking.h"
#include "app/output/recording.h"
#include "core/scene/scene_json.h"
#include "tests/app/app_test_util.h"
#include "tests/app/run_process.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;
const fs::path kAssets = fs::path(TETLAB_SOURCE_DIR) / "assets";

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("tetlab_compare_app_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

Result<Image> readPng(const fs::path& png) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(png.c_str(), &w, &h, &channels, 4);
  if (!data) return Error{"cannot read " + png.string()};
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.assign(data, data + size_t(w) * size_t(h) * 4);
  stbi_image_free(data);
  return img;
}

AppOptions headlessBeam(const fs::path& dir) {
  Result<SceneDesc> desc = loadSceneFile(kAssets / "scenes" / "beam.json");
  EXPECT_TRUE(desc.ok());
  desc->settings.step.velocityDamping = 5.0f;  // a pull settles within a second
  const fs::path scene = dir / "beam.json";
  EXPECT_TRUE(saveSceneFile(scene, *desc).ok());
  AppOptions o;
  o.scenePath = scene;
  o.sceneArgument = scene.string();
  o.assetDirs = {kAssets};
  o.headless = true;
  o.backend = Backend::Cpu;
  o.width = 1280;
  o.height = 720;
  return o;
}

// Where a world point shows in a split cell, in display coordinates.
glm::vec2 onScreenInCell(App& app, size_t cell, glm::vec3 point) {
  const std::vector<ScreenRect> cells = app.compareCells();
  EXPECT_GT(cells.size(), cell);
  OrbitCamera camera = app.camera();
  camera.lensShift = glm::vec2(0.0f);
  const std::optional<glm::vec2> p = projectToScreen(camera, point, cells[cell].size);
  EXPECT_TRUE(p.has_value());
  return cells[cell].min + p.value_or(glm::vec2(0.0f));
}

TEST(CompareApp, ADragInASplitCellPullsTheSameVertexInEveryLane) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = freshDir("drag");
  Result<std::unique_ptr<App>> created = test::createApp(headlessBeam(dir));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  CompareSpec spec;
  spec.lanes = parseLaneList("xpbd:30x2,vbd:10x4,avbd:10x4").value();
  ASSERT_TRUE(app.startCompare(spec).ok());
  ASSERT_NE(app.compare(), nullptr);
  app.setCompareView(CompareView::Split);
  app.frame();
  ASSERT_EQ(app.compareCells().size(), 3u);

  // Grab the beam's tip in the second lane's cell (VBD) and pull it up by 60 pixels.
  const glm::vec2 cursor = onScreenInCell(app, 1, glm::vec3(0.975f, 0.55f, 0.0f));
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonPress, cursor));
  app.frame();
  CompareSession& compare = *app.compare();
  for (size_t i = 0; i < compare.laneCount(); ++i) ASSERT_TRUE(compare.lane(i).dragging()) << compare.laneLabel(i);
  const std::vector<uint32_t> grabbed = compare.lane(1).state().mouse.vertices;
  const glm::vec3 start = compare.lane(1).dragPoint();
  EXPECT_NEAR(start.x, 0.975f, 0.03f) << "grabbed where the cursor points in the cell";
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kCursorMove, cursor + glm::vec2(0.0f, -60.0f)));
  for (int f = 0; f < 60; ++f) app.frame();
  const glm::vec3 target = compare.lane(1).state().mouse.target;
  EXPECT_GT(target.y - start.y, 0.08f) << "the target follows the cursor up";
  for (size_t i = 0; i < compare.laneCount(); ++i) {
    const SimSession& s = compare.lane(i);
    EXPECT_EQ(s.state().mouse.vertices, grabbed) << "the same vertices in " << compare.laneLabel(i);
    EXPECT_EQ(s.state().mouse.target, target) << compare.laneLabel(i);
    // Each lane's grabbed point has closed more than half the gap to the target.
    EXPECT_LT(glm::length(target - s.dragPoint()), 0.5f * glm::length(target - start)) << compare.laneLabel(i);
  }
  app.window().pushEvent(test::leftMouse(InputEvent::Type::kButtonRelease, cursor + glm::vec2(0.0f, -60.0f)));
  app.frame();
  for (size_t i = 0; i < compare.laneCount(); ++i) EXPECT_FALSE(compare.lane(i).dragging());
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

// Split: every cell shows its lane's body; overlay: the other lanes' ghosts
// change the picture of lane 1 alone; stopping gives the single view back.
TEST(CompareApp, SplitAndOverlayDrawEveryLane) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = freshDir("views");
  Result<std::unique_ptr<App>> created = test::createApp(headlessBeam(dir));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  CompareSpec spec;
  spec.lanes = parseLaneList("vbd:10x4,pbd:10x2").value();
  ASSERT_TRUE(app.startCompare(spec).ok());
  for (int f = 0; f < 30; ++f) app.frame();
  ASSERT_TRUE(app.writeScreenshot(dir / "split.png").ok());
  app.setCompareView(CompareView::Overlay);
  app.frame();
  ASSERT_TRUE(app.writeScreenshot(dir / "overlay.png").ok());
  app.stopCompare();
  EXPECT_EQ(app.compare(), nullptr);
  app.frame();
  ASSERT_TRUE(app.writeScreenshot(dir / "single.png").ok());
  // Each split cell holds a beam in its lane's colour: clay (red over blue) in
  // lane 1's half of the free area, blue (blue over red) in lane 2's.
  Result<Image> split = readPng(dir / "split.png");
  ASSERT_TRUE(split.ok());
  auto pixelsIn = [](const Image& img, int x0, int x1, bool blue) {
    int n = 0;
    for (int y = 0; y < img.height; ++y)
      for (int x = x0; x < x1; ++x) {
        const uint8_t* p = &img.rgba[4 * (size_t(y) * size_t(img.width) + size_t(x))];
        n += blue ? p[2] > p[0] + 80 : p[0] > p[2] + 60;
      }
    return n;
  };
  const int mid = (360 + split->width) / 2;
  EXPECT_GT(pixelsIn(*split, 362, mid, false), 2000) << "lane 1's cell shows its beam";
  EXPECT_GT(pixelsIn(*split, mid, split->width, true), 2000) << "lane 2's cell shows its beam, in blue";
  EXPECT_LT(pixelsIn(*split, 362, mid, true), 200) << "and lane 1's cell none of lane 2's";
  Result<Image> overlay = readPng(dir / "overlay.png");
  Result<Image> single = readPng(dir / "single.png");
  ASSERT_TRUE(overlay.ok() && single.ok());
  EXPECT_NE(overlay->rgba, single->rgba) << "the ghost of lane 2 is drawn over lane 1";
  EXPECT_EQ(app.finish(), 0);
  fs::remove_all(dir);
}

// Item 6: a comparison set up in the window is saved with the scene and the
// file reruns it (the window loads it comparing; `tetlab compare --scene FILE`).
TEST(CompareApp, ASavedSceneKeepsTheComparison) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const fs::path dir = freshDir("save");
  Result<std::unique_ptr<App>> created = test::createApp(headlessBeam(dir));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  CompareSpec spec;
  spec.lanes = parseLaneList("xpbd:20x1,vbd:10x4").value();
  spec.autoReference = true;
  spec.equalCostMs = 8.0f;
  ASSERT_TRUE(app.startCompare(spec).ok());
  app.setCompareView(CompareView::Overlay);
  app.frame();
  ASSERT_TRUE(app.saveScene((dir / "saved.json").string()).ok());
  EXPECT_EQ(app.finish(), 0);
  created->reset();  // one window (and ImGui context) at a time
  Result<SceneDesc> saved = loadSceneFile(dir / "saved.json");
  ASSERT_TRUE(saved.ok()) << saved.error().message;
  EXPECT_EQ(saved->compare.lanes, spec.lanes);
  EXPECT_TRUE(saved->compare.autoReference);
  EXPECT_FLOAT_EQ(saved->compare.equalCostMs, 8.0f);
  EXPECT_EQ(saved->compare.view, CompareView::Overlay);

  AppOptions again = headlessBeam(dir);
  again.scenePath = dir / "saved.json";
  Result<std::unique_ptr<App>> reopened = test::createApp(again);
  ASSERT_TRUE(reopened.ok()) << reopened.error().message;
  ASSERT_NE((*reopened)->compare(), nullptr) << "the file's comparison starts with it";
  EXPECT_EQ((*reopened)->compare()->laneCount(), 3u);
  EXPECT_EQ((*reopened)->compareView(), CompareView::Overlay);
  EXPECT_EQ((*reopened)->finish(), 0);
  fs::remove_all(dir);
}

TEST(CompareApp, RecordWritesAnMp4OfTheSideBySideViewAndTheCsv) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  if (!findExecutableOnPath("ffmpeg") || !findExecutableOnPath("ffprobe")) GTEST_SKIP() << "ffmpeg/ffprobe missing";
  const fs::path dir = freshDir("record");
  const fs::path video = dir / "beam.mp4", csv = dir / "beam.csv";
  auto r = test::runTetlab("compare --scene beam --lanes xpbd:20x1,vbd:10x4,avbd:10x4 --frames 24 --width 640 "
                           "--height 360 --record '" + video.string() + "' --csv '" + csv.string() + "'");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const fs::path count = dir / "count.txt";
  const std::string probe = "ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames "
                            "-of csv=p=0 '" + video.string() + "' > '" + count.string() + "'";
  ASSERT_EQ(std::system(probe.c_str()), 0);
  std::ifstream in(count);
  int frames = 0;
  in >> frames;
  EXPECT_EQ(frames, 24) << "one video frame per simulated frame";
  std::ifstream rows(csv);
  int lines = 0;
  for (std::string line; std::getline(rows, line);) ++lines;
  EXPECT_EQ(lines, 1 + 24 * 3) << "a header, then one row per frame per lane";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tetlab
