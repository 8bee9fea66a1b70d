#pragma once
// Live numbers over time for the "Numbers and plots" panel. The data side
// (Series: a fixed ring of the last kCapacity samples) is plain C++ so the
// session fills it without ImGui and tests read it; drawing is one ImGui
// PlotLines per series, with the current value and the min/max of the window
// in the overlay so two solvers can be compared by eye while toggling.
#include <array>
#include <cstddef>
#include <span>
#include <string>

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

struct PlotStyle {
  const char* unit = "";     // appended to the numbers in the overlay
  bool logScale = false;     // plot log10(max(v, floor)): residuals span decades
  float logFloor = 1e-12f;
  float height = 48.0f;      // [pixels]
};

// ImGui: "label  latest unit  [min .. max]" and the curve. Draws nothing but
// a dim "no data yet" line when the series is empty.
void plotSeries(const char* label, const Series& series, const PlotStyle& style = {});

// ImGui: the values of one step (e.g. the residual after each iteration), as
// a curve over their index, log scale when asked.
void plotValues(const char* label, std::span<const float> values, const PlotStyle& style = {});

}  // namespace tetlab
