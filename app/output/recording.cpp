// Screenshots, PNG sequences and MP4 through an ffmpeg child; see recording.h
// for the data path and why the child is spawned without a shell.
#include "app/output/recording.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include <imgui.h>

extern char** environ;

namespace tetlab {

std::optional<std::filesystem::path> findExecutableOnPath(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? std::optional<std::filesystem::path>(name) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return std::nullopt;
}

RecordFormat recordFormatForPath(const std::filesystem::path& output) {
  std::string ext = output.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".mp4" || ext == ".mkv" || ext == ".mov" ? RecordFormat::kMp4 : RecordFormat::kPngSequence;
}

int simStepsPerVideoFrame(double dt, int fps) {
  if (!(dt > 0.0) || fps <= 0) return 1;
  return std::max(1, int(std::lround(1.0 / (double(fps) * dt))));
}

// ---- FfmpegPipe ----

namespace {

std::string readLogTail(const std::string& path, size_t maxBytes = 1500) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > maxBytes) {
    text.erase(0, text.size() - maxBytes);
    text.insert(0, "...");
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

std::string describeExit(int status) {
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("was killed by signal ") + std::to_string(WTERMSIG(status));
  return "stopped";
}

// write() with SIGPIPE blocked for this thread; a SIGPIPE raised by this write is
// consumed before unblocking so it is never delivered (the EPIPE error of the
// next write carries the news). Blocking per call, not ignoring SIGPIPE process-wide,
// leaves the rest of the program's signal handling as it was.
ssize_t writeWithoutSigpipe(int fd, const void* data, size_t bytes) {
  sigset_t pipeSet, oldSet, pending;
  sigemptyset(&pipeSet);
  sigaddset(&pipeSet, SIGPIPE);
  sigpending(&pending);
  const bool alreadyPending = sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipeSet, &oldSet);
  ssize_t n;
  do {
    n = ::write(fd, data, bytes);
  } while (n < 0 && errno == EINTR);
  const int savedErrno = errno;
  // Not only on EPIPE: a reader that dies mid-write makes write() return the
  // partial count and still raise SIGPIPE (seen with ffmpeg exiting on a bad output).
  sigpending(&pending);
  if (!alreadyPending && sigismember(&pending, SIGPIPE) == 1) {
    const timespec zero{0, 0};
    while (sigtimedwait(&pipeSet, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &oldSet, nullptr);
  errno = savedErrno;
  return n;
}

}  // namespace

struct FfmpegPipe::Child {
  pid_t pid = -1;
  int fd = -1;          // write end of ffmpeg's stdin
  std::string logPath;  // ffmpeg's stderr
  bool reaped = false;
  int status = 0;

  // Closes stdin (ffmpeg then finishes the file) and waits for the child.
  int closeAndWait() {
    if (fd >= 0) ::close(fd), fd = -1;
    if (pid > 0 && !reaped) {
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      reaped = true;
    }
    return status;
  }
  ~Child() {
    closeAndWait();
    if (!logPath.empty()) ::unlink(logPath.c_str());
  }
};

Result<std::unique_ptr<FfmpegPipe>> FfmpegPipe::open(const std::filesystem::path& output, glm::ivec2 size, int fps,
                                                     int crf) {
  const std::optional<std::filesystem::path> ffmpeg = findExecutableOnPath("ffmpeg");
  if (!ffmpeg) return Error{kFfmpegMissingMessage};
  if (size.x <= 0 || size.y <= 0 || fps <= 0)
    return Error{"cannot record '" + output.string() + "': bad frame size " + std::to_string(size.x) + "x" +
                 std::to_string(size.y) + " or fps " + std::to_string(fps)};
  if (output.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(output.parent_path(), ec);
    if (ec) return Error{"cannot create folder '" + output.parent_path().string() + "': " + ec.message()};
  }

  std::unique_ptr<FfmpegPipe> pipe(new FfmpegPipe());
  pipe->size_ = size;
  pipe->child_ = std::make_unique<Child>();
  Child& child = *pipe->child_;

  std::string logTemplate = (std::filesystem::temp_directory_path() / "tetlab-ffmpeg-XXXXXX").string();
  const int logFd = ::mkstemp(logTemplate.data());
  if (logFd < 0) return Error{std::string("cannot create a temporary log for ffmpeg: ") + std::strerror(errno)};
  child.logPath = logTemplate;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    ::close(logFd);
    return Error{std::string("cannot create a pipe to ffmpeg: ") + std::strerror(errno)};
  }

  const std::string sizeArg = std::to_string(size.x) + "x" + std::to_string(size.y);
  const std::string fpsArg = std::to_string(fps);
  const std::string crfArg = std::to_string(std::clamp(crf, 0, 51));
  // yuv420p (what every player decodes) needs even sizes: pad by one pixel if odd.
  std::vector<std::string> args = {ffmpeg->string(), "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
                                   "rgba", "-s", sizeArg, "-r", fpsArg, "-i", "-", "-vf",
                                   "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-preset", "medium", "-crf",
                                   crfArg, "-pix_fmt", "yuv420p", "-movflags", "+faststart", output.string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, logFd, STDERR_FILENO);
  // ffmpeg in a process group of its own: a Ctrl-C in the terminal reaches
  // only tetlab, which then closes the pipe and lets ffmpeg write the index
  // (ffmpeg stopping on its own SIGINT would drop the frames still to come).
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const int rc = ::posix_spawn(&child.pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  ::close(logFd);
  child.fd = fds[1];
  if (rc != 0) {
    child.pid = -1;
    return Error{"cannot start '" + ffmpeg->string() + "': " + std::strerror(rc)};
  }
  return pipe;
}

FfmpegPipe::~FfmpegPipe() {
  if (child_ && child_->fd >= 0)
    if (Status s = finish(); !s) std::fprintf(stderr, "tetlab: %s\n", s.error().message.c_str());
}

Status FfmpegPipe::write(const Image& image) {
  if (!child_ || child_->fd < 0) return Error{"the video is already finished"};
  if (image.width != size_.x || image.height != size_.y ||
      image.rgba.size() != size_t(image.width) * size_t(image.height) * 4)
    return Error{"video frame is " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                 ", the video is " + std::to_string(size_.x) + "x" + std::to_string(size_.y) +
                 ": keep the window size fixed while recording"};
  const std::uint8_t* data = image.rgba.data();
  size_t left = image.rgba.size();
  while (left > 0) {
    const ssize_t n = writeWithoutSigpipe(child_->fd, data, left);
    if (n < 0) {
      const std::string reason = std::strerror(errno);
      const int status = child_->closeAndWait();
      const std::string log = readLogTail(child_->logPath);
      return Error{"ffmpeg stopped taking frames (" + reason + "; ffmpeg " + describeExit(status) + ")" +
                   (log.empty() ? std::string() : ":\n" + log)};
    }
    data += n;
    left -= size_t(n);
  }
  ++frames_;
  return Ok{};
}

Status FfmpegPipe::finish() {
  if (!child_) return Error{"the video is already finished"};
  const int status = child_->closeAndWait();
  const std::string log = readLogTail(child_->logPath);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Error{"ffmpeg " + describeExit(status) + " while writing the video" + (log.empty() ? "" : ":\n" + log)};
  return Ok{};
}

// ---- Recorder ----

Result<std::unique_ptr<Recorder>> Recorder::start(RecordingOptions options) {
  if (options.output.empty()) return Error{"cannot record: no output path given"};
  if (options.fps <= 0 || options.fps > 240)
    return Error{"cannot record: fps " + std::to_string(options.fps) + " is outside 1..240"};
  if (options.format == RecordFormat::kMp4 && !findExecutableOnPath("ffmpeg")) return Error{kFfmpegMissingMessage};
  std::unique_ptr<Recorder> recorder(new Recorder(std::move(options)));
  if (recorder->options_.format == RecordFormat::kPngSequence) recorder->pngs_.emplace(recorder->options_.output);
  return recorder;
}

Recorder::~Recorder() {
  if (!stopped_)
    if (Status s = stop(); !s) std::fprintf(stderr, "tetlab: %s\n", s.error().message.c_str());
}

Status Recorder::addFrame(const Image& image) {
  if (!error_.empty()) return Error{error_};
  if (stopped_) return Error{"the recording is stopped"};
  Status s = Ok{};
  if (options_.format == RecordFormat::kPngSequence) {
    s = pngs_->write(image);
  } else {
    if (!video_) {
      Result<std::unique_ptr<FfmpegPipe>> opened =
          FfmpegPipe::open(options_.output, {image.width, image.height}, options_.fps, options_.crf);
      if (!opened) {
        error_ = opened.error().message;
        return opened.error();
      }
      video_ = std::move(*opened);
    }
    s = video_->write(image);
  }
  if (!s) {
    error_ = s.error().message;
    return s;
  }
  ++frames_;
  return Ok{};
}

Status Recorder::addFrame(const std::uint8_t* rgba, int width, int height) {
  if (rgba == nullptr || width <= 0 || height <= 0) return Error{"cannot record an empty frame"};
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.assign(rgba, rgba + size_t(width) * size_t(height) * 4);
  return addFrame(image);
}

Status Recorder::stop() {
  if (stopped_) return error_.empty() ? Status(Ok{}) : Status(Error{error_});
  stopped_ = true;
  if (video_) {
    Status s = video_->finish();
    video_.reset();
    if (!s && error_.empty()) error_ = s.error().message;
  }
  return error_.empty() ? Status(Ok{}) : Status(Error{error_});
}

std::string Recorder::summary() const {
  char text[64];
  std::snprintf(text, sizeof(text), "recorded %d frame(s) (%.1f s at %d fps) to ", frames_, videoSeconds(),
                options_.fps);
  std::string out = text;
  out += options_.output.string();
  if (options_.format == RecordFormat::kPngSequence) {
    out += '/';
    out += PngSequenceWriter::frameFileName(0);
    out += "...";
  }
  return out;
}

// ---- overlays and screenshots ----

std::string recordingClock(double seconds) {
  const long total = std::max(0L, long(std::floor(seconds)));
  char text[32];
  std::snprintf(text, sizeof(text), "%02ld:%02ld", total / 60, total % 60);
  return text;
}

void drawRecordingIndicator(double videoSeconds, int frames, glm::vec2 displaySize) {
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const std::string label = "REC " + recordingClock(videoSeconds);
  const std::string sub = std::to_string(frames) + " frames";
  const ImVec2 labelSize = ImGui::CalcTextSize(label.c_str());
  const float radius = 0.45f * labelSize.y;
  const ImVec2 origin(displaySize.x - labelSize.x - 3.0f * radius - 24.0f, 14.0f);
  const ImVec2 boxMax(displaySize.x - 12.0f, origin.y + 2.0f * labelSize.y + 10.0f);
  draw->AddRectFilled(ImVec2(origin.x - 8.0f, origin.y - 6.0f), boxMax, IM_COL32(20, 20, 24, 170), 6.0f);
  // Blinks at 1 Hz of video time, like a camera's tally light.
  const bool on = std::fmod(videoSeconds, 1.0) < 0.6;
  const ImVec2 centre(origin.x + radius, origin.y + 0.5f * labelSize.y);
  draw->AddCircleFilled(centre, radius, on ? IM_COL32(235, 40, 40, 255) : IM_COL32(120, 30, 30, 255), 20);
  draw->AddText(ImVec2(origin.x + 2.6f * radius, origin.y), IM_COL32(255, 255, 255, 240), label.c_str());
  draw->AddText(ImVec2(origin.x + 2.6f * radius, origin.y + labelSize.y + 2.0f), IM_COL32(200, 200, 205, 200),
                sub.c_str());
}

Result<std::filesystem::path> saveScreenshot(const Image& image, const std::filesystem::path& directory) {
  for (int i = 1; i < 100000; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "tetlab_%04d.png", i);
    const std::filesystem::path path = directory / name;
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) continue;
    if (Status s = writePng(path, image); !s) return s.error();
    return path;
  }
  return Error{"cannot save a screenshot in '" + directory.string() + "': tetlab_0001..99999.png all exist"};
}

}  // namespace tetlab
