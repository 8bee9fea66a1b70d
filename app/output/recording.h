#pragma once
// Recording what the 3D view shows: single screenshots, numbered PNG
// sequences and MP4 video through an ffmpeg child process fed raw RGBA frames
// on a pipe. Video time is frame time, not wall time: the app advances the
// simulation by exactly 1/fps simulated seconds per recorded frame
// (simStepsPerVideoFrame), so the video plays smoothly at real speed even when
// the simulation runs slower than real time.
//
//   App::render -> OffscreenTarget::readPixels -> Image (top row first)
//        -> Recorder::addFrame -> [PngSequenceWriter | FfmpegPipe --stdin--> ffmpeg -> out.mp4]
//
// The ffmpeg child is started with posix_spawnp and an argv (no shell, so any
// file name is safe), its stderr goes to a temporary log whose tail becomes the
// error message, and every resource (pipe, child, log) is owned by an RAII
// member. A write to a dead ffmpeg returns EPIPE as an error: SIGPIPE is
// blocked and consumed around the write, so it never kills the app.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <glm/vec2.hpp>

#include "app/output/screenshot.h"
#include "core/result.h"

namespace tetlab {

// Full path of an executable found on $PATH (like `command -v`), or nullopt.
std::optional<std::filesystem::path> findExecutableOnPath(const std::string& name);

// The message shown when MP4 is asked for and ffmpeg is missing.
inline constexpr const char* kFfmpegMissingMessage =
    "ffmpeg not found: install ffmpeg (apt-get install ffmpeg) or record a PNG sequence";

enum class RecordFormat { kMp4, kPngSequence };

// .mp4/.mkv/.mov/.webm -> video, anything else (a folder) -> PNG sequence.
RecordFormat recordFormatForPath(const std::filesystem::path& output);

struct RecordingOptions {
  std::filesystem::path output;        // out.mp4, or a folder for frame_00000.png ...
  RecordFormat format = RecordFormat::kMp4;
  int fps = 30;                        // video frames per second (= simulated seconds^-1 per frame)
  int crf = 18;                        // x264 quality, 0 (lossless) .. 51 (worst); 18 looks lossless
  bool hideUi = false;                 // the app draws no ImGui into recorded frames (it reads this flag)
};

// Whole simulation steps of length dt covering one video frame (1/fps s),
// at least 1. The app steps this many times between recorded frames.
int simStepsPerVideoFrame(double dt, int fps);

// Raw RGBA frames into `ffmpeg ... -i - ... out.mp4`. Frames must all have the
// size given at open (odd sizes are padded to even for yuv420p by ffmpeg).
class FfmpegPipe {
 public:
  // Fails with kFfmpegMissingMessage when ffmpeg is not on PATH, or when the
  // child cannot be started.
  static Result<std::unique_ptr<FfmpegPipe>> open(const std::filesystem::path& output, glm::ivec2 size, int fps,
                                                  int crf);
  ~FfmpegPipe();  // finish() if still open; errors are printed to stderr
  FfmpegPipe(const FfmpegPipe&) = delete;
  FfmpegPipe& operator=(const FfmpegPipe&) = delete;

  // Writes width*height*4 bytes. Errors: size mismatch, ffmpeg exited (with its log tail).
  Status write(const Image& image);
  // Closes the pipe and waits for ffmpeg; error when it exits non-zero (log tail in the message).
  Status finish();
  int framesWritten() const { return frames_; }

 private:
  FfmpegPipe() = default;
  struct Child;
  std::unique_ptr<Child> child_;
  glm::ivec2 size_{0};
  int frames_ = 0;
};

// One recording session, whichever format. Not copyable; stop() or the
// destructor finishes the file.
class Recorder {
 public:
  // MP4 checks for ffmpeg first (kFfmpegMissingMessage); the video pipe opens
  // lazily on the first frame, when the frame size is known.
  static Result<std::unique_ptr<Recorder>> start(RecordingOptions options);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // A frame in image order (rows top to bottom), e.g. OffscreenTarget::readPixels().
  // After the first error every later call returns that error again (the recording is over).
  Status addFrame(const Image& image);
  // Same, from a raw buffer of width*height*4 bytes (copied).
  Status addFrame(const std::uint8_t* rgba, int width, int height);
  // Finishes the file; returns the first error of the session if any.
  Status stop();

  const RecordingOptions& options() const { return options_; }
  int framesWritten() const { return frames_; }
  double videoSeconds() const { return options_.fps > 0 ? double(frames_) / options_.fps : 0.0; }
  bool failed() const { return !error_.empty(); }
  // "recorded 300 frames (10.0 s) to out.mp4"
  std::string summary() const;

 private:
  explicit Recorder(RecordingOptions options) : options_(std::move(options)) {}
  RecordingOptions options_;
  std::unique_ptr<FfmpegPipe> video_;
  std::optional<PngSequenceWriter> pngs_;
  int frames_ = 0;
  bool stopped_ = false;
  std::string error_;
};

// ImGui overlay: a red dot and "REC mm:ss" (video time) at the top right of
// the display, plus the frame count. Call between NewFrame and Render.
void drawRecordingIndicator(double videoSeconds, int frames, glm::vec2 displaySize);

// "01:05" for 65.3 s (minutes may exceed 59).
std::string recordingClock(double seconds);

// F12: writes dir/tetlab_0001.png (first free number), creating dir.
// Returns the path written.
Result<std::filesystem::path> saveScreenshot(const Image& image, const std::filesystem::path& directory);

}  // namespace tetlab
