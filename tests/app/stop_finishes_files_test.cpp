// Nothing lost (issue 16, item 6): a recording in progress becomes a playable
// MP4 however the run ends (the window's close button, SIGINT from a Ctrl-C,
// SIGTERM from a `kill`), and an OBJ export stopped part-way (here by a full
// disk, simulated with RLIMIT_FSIZE) leaves complete frames only.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/file_size_limit.h"
#include "tests/app/app_test_util.h"
#include "tests/app/run_process.h"
#include "app/output/obj_export.h"
#include "app/output/recording.h"
#include "app/render/mesh_geometry.h"
#include "core/mesh/obj_loader.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tetlab_stop_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Frames ffprobe decodes one by one, -1 when it cannot read the file (an MP4 without its index).
int decodedFrames(const fs::path& video) {
  const std::string command = "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                              "stream=nb_read_frames -of csv=p=0 '" + video.string() + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  std::array<char, 256> buffer{};
  std::string out;
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || out.empty() || !std::isdigit(out[0])) return -1;
  return std::atoi(out.c_str());
}

bool canRecord() { return findExecutableOnPath("ffmpeg") && findExecutableOnPath("ffprobe"); }

TEST(StopFinishesFiles, WindowCloseFinishesTheRecording) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: the app needs an X server (run under xvfb-run)";
  if (!canRecord()) GTEST_SKIP() << kFfmpegMissingMessage;
  const fs::path dir = freshDir("close");
  AppOptions options;
  options.scenePath = test::assetsDir() / "scenes" / "beam.json";
  options.sceneArgument = "beam";
  options.assetDirs = {test::assetsDir()};
  options.headless = true;
  options.width = 320;
  options.height = 200;
  options.recordPath = (dir / "closed.mp4").string();
  Result<std::unique_ptr<App>> created = test::createApp(options);
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  // main()'s loop; the close button is pressed during frame 12.
  int frames = 0;
  while (app.running()) {
    app.frame();
    if (++frames == 12) app.requestClose();
    ASSERT_LT(frames, 100) << "requestClose did not end the loop";
  }
  EXPECT_EQ(frames, 12);
  EXPECT_EQ(app.finish(), 0);
  EXPECT_EQ(decodedFrames(dir / "closed.mp4"), 12);
  fs::remove_all(dir);
}

// The real executable recording until a signal arrives, once the video has
// begun (ffmpeg has written its first bytes: frames have been encoded).
void signalEndsAPlayableRecording(int signal) {
  const fs::path dir = freshDir(signal == SIGINT ? "sigint" : "sigterm");
  const fs::path video = dir / "run.mp4", log = dir / "log.txt";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    ::execl(TETLAB_EXE, TETLAB_EXE, "--scene", "beam", "--headless", "--frames", "100000", "--width", "320",
            "--height", "200", "--record", video.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  std::error_code ec;
  while (!(fs::exists(video, ec) && fs::file_size(video, ec) > 0) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ::kill(pid, signal);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const std::string output = readAll(log);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by the signal instead of finishing:\n" << output;
  EXPECT_EQ(WEXITSTATUS(status), 128 + signal) << output;
  EXPECT_NE(output.find(signal == SIGINT ? "SIGINT received" : "SIGTERM received"), std::string::npos) << output;
  const int frames = decodedFrames(video);
  EXPECT_GT(frames, 0) << "the MP4 is not playable:\n" << output;
  // The summary line counts what was fed to ffmpeg; the file must hold all of it.
  EXPECT_NE(output.find("recorded " + std::to_string(frames) + " frame(s)"), std::string::npos) << output;
  fs::remove_all(dir);
}

TEST(StopFinishesFiles, SigtermFinishesTheRecording) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: the app needs an X server (run under xvfb-run)";
  if (!canRecord()) GTEST_SKIP() << kFfmpegMissingMessage;
  signalEndsAPlayableRecording(SIGTERM);
}

TEST(StopFinishesFiles, SigintFinishesTheRecording) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: the app needs an X server (run under xvfb-run)";
  if (!canRecord()) GTEST_SKIP() << kFfmpegMissingMessage;
  signalEndsAPlayableRecording(SIGINT);
}

TEST(StopFinishesFiles, InterruptedObjExportLeavesCompleteFramesOnly) {
  const fs::path dir = freshDir("obj");
  const SurfaceMesh small = makeUvSphere(0.1f, 6, 8);
  const SurfaceMesh large = makeUvSphere(0.1f, 40, 80);
  const ExportSurface smallSurface{"s", small.positions, {}, small.triangles};
  const ExportSurface largeSurface{"l", large.positions, {}, large.triangles};
  ObjSequenceWriter writer(dir);
  ASSERT_TRUE(writer.write(std::span<const ExportSurface>(&smallSurface, 1)).ok());
  const std::string first = readAll(writer.framePath(0));
  Status s = Ok{};
  {
    test::FileSizeLimit limit(first.size() + 64);  // the disk fills during the second frame
    s = writer.write(std::span<const ExportSurface>(&largeSurface, 1));
  }
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find(writer.framePath(1).string()), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("disk full"), std::string::npos) << s.error().message;
  EXPECT_EQ(writer.framesWritten(), 1);
  // Only the complete first frame is there, and it loads.
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0], writer.framePath(0));
  Result<LoadedSurface> loaded = loadObj(writer.framePath(0).string());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->mesh.triangles.size(), small.triangles.size());
  // The next write, with space again, takes the frame number that failed.
  ASSERT_TRUE(writer.write(std::span<const ExportSurface>(&largeSurface, 1)).ok());
  EXPECT_TRUE(fs::exists(writer.framePath(1)));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tetlab
