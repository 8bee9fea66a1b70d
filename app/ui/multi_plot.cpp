#include "app/ui/multi_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

namespace tetlab {
namespace {

ImU32 toColor(glm::vec3 c, float alpha = 1.0f) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, alpha)); }

float shown(float v, const MultiPlotStyle& style) {
  if (!std::isfinite(v)) return NAN;
  return style.logScale ? std::log10(std::max(std::fabs(v), style.logFloor)) : v;
}

float xSpan(std::span<const PlotCurve> curves, float& x0) {
  float lo = INFINITY, hi = -INFINITY;
  for (const PlotCurve& c : curves) {
    if (c.y.empty()) continue;
    lo = std::min(lo, c.x0);
    hi = std::max(hi, c.x0 + c.dx * float(c.y.size() - 1));
  }
  if (!std::isfinite(lo)) {
    x0 = 0.0f;
    return 1.0f;
  }
  x0 = lo;
  return std::max(hi - lo, 1e-12f);
}

}  // namespace

PlotRange plotRange(std::span<const PlotCurve> curves, const MultiPlotStyle& style) {
  PlotRange r{INFINITY, -INFINITY};
  for (const PlotCurve& c : curves)
    for (float v : c.y) {
      const float s = shown(v, style);
      if (!std::isfinite(s)) continue;
      r.lo = std::min(r.lo, s);
      r.hi = std::max(r.hi, s);
    }
  if (!std::isfinite(r.lo)) return PlotRange{};
  if (r.hi - r.lo < 1e-12f * std::max(1.0f, std::fabs(r.hi))) {
    r.lo -= 0.5f;
    r.hi += 0.5f;
  }
  return r;
}

void plotLegend(std::span<const PlotCurve> curves) {
  const float h = ImGui::GetTextLineHeight();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (size_t i = 0; i < curves.size(); ++i) {
    // Entries side by side while they fit, else on the next line.
    if (i > 0) {
      ImGui::SameLine(0.0f, 12.0f);
      if (ImGui::GetCursorScreenPos().x + h + 2.0f + ImGui::CalcTextSize(curves[i].name.c_str()).x > right)
        ImGui::NewLine();
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + h * 0.8f, p.y + h * 0.8f), toColor(curves[i].color));
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine(0.0f, 2.0f);
    ImGui::TextUnformatted(curves[i].name.c_str());
  }
}

void plotCurves(const char* label, std::span<const PlotCurve> curves, const MultiPlotStyle& style) {
  const PlotRange range = plotRange(curves, style);
  char heading[160];
  if (style.logScale)
    std::snprintf(heading, sizeof(heading), "%s  [1e%.1f .. 1e%.1f %s]  log", label, double(range.lo), double(range.hi),
                  style.unit);
  else
    std::snprintf(heading, sizeof(heading), "%s  [%.4g .. %.4g %s]", label, double(range.lo), double(range.hi),
                  style.unit);
  ImGui::TextUnformatted(heading);
  const float width = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 p1(p0.x + width, p0.y + style.height);
  ImGui::PushID(label);
  ImGui::InvisibleButton("##plot", ImVec2(width, style.height));
  const bool hovered = ImGui::IsItemHovered();
  ImGui::PopID();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  float x0 = 0.0f;
  const float xw = xSpan(curves, x0);
  const float pad = 0.06f * (range.hi - range.lo);
  const float lo = range.lo - pad, hi = range.hi + pad;
  auto toScreen = [&](float x, float y) {
    return ImVec2(p0.x + (x - x0) / xw * (width - 1.0f), p1.y - (y - lo) / (hi - lo) * (style.height - 1.0f));
  };
  // Decade lines on a log axis: where the curves cross them is what a residual plot is read for.
  if (style.logScale && hi - lo < 40.0f)
    for (float d = std::ceil(lo); d <= hi; d += 1.0f) {
      const float y = toScreen(x0, d).y;
      draw->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), ImGui::GetColorU32(ImGuiCol_Border, 0.35f));
    }
  draw->PushClipRect(p0, p1, true);
  for (const PlotCurve& c : curves) {
    std::vector<ImVec2> run;
    auto flush = [&] {
      if (run.size() >= 2) draw->AddPolyline(run.data(), int(run.size()), toColor(c.color), 0, 1.6f);
      else if (run.size() == 1) draw->AddCircleFilled(run[0], 2.0f, toColor(c.color));
      run.clear();
    };
    for (size_t i = 0; i < c.y.size(); ++i) {
      const float s = shown(c.y[i], style);
      if (!std::isfinite(s)) {
        flush();
        continue;
      }
      run.push_back(toScreen(c.x0 + c.dx * float(i), s));
    }
    flush();
  }
  draw->PopClipRect();
  if (style.xLabel && *style.xLabel) {
    char axis[96];
    std::snprintf(axis, sizeof(axis), "%.4g .. %.4g %s", double(x0), double(x0 + xw), style.xLabel);
    draw->AddText(ImVec2(p1.x - ImGui::CalcTextSize(axis).x - 4.0f, p1.y - ImGui::GetTextLineHeight() - 2.0f),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled), axis);
  }
  if (!hovered) return;
  // The read-out: each curve's sample nearest the cursor's x.
  const float mx = ImGui::GetIO().MousePos.x;
  const float x = x0 + (mx - p0.x) / std::max(width - 1.0f, 1.0f) * xw;
  draw->AddLine(ImVec2(mx, p0.y), ImVec2(mx, p1.y), ImGui::GetColorU32(ImGuiCol_Text, 0.4f));
  ImGui::BeginTooltip();
  ImGui::Text("x = %.4g %s", double(x), style.xLabel ? style.xLabel : "");
  for (const PlotCurve& c : curves) {
    if (c.y.empty()) continue;
    const long i = std::lround((x - c.x0) / (c.dx != 0.0f ? c.dx : 1.0f));
    const size_t k = size_t(std::clamp(i, 0L, long(c.y.size()) - 1));
    ImGui::TextColored(ImVec4(c.color.x, c.color.y, c.color.z, 1.0f), "%s: %.5g %s", c.name.c_str(), double(c.y[k]),
                       style.unit);
  }
  ImGui::EndTooltip();
}

}  // namespace tetlab
