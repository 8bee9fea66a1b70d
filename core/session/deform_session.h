#pragma once
// The deformer in the window (issue 15 items 1 and 2): an animated OBJ
// sequence on a timeline, each shown frame corrected by the quasi-static
// deformer (core/deform/deformer.h) with settings edited live.
//
//   open(rest, pattern) --load rest, find frames, tetrahedralize--> frame 0 solved
//   advance(dt): playing -> the next frame once 1/fps of wall time has passed
//                (at most one per call: a solve can take longer than a frame),
//                at the end: back to 0 (loop) or stop
//   showFrame(i): scrub; load frame i (lazily: only the frame shown is in memory) and solve it
//   settings changed -> resolve(): solve the shown frame again
//   export: one frame per advance() into DIR under the input names, then a notice
//
// The clock follows the timeline: time() = frame / fps. A frame that fails to
// load leaves the last good one shown and says why (error()); nothing throws.
//
// Solving in the background (setBackground, the window): a solve takes longer
// than an app frame (0.4 s for the 6600-tet armadillo), so it runs on a worker
// thread and the window keeps drawing and taking input. A new request replaces
// one not yet started (the latest scrub or edit wins); the bodies shown are the
// last finished solve's (animated() and solved() always belong together), and
// playing moves on only once the shown frame is solved. Without it (headless,
// tests) every solve finishes inside the call that asks for it.
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/deform/anim_sequence.h"
#include "core/deform/deformer.h"
#include "core/result.h"

namespace tetlab {

class DeformSession {
 public:
  static Result<std::unique_ptr<DeformSession>> open(const std::string& restPath, const std::string& animPattern,
                                                     const DeformSettings& settings, int targetTets);

  ~DeformSession();
  DeformSession(const DeformSession&) = delete;
  DeformSession& operator=(const DeformSession&) = delete;

  // Solve on a worker thread from now on (true) or inside each call (false, the default).
  void setBackground(bool on);
  bool background() const { return worker_.joinable(); }
  // A solve is running or waiting (background only).
  bool solving() const;
  // Background: blocks until no solve is running or waiting, then shows the last result.
  void waitForSolve();

  // ---- timeline ----
  size_t frames() const { return sequence_.frames(); }
  size_t frame() const { return frame_; }
  double time() const { return double(frame_) / double(fps); }
  bool playing = false;
  bool loop = true;
  float fps = 24.0f;  // timeline frames per second of wall time [1/s]
  // Scrub to frame i (clamped to the sequence).
  Status showFrame(size_t i);
  // Called once per app frame with the wall time since the last call [s].
  void advance(double wallSeconds);

  // ---- solving ----
  DeformSettings& settings() { return settings_; }
  const DeformSettings& settings() const { return settings_; }
  // Solve the shown frame again (after a settings edit).
  Status resolve();
  const DeformFrameReport& report() const { return report_; }
  // The brush: marks (or clears) the painted hold of every rest vertex within
  // `radius` of the rest-space point and switches the hold to Painted; returns
  // how many vertices changed. The frame is not solved again (call resolve()
  // when the stroke ends).
  size_t paintHold(glm::vec3 restPoint, float radius, bool erase);
  double lastSolveMs() const { return solveMs_; }

  // ---- output ----
  // Writes every frame, one per advance(), to dir under its input file name
  // through `writer` (the app's OBJ writer, app/output/obj_export.h).
  using FrameWriter = std::function<Status(const std::filesystem::path& path, const DeformSession& session)>;
  Status startExport(const std::filesystem::path& dir, FrameWriter writer);
  bool exporting() const { return exportNext_ < frames() && !exportDir_.empty(); }
  size_t exported() const { return exportNext_; }

  const SurfaceMesh& rest() const { return deformer_->restSurface(); }
  // The last solved frame: its animated input and its solution, in the rest mesh's vertex order.
  const std::vector<glm::vec3>& animated() const { return shownAnimated_; }
  const std::vector<glm::vec3>& solved() const { return solved_; }
  const Deformer& deformer() const { return *deformer_; }
  const std::string& restPath() const { return restPath_; }
  const std::string& pattern() const { return sequence_.pattern; }
  const std::string& frameFile() const { return shownFile_; }  // the shown (solved) frame's file
  // The last load or write error ("" = none) and notices, each taken once.
  std::vector<std::string> takeErrors();
  std::vector<std::string> takeNotices();

 private:
  DeformSession() = default;
  Status solveShown();
  void exportStep();

  // One solve: what the worker (or the calling thread) needs, and what it gives back.
  struct SolveJob {
    size_t frame = 0;
    std::string file;
    std::vector<glm::vec3> animated;
    DeformSettings settings;
  };
  struct SolveResult {
    size_t frame = 0;
    std::string file;
    std::vector<glm::vec3> animated, solved;
    DeformFrameReport report;
    double ms = 0.0;
  };
  SolveResult solve(const SolveJob& job);   // on the deformer: only ever one thread at a time
  Status apply(SolveResult result);         // the result becomes what is shown
  bool takeFinished();                      // applies a finished background result; true if there was one
  void workerLoop();

  std::string restPath_;
  AnimSequence sequence_;
  std::unique_ptr<Deformer> deformer_;
  DeformSettings settings_;
  std::vector<glm::vec3> animated_;        // the frame last loaded (the timeline's)
  std::vector<glm::vec3> shownAnimated_;   // the frame last solved, and its solution
  std::vector<glm::vec3> solved_;
  std::string shownFile_;
  DeformFrameReport report_;
  size_t frame_ = 0;
  std::string frameFile_;
  bool exportRequested_ = false;  // the export's current frame was asked for; its result is awaited
  // Background solving: the request not yet started, the last finished result.
  std::thread worker_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::optional<SolveJob> pending_;
  std::optional<SolveResult> done_;
  bool busy_ = false;
  bool quit_ = false;
  double sinceFrame_ = 0.0;
  double solveMs_ = 0.0;
  std::filesystem::path exportDir_;
  FrameWriter exportWriter_;
  size_t exportNext_ = 0;
  std::vector<std::string> errors_, notices_;
};

}  // namespace tetlab
