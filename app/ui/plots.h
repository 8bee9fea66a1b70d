#pragma once
// Live numbers over time for the "Numbers and plots" panel. The data side
// (Series: a fixed ring of the last kCapacity samples, core/session/series.h)
// is plain C++ so the session fills it without ImGui and tests read it;
// drawing is one ImGui PlotLines per series, with the current value and the
// min/max of the window in the overlay so two solvers can be compared by eye
// while toggling.
#include <cstddef>
#include <span>
#include <string>

#include "core/session/series.h"

namespace tetlab {

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
