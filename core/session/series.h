#pragma once
// A live number over time (energy, residual, step time): a fixed ring of the
// last kCapacity samples. Plain C++ so SimSession fills it without a window
// and tests read it; app/ui/plots.h draws it with ImGui.
#include <array>
#include <cstddef>

namespace tetlab {

class Series {
 public:
  static constexpr size_t kCapacity = 300;  // 5 s at 60 frames per second

  void push(float value) {
    values_[next_] = value;
    next_ = (next_ + 1) % kCapacity;
    if (count_ < kCapacity) ++count_;
  }
  void clear() { next_ = count_ = 0; }
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // Oldest first: index 0 is the oldest sample kept.
  float at(size_t i) const { return values_[(start() + i) % kCapacity]; }
  float latest() const { return count_ ? values_[(next_ + kCapacity - 1) % kCapacity] : 0.0f; }
  // For ImGui::PlotLines(values, count, offset): the raw ring and its start.
  const float* data() const { return values_.data(); }
  size_t start() const { return count_ < kCapacity ? 0 : next_; }

 private:
  std::array<float, kCapacity> values_{};
  size_t next_ = 0, count_ = 0;
};

}  // namespace tetlab
