#pragma once
// Compare mode's common accuracy axis against cost: one point per lane at
// (ms per frame, mean step error as a share of the step's force), the step
// error being the one measure every solver shares (core/sim/step_error.h).
// Lower and further left is better; a lane below another at the same cost
// is more accurate per millisecond.
#include <span>
#include <string>

#include <glm/vec3.hpp>

namespace tetlab {

struct CostAccuracyPoint {
  std::string name;       // "1 XPBD 20x1"
  glm::vec3 color{1.0f};  // sRGB
  float ms = 0.0f;        // mean wall time of a frame [ms]
  float error = 0.0f;     // mean step error / scale over its measured frames [-]; NaN: none measured
  bool floatLimited = false;  // most frames float-limited: drawn hollow, the error may lie anywhere below
};

// The y axis's decades [log10], from the points' finite, positive errors
// (at least one decade, always including 5 %, the verdict's band).
void costAccuracyDecades(std::span<const CostAccuracyPoint> points, int& lo, int& hi);

// ImGui: the chart, with the 5 % band drawn across it.
void plotCostAccuracy(std::span<const CostAccuracyPoint> points, float height);

}  // namespace tetlab
