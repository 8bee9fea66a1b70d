#include "app/ui/plots.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <imgui.h>

namespace tetlab {

namespace {

const ImVec4 kDim(0.65f, 0.67f, 0.72f, 1.0f);

float transform(float v, const PlotStyle& style) {
  if (!std::isfinite(v)) return 0.0f;
  return style.logScale ? std::log10(std::max(std::fabs(v), style.logFloor)) : v;
}

// One PlotLines over already transformed values.
void drawCurve(const char* label, const std::vector<float>& shown, float rawMin, float rawMax, float latest,
               const PlotStyle& style) {
  float lo = *std::min_element(shown.begin(), shown.end());
  float hi = *std::max_element(shown.begin(), shown.end());
  if (hi - lo < 1e-12f * std::max(1.0f, std::fabs(hi))) {
    lo -= 0.5f;
    hi += 0.5f;
  }
  char overlay[128];
  std::snprintf(overlay, sizeof(overlay), "%.4g %s  [%.3g .. %.3g]%s", double(latest), style.unit, double(rawMin),
                double(rawMax), style.logScale ? "  log" : "");
  ImGui::TextUnformatted(label);
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::PushID(label);
  ImGui::PlotLines("##curve", shown.data(), int(shown.size()), 0, overlay, lo, hi + 0.15f * (hi - lo),
                   ImVec2(width, style.height));
  ImGui::PopID();
}

}  // namespace

void plotSeries(const char* label, const Series& series, const PlotStyle& style) {
  if (series.empty()) {
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::TextColored(kDim, "(no data yet)");
    return;
  }
  std::vector<float> shown(series.size());
  float rawMin = INFINITY, rawMax = -INFINITY;
  for (size_t i = 0; i < series.size(); ++i) {
    const float v = series.at(i);
    shown[i] = transform(v, style);
    if (std::isfinite(v)) {
      rawMin = std::min(rawMin, v);
      rawMax = std::max(rawMax, v);
    }
  }
  // A gap (NaN: not measured that frame) holds the last measured value (the
  // first one before it), so an every-10th-frame series reads as steps, not
  // as drops to 0, and the read-out is the latest measured value.
  float held = 0.0f, latest = series.latest();
  for (size_t i = 0; i < series.size(); ++i)
    if (std::isfinite(series.at(i))) {
      held = shown[i];
      break;
    }
  for (size_t i = 0; i < series.size(); ++i) {
    if (std::isfinite(series.at(i))) {
      held = shown[i];
      latest = series.at(i);
    } else {
      shown[i] = held;
    }
  }
  drawCurve(label, shown, rawMin, rawMax, latest, style);
}

void plotValues(const char* label, std::span<const float> values, const PlotStyle& style) {
  if (values.empty()) {
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::TextColored(kDim, "(no data)");
    return;
  }
  std::vector<float> shown(values.size());
  float rawMin = INFINITY, rawMax = -INFINITY;
  for (size_t i = 0; i < values.size(); ++i) {
    shown[i] = transform(values[i], style);
    if (std::isfinite(values[i])) {
      rawMin = std::min(rawMin, values[i]);
      rawMax = std::max(rawMax, values[i]);
    }
  }
  if (shown.size() == 1) shown.push_back(shown[0]);  // PlotLines needs two points for a line
  drawCurve(label, shown, rawMin, rawMax, values.back(), style);
}

}  // namespace tetlab
