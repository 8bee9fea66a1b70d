// Recording: a synthetic frame sequence through the real ffmpeg must come out
// as a video ffprobe counts frame by frame; PNG sequences write one file per
// frame; a dead ffmpeg is an error message, never a SIGPIPE crash. Tests that
// need ffmpeg skip with the reason when it is not installed.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "app/output/recording.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tetlab_recording_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A moving gradient with a square, so consecutive frames differ (no encoder dedup).
Image syntheticFrame(int width, int height, int index) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.resize(size_t(width) * size_t(height) * 4);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = &image.rgba[(size_t(y) * size_t(width) + size_t(x)) * 4];
      const bool square = std::abs(x - (index * 3) % width) < 8 && std::abs(y - height / 2) < 8;
      p[0] = square ? 255 : std::uint8_t(x * 255 / width);
      p[1] = square ? 255 : std::uint8_t(y * 255 / height);
      p[2] = std::uint8_t(index * 8);
      p[3] = 255;
    }
  return image;
}

std::string runCommand(const std::string& command, int* outExit = nullptr) {
  std::string output;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return output;
  std::array<char, 512> buffer{};
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  if (outExit != nullptr) *outExit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return output;
}

int probeFrameCount(const fs::path& video) {
  int exit = -1;
  const std::string out = runCommand("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                     "stream=nb_read_frames -of csv=p=0 '" + video.string() + "'", &exit);
  EXPECT_EQ(exit, 0) << out;
  return std::atoi(out.c_str());
}

TEST(Recording, ThirtyFramesBecomeAThirtyFrameMp4) {
  if (!findExecutableOnPath("ffmpeg") || !findExecutableOnPath("ffprobe"))
    GTEST_SKIP() << "ffmpeg/ffprobe not installed: " << kFfmpegMissingMessage;
  const fs::path dir = freshDir("mp4");
  RecordingOptions options;
  options.output = dir / "out.mp4";
  options.format = recordFormatForPath(options.output);
  ASSERT_EQ(options.format, RecordFormat::kMp4);
  options.fps = 30;
  Result<std::unique_ptr<Recorder>> recorder = Recorder::start(options);
  ASSERT_TRUE(recorder.ok()) << recorder.error().message;
  for (int i = 0; i < 30; ++i) {
    const Image frame = syntheticFrame(161, 91, i);  // odd sizes: padded to even for yuv420p
    ASSERT_TRUE((*recorder)->addFrame(frame).ok());
  }
  EXPECT_EQ((*recorder)->framesWritten(), 30);
  EXPECT_NEAR((*recorder)->videoSeconds(), 1.0, 1e-12);
  const Status stopped = (*recorder)->stop();
  ASSERT_TRUE(stopped.ok()) << stopped.error().message;
  EXPECT_EQ(probeFrameCount(options.output), 30);
  fs::remove_all(dir);
}

TEST(Recording, RawBufferFramesAndTheDestructorFinishTheFile) {
  if (!findExecutableOnPath("ffmpeg") || !findExecutableOnPath("ffprobe"))
    GTEST_SKIP() << "ffmpeg/ffprobe not installed: " << kFfmpegMissingMessage;
  const fs::path dir = freshDir("raii");
  {
    RecordingOptions options;
    options.output = dir / "raii.mp4";
    options.fps = 24;
    Result<std::unique_ptr<Recorder>> recorder = Recorder::start(options);
    ASSERT_TRUE(recorder.ok()) << recorder.error().message;
    for (int i = 0; i < 12; ++i) {
      const Image frame = syntheticFrame(64, 48, i);
      ASSERT_TRUE((*recorder)->addFrame(frame.rgba.data(), frame.width, frame.height).ok());
    }
    // A frame of another size is refused with a reason and ends the recording.
    const Status wrong = (*recorder)->addFrame(syntheticFrame(32, 32, 0));
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().message.find("64x48"), std::string::npos) << wrong.error().message;
    EXPECT_TRUE((*recorder)->failed());
  }  // no stop(): the destructor closes the pipe and waits for ffmpeg
  EXPECT_EQ(probeFrameCount(dir / "raii.mp4"), 12);
  fs::remove_all(dir);
}

