// Worker thread around tetrahedralizeSurface. The worker owns its copy of
// the surface; the UI thread only reads progress under the mutex and takes
// the result once `finished_` is set.
#include <chrono>

#include "core/mesh/tetrahedralize.h"

namespace tetlab {
namespace {

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

TetrahedralizeJob::~TetrahedralizeJob() { stop(); }

void TetrahedralizeJob::stop() {
  cancel_ = true;
  if (worker_.joinable()) worker_.join();
  running_ = false;
}

void TetrahedralizeJob::start(SurfaceMesh surface, TetOptions options) {
  stop();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    progress_ = {};
    result_.reset();
    startTime_ = nowSeconds();
  }
  cancel_ = false;
  finished_ = false;
  running_ = true;
  worker_ = std::thread([this, surface = std::move(surface), options] {
    auto onProgress = [this](TetPhase phase, float fraction) {
      std::lock_guard<std::mutex> lock(mutex_);
      progress_.phase = phase;
      progress_.fraction = fraction;
    };
    Result<TetResult> r = tetrahedralizeSurface(surface, options, onProgress, &cancel_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      result_ = std::move(r);
      progress_.elapsedSeconds = nowSeconds() - startTime_;
    }
    finished_ = true;
    running_ = false;
  });
}

void TetrahedralizeJob::cancel() { cancel_ = true; }

bool TetrahedralizeJob::running() const { return running_; }

bool TetrahedralizeJob::finished() const { return finished_; }

TetrahedralizeJob::Progress TetrahedralizeJob::progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Progress p = progress_;
  if (!finished_) p.elapsedSeconds = nowSeconds() - startTime_;
  return p;
}

std::optional<Result<TetResult>> TetrahedralizeJob::take() {
  if (!finished_) return std::nullopt;
  if (worker_.joinable()) worker_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<Result<TetResult>> r = std::move(result_);
  result_.reset();
  return r;
}

}  // namespace tetlab
