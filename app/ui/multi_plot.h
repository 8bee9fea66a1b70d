#pragma once
// A plot of several curves in one frame, for compare mode's overlaid plots
// (issue 14): one curve per lane in the lane's colour, a legend, linear or
// log axes with their range written at the ends, and a hover read-out of every
// curve at the cursor. Drawn with ImGui's draw list (Debian has no ImPlot).
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace tetlab {

struct PlotCurve {
  std::string name;       // the legend's and the read-out's label
  glm::vec3 color{1.0f};  // sRGB
  std::vector<float> y;   // samples, oldest first; NaN/inf leave a gap
  float x0 = 0.0f;        // x of sample i: x0 + i dx
  float dx = 1.0f;
};

struct MultiPlotStyle {
  const char* unit = "";       // of y, after the numbers
  const char* xLabel = "";     // under the x axis, e.g. "frames"
  bool logScale = false;       // log10 of |y| (residuals, errors span decades)
  float logFloor = 1e-12f;
  float height = 90.0f;        // [pixels]
};

// The frame's y range over the curves' finite samples (log10 where asked); {0, 1} when none.
struct PlotRange {
  float lo = 0.0f, hi = 1.0f;
};
PlotRange plotRange(std::span<const PlotCurve> curves, const MultiPlotStyle& style);

// ImGui: the label, the plot and (on hover) a tooltip with each curve's value nearest the cursor.
void plotCurves(const char* label, std::span<const PlotCurve> curves, const MultiPlotStyle& style);

// ImGui: a row of coloured squares with the curves' names.
void plotLegend(std::span<const PlotCurve> curves);

}  // namespace tetlab
