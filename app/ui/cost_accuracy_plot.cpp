#include "app/ui/cost_accuracy_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "core/sim/diagnostics.h"

namespace tetlab {
namespace {

ImU32 toColor(glm::vec3 c, float alpha = 1.0f) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, alpha)); }

bool plotted(const CostAccuracyPoint& p) { return std::isfinite(p.error) && p.error > 0.0f && std::isfinite(p.ms); }

}  // namespace

void costAccuracyDecades(std::span<const CostAccuracyPoint> points, int& lo, int& hi) {
  const float band = std::log10(StepError::kBand);
  float a = band, b = band;
  for (const CostAccuracyPoint& p : points)
    if (plotted(p)) {
      a = std::min(a, std::log10(p.error));
      b = std::max(b, std::log10(p.error));
    }
  lo = int(std::floor(a));
  hi = std::max(int(std::ceil(b)), lo + 1);
}

void plotCostAccuracy(std::span<const CostAccuracyPoint> points, float height) {
  int lo = 0, hi = 1;
  costAccuracyDecades(points, lo, hi);
  float maxMs = 0.0f;
  for (const CostAccuracyPoint& p : points)
    if (plotted(p)) maxMs = std::max(maxMs, p.ms);
  maxMs = maxMs > 0.0f ? 1.15f * maxMs : 1.0f;

  const float width = std::max(ImGui::GetContentRegionAvail().x, 120.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float left = 44.0f, bottom = 16.0f;  // room for the axis labels
  const ImVec2 a(origin.x + left, origin.y + 4.0f), b(origin.x + width - 8.0f, origin.y + height - bottom);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(a, b, IM_COL32(30, 34, 44, 255));
  const ImU32 grid = IM_COL32(80, 86, 100, 255), text = IM_COL32(170, 174, 184, 255);
  auto yOf = [&](float log10Error) { return b.y - (log10Error - float(lo)) / float(hi - lo) * (b.y - a.y); };
  auto xOf = [&](float ms) { return a.x + ms / maxMs * (b.x - a.x); };
  char label[32];
  for (int d = lo; d <= hi; ++d) {
    const float y = yOf(float(d));
    draw->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), grid);
    std::snprintf(label, sizeof(label), "%g %%", 100.0 * std::pow(10.0, d));
    draw->AddText(ImVec2(origin.x, y - 7.0f), text, label);
  }
  // The verdict's band: above it a step is under-converged.
  const float band = yOf(std::log10(StepError::kBand));
  draw->AddLine(ImVec2(a.x, band), ImVec2(b.x, band), IM_COL32(255, 204, 90, 200), 1.5f);
  std::snprintf(label, sizeof(label), "%.3g ms", double(maxMs));
  draw->AddText(ImVec2(b.x - ImGui::CalcTextSize(label).x, b.y + 1.0f), text, label);
  draw->AddText(ImVec2(a.x, b.y + 1.0f), text, "0   ms per frame");
  for (size_t i = 0; i < points.size(); ++i) {
    const CostAccuracyPoint& p = points[i];
    if (!plotted(p)) continue;
    const ImVec2 c(xOf(p.ms), yOf(std::clamp(std::log10(p.error), float(lo), float(hi))));
    if (p.floatLimited)
      draw->AddCircle(c, 5.0f, toColor(p.color), 0, 2.0f);
    else
      draw->AddCircleFilled(c, 5.0f, toColor(p.color));
    draw->AddText(ImVec2(c.x + 7.0f, c.y - 7.0f), toColor(p.color), p.name.substr(0, p.name.find(' ')).c_str());
  }
  ImGui::Dummy(ImVec2(width, height));
}

}  // namespace tetlab
