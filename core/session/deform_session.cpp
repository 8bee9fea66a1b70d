#include "core/session/deform_session.h"

#include <chrono>
#include <system_error>

#include <glm/geometric.hpp>

namespace tetlab {

Result<std::unique_ptr<DeformSession>> DeformSession::open(const std::string& restPath, const std::string& animPattern,
                                                           const DeformSettings& settings, int targetTets) {
  Result<SurfaceMesh> rest = loadDeformRestMesh(restPath);
  if (!rest) return rest.error();
  Result<AnimSequence> sequence = findAnimSequence(animPattern);
  if (!sequence) return sequence.error();
  Result<Deformer> deformer = Deformer::create(*rest, settings.material, targetTets);
  if (!deformer) return deformer.error();
  std::unique_ptr<DeformSession> s(new DeformSession());
  s->restPath_ = restPath;
  s->sequence_ = std::move(*sequence);
  s->deformer_ = std::make_unique<Deformer>(std::move(*deformer));
  s->settings_ = settings;
  s->animated_ = rest->positions;
  s->shownAnimated_ = rest->positions;
  s->solved_ = rest->positions;
  if (Status shown = s->showFrame(0); !shown) return shown.error();
  return s;
}

DeformSession::~DeformSession() { setBackground(false); }

void DeformSession::setBackground(bool on) {
  if (on == background()) return;
  if (on) {
    quit_ = false;
    worker_ = std::thread([this] { workerLoop(); });
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
    pending_.reset();
  }
  wake_.notify_all();
  worker_.join();
  (void)takeFinished();
}

bool DeformSession::solving() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return busy_ || pending_.has_value();
}

void DeformSession::waitForSolve() {
  if (!background()) return;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [this] { return !busy_ && !pending_; });
  }
  (void)takeFinished();
}

void DeformSession::workerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return quit_ || pending_.has_value(); });
    if (quit_) return;
    SolveJob job = std::move(*pending_);
    pending_.reset();
    busy_ = true;
    lock.unlock();
    SolveResult result = solve(job);
    lock.lock();
    done_ = std::move(result);
    busy_ = false;
    finished_.notify_all();
  }
}

DeformSession::SolveResult DeformSession::solve(const SolveJob& job) {
  SolveResult r;
  r.frame = job.frame;
  r.file = job.file;
  r.animated = job.animated;
  const auto t0 = std::chrono::steady_clock::now();
  r.report = deformer_->solveFrame(job.animated, job.settings);
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.solved = deformer_->solvedSurface();
  return r;
}

Status DeformSession::apply(SolveResult r) {
  report_ = std::move(r.report);
  solveMs_ = r.ms;
  shownAnimated_ = std::move(r.animated);
  solved_ = std::move(r.solved);
  shownFile_ = std::move(r.file);
  if (!report_.finite) {
    playing = false;
    errors_.push_back(shownFile_ + ": " + report_.problem);
    return Error{report_.problem};
  }
  return Ok{};
}

bool DeformSession::takeFinished() {
  std::optional<SolveResult> r;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    r = std::move(done_);
    done_.reset();
  }
  if (!r) return false;
  (void)apply(std::move(*r));  // an error is queued
  return true;
}

Status DeformSession::showFrame(size_t i) {
  if (frames() == 0) return Error{"the animation has no frames"};
  i = std::min(i, frames() - 1);
  const std::string restName = std::filesystem::path(restPath_).filename().string();
  Result<std::vector<glm::vec3>> frame = loadAnimFrame(sequence_, i, deformer_->restSurface(), restName);
  if (!frame) {
    playing = false;
    errors_.push_back(frame.error().message);
    return frame.error();
  }
  animated_ = std::move(*frame);
  frame_ = i;
  frameFile_ = sequence_.files[i].filename().string();
  return solveShown();
}

Status DeformSession::solveShown() {
  SolveJob job{frame_, frameFile_, animated_, settings_};
  if (!background()) return apply(solve(job));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::move(job);  // replaces a request not yet started
  }
  wake_.notify_one();
  return Ok{};
}

Status DeformSession::resolve() { return solveShown(); }

size_t DeformSession::paintHold(glm::vec3 restPoint, float radius, bool erase) {
  const std::vector<glm::vec3>& rest = deformer_->restSurface().positions;
  settings_.painted.resize(rest.size(), 0);
  settings_.hold = DeformHold::Painted;
  const float r2 = radius * radius;
  const uint8_t value = erase ? 0 : 1;
  size_t changed = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    const glm::vec3 d = rest[i] - restPoint;
    if (glm::dot(d, d) > r2 || settings_.painted[i] == value) continue;
    settings_.painted[i] = value;
    ++changed;
  }
  return changed;
}

void DeformSession::advance(double wallSeconds) {
  if (background()) (void)takeFinished();
  if (exporting()) {
    exportStep();
    return;
  }
  if (!playing || frames() == 0) return;
  if (background() && solving()) return;  // the shown frame first
  sinceFrame_ += wallSeconds;
  if (sinceFrame_ + 1e-9 < 1.0 / double(std::max(fps, 0.1f))) return;
  sinceFrame_ = 0.0;
  size_t next = frame_ + 1;
  if (next >= frames()) {
    if (!loop) {
      playing = false;
      return;
    }
    next = 0;
  }
  (void)showFrame(next);
}

Status DeformSession::startExport(const std::filesystem::path& dir, FrameWriter writer) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{"cannot create the export folder '" + dir.string() + "': " + ec.message()};
  exportDir_ = dir;
  exportWriter_ = std::move(writer);
  exportNext_ = 0;
  exportRequested_ = false;
  playing = false;
  return Ok{};
}

void DeformSession::exportStep() {
  const size_t i = exportNext_;
  if (!exportRequested_) {
    if (Status s = showFrame(i); !s) {
      exportDir_.clear();  // the error is already queued
      return;
    }
    exportRequested_ = true;
  }
  if (background()) {
    if (solving()) return;  // its result comes in a later call
    (void)takeFinished();
  }
  exportRequested_ = false;
  if (!report_.finite) {
    exportDir_.clear();  // the error is already queued
    return;
  }
  if (Status s = exportWriter_(exportDir_ / shownFile_, *this); !s) {
    errors_.push_back(s.error().message);
    exportDir_.clear();
    return;
  }
  ++exportNext_;
  if (exportNext_ >= frames()) {
    notices_.push_back("deformer: wrote " + std::to_string(frames()) + " corrected frames to " + exportDir_.string());
    exportDir_.clear();
  }
}

std::vector<std::string> DeformSession::takeErrors() { return std::exchange(errors_, {}); }
std::vector<std::string> DeformSession::takeNotices() { return std::exchange(notices_, {}); }

}  // namespace tetlab
