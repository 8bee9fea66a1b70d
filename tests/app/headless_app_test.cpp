// The real executable, headless under Xvfb: the screenshot must show the
// default mesh and the ImGui panel, and the frame sequence must be complete.
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include <stb_image.h>

#include "app/render/renderer.h"
#include "app/ui/ui_panel.h"
#include "run_process.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

struct LoadedPng {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  const unsigned char* at(int x, int y) const { return &rgba[static_cast<size_t>((y * width + x) * 4)]; }
};

LoadedPng loadPng(const fs::path& path) {
  LoadedPng png;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &png.width, &png.height, &channels, 4);
  if (data == nullptr) return png;
  png.rgba.assign(data, data + static_cast<size_t>(png.width * png.height * 4));
  stbi_image_free(data);
  return png;
}

// Body pixels are told apart by hue: the default material is a warm clay while
// the environment (background gradient, grid lines) is neutral to cool. The
// premise is checked against the renderer's own defaults first.
bool isBodyPixel(const unsigned char* p) { return int(p[0]) - int(p[2]) > 40; }

TEST(HeadlessApp, ScreenshotShowsTheMeshAndThePanel) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: the headless app needs an X server (run under xvfb-run)";
  const RenderSettings defaults;
  ASSERT_GT(defaults.albedo.r - defaults.albedo.b, 0.3f) << "test premise: the default material is warm";
  ASSERT_GE(defaults.backgroundTop.b, defaults.backgroundTop.r) << "test premise: the background is cool";
  ASSERT_GE(defaults.backgroundBottom.b, defaults.backgroundBottom.r);
  ASSERT_GE(defaults.gridLineColor.b, defaults.gridLineColor.r);

  const fs::path dir = fs::temp_directory_path() / ("tetlab_app_headless_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const int width = 1024, height = 600, frames = 3;
  // A paused OBJ scene has no scripted camera: the view is fitted to the mesh, which stays put.
  const auto r = test::runTetlab("--mesh bunny_10k.obj --paused --headless --frames " + std::to_string(frames) +
                                 " --width " + std::to_string(width) +
                                 " --height " + std::to_string(height) + " --screenshot '" +
                                 (dir / "shot.png").string() + "' --frames-dir '" + (dir / "frames").string() + "'");
  ASSERT_EQ(r.exitCode, 0) << r.output;

  for (int i = 0; i < frames; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "frame_%05d.png", i);
    const LoadedPng frame = loadPng(dir / "frames" / name);
    EXPECT_EQ(frame.width, width) << name;
    EXPECT_EQ(frame.height, height) << name;
  }
  EXPECT_FALSE(fs::exists(dir / "frames" / "frame_00003.png"));

  const LoadedPng shot = loadPng(dir / "shot.png");
  ASSERT_EQ(shot.width, width);
  ASSERT_EQ(shot.height, height);

  // The panel: ImGui's dark window background (and its dim headers) fill the
  // panel's rectangle, far darker than the background gradient at those rows;
  // bright text is a minority of pixels.
  auto luminance = [](float r, float g, float b) { return 0.2126f * r + 0.7152f * g + 0.0722f * b; };
  const int px0 = static_cast<int>(kPanelPosition.x) + 4, px1 = static_cast<int>(kPanelPosition.x + kPanelWidth) - 4;
  const int py0 = static_cast<int>(kPanelPosition.y) + 30, py1 = py0 + 150;
  size_t dark = 0, panelPixels = 0;
  for (int y = py0; y < py1; ++y) {
    const glm::vec3 bg = backgroundColorAt(defaults, 1.0f - (y + 0.5f) / height) * 255.0f;
    for (int x = px0; x < px1; ++x, ++panelPixels) {
      const unsigned char* p = shot.at(x, y);
      if (luminance(p[0], p[1], p[2]) < 0.6f * luminance(bg.r, bg.g, bg.b)) ++dark;
    }
  }
  EXPECT_GT(static_cast<double>(dark) / panelPixels, 0.6) << "no ImGui panel at its position";

  // The mesh: a plausible share of the 3D view right of the panel, centred where the camera looks.
  const int viewX0 = static_cast<int>(kPanelPosition.x * 2 + kPanelWidth);
  size_t body = 0, viewPixels = 0;
  double sumX = 0.0, sumY = 0.0;
  for (int y = 0; y < height; ++y)
    for (int x = viewX0; x < width; ++x, ++viewPixels)
      if (isBodyPixel(shot.at(x, y))) {
        ++body;
        sumX += x;
        sumY += y;
      }
  const double share = static_cast<double>(body) / viewPixels;
  EXPECT_GT(share, 0.03) << "mesh missing or tiny";
  EXPECT_LT(share, 0.80) << "mesh fills the view: the camera fit is wrong";
  if (body > 0) {
    // The first fit centres, in the free area (lens shift), the box the dropped
    // bunny sweeps from its start down to the ground (extendToLanding): at the
    // first frame the bunny is at the top of that box, so its pixel centroid is
    // horizontally centred and in the upper half of the image, yet fully inside it.
    const double viewCenterX = 0.5 * (panelLensShift(static_cast<float>(width)) + 1.0) * width;
    EXPECT_NEAR(sumX / body, viewCenterX, 0.1 * width);
    EXPECT_LT(sumY / body, 0.5 * height);
    EXPECT_GT(sumY / body, 0.1 * height);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tetlab
