// PNG output without GL: row flipping, round trip through stb, sequences, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <unistd.h>

#include <stb_image.h>

#include "app/ui/frame_timer.h"
#include "app/output/screenshot.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

fs::path freshTempDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tetlab_app_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

Image gradientImage(int w, int h) {
  Image image{w, h, std::vector<std::uint8_t>(static_cast<size_t>(w * h * 4))};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = &image.rgba[static_cast<size_t>((y * w + x) * 4)];
      p[0] = static_cast<std::uint8_t>(x * 7);
      p[1] = static_cast<std::uint8_t>(y * 11);
      p[2] = static_cast<std::uint8_t>((x + y) * 3);
      p[3] = 255;
    }
  return image;
}

TEST(Screenshot, FlipRowsReversesRowOrderAndIsAnInvolution) {
  for (int h : {1, 2, 5}) {
    const Image original = gradientImage(3, h);
    Image flipped = original;
    flipRowsInPlace(flipped);
    for (int y = 0; y < h; ++y)
      for (int i = 0; i < 3 * 4; ++i)
        EXPECT_EQ(flipped.rgba[static_cast<size_t>(y * 12 + i)],
                  original.rgba[static_cast<size_t>((h - 1 - y) * 12 + i)]);
    flipRowsInPlace(flipped);
    EXPECT_EQ(flipped.rgba, original.rgba);
  }
}

TEST(Screenshot, PngRoundTripIsLossless) {
  const fs::path dir = freshTempDir("png");
  const Image image = gradientImage(17, 9);
  const fs::path path = dir / "sub" / "shot.png";  // parent folder created on demand
  ASSERT_TRUE(writePng(path, image).ok());
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr) << stbi_failure_reason();
  EXPECT_EQ(w, 17);
  EXPECT_EQ(h, 9);
  EXPECT_TRUE(std::equal(image.rgba.begin(), image.rgba.end(), pixels));
  stbi_image_free(pixels);
  fs::remove_all(dir);
}

TEST(Screenshot, SequenceWritesNumberedFrames) {
  const fs::path dir = freshTempDir("seq");
  PngSequenceWriter writer(dir / "frames");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(writer.write(gradientImage(4, 4)).ok());
  EXPECT_EQ(writer.framesWritten(), 3);
  EXPECT_TRUE(fs::exists(dir / "frames" / "frame_00000.png"));
  EXPECT_TRUE(fs::exists(dir / "frames" / "frame_00002.png"));
  EXPECT_FALSE(fs::exists(dir / "frames" / "frame_00003.png"));
  EXPECT_EQ(PngSequenceWriter::frameFileName(12345), "frame_12345.png");
  fs::remove_all(dir);
}

TEST(Screenshot, UnwritablePathIsAnErrorNamingIt) {
  const fs::path dir = freshTempDir("bad");
  // A regular file where a folder is needed cannot be created over.
  const fs::path blocker = dir / "blocker";
  ASSERT_TRUE(writePng(blocker, gradientImage(2, 2)).ok());
  const Status s = writePng(blocker / "shot.png", gradientImage(2, 2));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find((blocker / "shot.png").string()), std::string::npos) << s.error().message;
  const Status empty = writePng(dir / "empty.png", Image{});
  ASSERT_FALSE(empty.ok());
  fs::remove_all(dir);
}

TEST(FrameTimer, ConstantFrameTimeGivesItsRate) {
  FrameTimer timer;
  EXPECT_EQ(timer.fps(), 0.0);
  for (int i = 0; i <= 200; ++i) timer.tick(10.0 + i * 0.02);
  EXPECT_EQ(timer.frameCount(), 200u);
  EXPECT_NEAR(timer.frameSeconds(), 0.02, 1e-9);
  EXPECT_NEAR(timer.fps(), 50.0, 1e-6);
  for (float ms : timer.historyMs()) EXPECT_NEAR(ms, 20.0f, 1e-3f);
  EXPECT_EQ(timer.historyOffset(), 200u % FrameTimer::kHistory);
}

TEST(FrameTimer, SmoothingFollowsAStepChangeGeometrically) {
  FrameTimer timer;
  double t = 0.0;
  timer.tick(t);
  for (int i = 0; i < 10; ++i) timer.tick(t += 0.01);
  for (int i = 0; i < 5; ++i) timer.tick(t += 0.03);
  // Exponential moving average: the gap to the new value shrinks by (1 - a) per frame.
  const double expected = 0.03 - 0.02 * std::pow(1.0 - FrameTimer::kSmoothing, 5);
  EXPECT_NEAR(timer.frameSeconds(), expected, 1e-9);
}

}  // namespace
}  // namespace tetlab
