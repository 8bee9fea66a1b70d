#pragma once
// Frame time for the UI: a smoothed value (so the FPS readout is legible, not
// flickering) and a short history for the plot. Fed with timestamps, so it is
// tested with made-up clocks.
#include <array>
#include <cstddef>

namespace tetlab {

class FrameTimer {
 public:
  static constexpr size_t kHistory = 120;
  static constexpr double kSmoothing = 0.1;  // weight of the newest frame in the moving average

  // Call once per frame with a monotonic time in seconds.
  void tick(double nowSeconds) {
    if (hasLast_) {
      const double dt = nowSeconds - last_;
      smoothed_ = frames_ == 0 ? dt : smoothed_ + kSmoothing * (dt - smoothed_);
      history_[frames_ % kHistory] = static_cast<float>(dt * 1000.0);
      ++frames_;
    }
    last_ = nowSeconds;
    hasLast_ = true;
  }

  double frameSeconds() const { return smoothed_; }
  double fps() const { return smoothed_ > 0.0 ? 1.0 / smoothed_ : 0.0; }
  size_t frameCount() const { return frames_; }
  // Ring buffer of frame times in milliseconds; historyOffset() is the oldest entry.
  const std::array<float, kHistory>& historyMs() const { return history_; }
  size_t historyOffset() const { return frames_ % kHistory; }

 private:
  double last_ = 0.0;
  bool hasLast_ = false;
  double smoothed_ = 0.0;
  size_t frames_ = 0;
  std::array<float, kHistory> history_{};
};

}  // namespace tetlab