TEST(Recording, PngSequenceWritesOneFilePerFrame) {
  const fs::path dir = freshDir("png");
  RecordingOptions options;
  options.output = dir / "frames";
  options.format = recordFormatForPath(options.output);
  ASSERT_EQ(options.format, RecordFormat::kPngSequence);
  Result<std::unique_ptr<Recorder>> recorder = Recorder::start(options);
  ASSERT_TRUE(recorder.ok()) << recorder.error().message;
  for (int i = 0; i < 7; ++i) ASSERT_TRUE((*recorder)->addFrame(syntheticFrame(40, 30, i)).ok());
  ASSERT_TRUE((*recorder)->stop().ok());
  int files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(options.output)) {
    EXPECT_EQ(entry.path().extension(), ".png");
    EXPECT_GT(entry.file_size(), 100u);
    ++files;
  }
  EXPECT_EQ(files, 7);
  EXPECT_TRUE(fs::exists(options.output / "frame_00000.png"));
  EXPECT_TRUE(fs::exists(options.output / "frame_00006.png"));
  EXPECT_NE((*recorder)->summary().find("7 frame(s)"), std::string::npos) << (*recorder)->summary();
  fs::remove_all(dir);
}

TEST(Recording, DeadFfmpegIsAnErrorNotACrash) {
  if (!findExecutableOnPath("ffmpeg")) GTEST_SKIP() << kFfmpegMissingMessage;
  const fs::path dir = freshDir("dead");
  // The output is an existing folder: ffmpeg cannot open it and exits at once,
  // so our writes hit a closed pipe (EPIPE; SIGPIPE must not kill the test).
  fs::create_directories(dir / "taken.mp4");
  Result<std::unique_ptr<FfmpegPipe>> pipe = FfmpegPipe::open(dir / "taken.mp4", {320, 240}, 30, 18);
  ASSERT_TRUE(pipe.ok()) << pipe.error().message;
  const Image frame = syntheticFrame(320, 240, 0);
  Status status = Ok{};
  // Large frames overflow the pipe buffer (64 KiB), so a write soon meets the dead reader.
  for (int i = 0; i < 200 && status.ok(); ++i) status = (*pipe)->write(frame);
  if (status.ok()) status = (*pipe)->finish();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("ffmpeg"), std::string::npos) << status.error().message;
  fs::remove_all(dir);
}

TEST(Recording, MissingFfmpegGivesTheInstallHint) {
  const char* oldPath = std::getenv("PATH");
  const std::string saved = oldPath != nullptr ? oldPath : "";
  const fs::path empty = freshDir("nopath");
  ::setenv("PATH", empty.c_str(), 1);
  EXPECT_FALSE(findExecutableOnPath("ffmpeg"));
  RecordingOptions options;
  options.output = empty / "x.mp4";
  Result<std::unique_ptr<Recorder>> recorder = Recorder::start(options);
  ::setenv("PATH", saved.c_str(), 1);
  ASSERT_FALSE(recorder.ok());
  EXPECT_EQ(recorder.error().message, kFfmpegMissingMessage);
  EXPECT_TRUE(findExecutableOnPath("sh").has_value()) << "PATH restored";
  fs::remove_all(empty);
}

TEST(Recording, FixedSimulationTimePerVideoFrame) {
  EXPECT_EQ(simStepsPerVideoFrame(1.0 / 60.0, 30), 2);
  EXPECT_EQ(simStepsPerVideoFrame(1.0 / 30.0, 30), 1);
  EXPECT_EQ(simStepsPerVideoFrame(1.0 / 240.0, 24), 10);
  EXPECT_EQ(simStepsPerVideoFrame(0.1, 30), 1) << "never zero steps";
  EXPECT_EQ(simStepsPerVideoFrame(0.0, 30), 1);
  EXPECT_EQ(recordingClock(65.3), "01:05");
  EXPECT_EQ(recordingClock(3600.0), "60:00");
  EXPECT_EQ(recordingClock(-1.0), "00:00");
  EXPECT_EQ(recordFormatForPath("a/b.MP4"), RecordFormat::kMp4);
  EXPECT_EQ(recordFormatForPath("frames"), RecordFormat::kPngSequence);
  EXPECT_FALSE(Recorder::start(RecordingOptions{"", RecordFormat::kPngSequence, 30, 18, false}).ok());
  EXPECT_FALSE(Recorder::start(RecordingOptions{"x", RecordFormat::kPngSequence, 0, 18, false}).ok());
}

TEST(Recording, ScreenshotsTakeTheFirstFreeNumber) {
  const fs::path dir = freshDir("shots");
  const Image frame = syntheticFrame(20, 10, 1);
  Result<fs::path> first = saveScreenshot(frame, dir);
  Result<fs::path> second = saveScreenshot(frame, dir);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->filename(), "tetlab_0001.png");
  EXPECT_EQ(second->filename(), "tetlab_0002.png");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tetlab
