// Colour tables, value formatting and the ImGui legend; see colormap.h.
#include "app/render/colormap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <glm/common.hpp>
#include <imgui.h>

namespace tetlab {

namespace {

constexpr glm::vec3 hex(unsigned rgb) {
  return glm::vec3(float((rgb >> 16) & 0xffu) / 255.0f, float((rgb >> 8) & 0xffu) / 255.0f,
                   float(rgb & 0xffu) / 255.0f);
}

ImU32 toImColor(glm::vec3 c, float alpha = 1.0f) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, alpha));
}

}  // namespace

const std::array<glm::vec3, kColormapKeys>& colormapKeys() {
  // matplotlib "viridis" (CC0) at t = 0, 1/8, ..., 1.
  static constexpr std::array<glm::vec3, kColormapKeys> kKeys{hex(0x440154), hex(0x472d7b), hex(0x3b528b),
                                                              hex(0x2c728e), hex(0x21918c), hex(0x28ae80),
                                                              hex(0x5ec962), hex(0xaddc30), hex(0xfde725)};
  return kKeys;
}

namespace {

// HSV (all in [0, 1]) to RGB.
glm::vec3 hsv(float h, float s, float v) {
  const float k[3] = {5.0f, 3.0f, 1.0f};
  glm::vec3 rgb;
  for (int c = 0; c < 3; ++c) {
    const float x = std::fmod(k[c] + h * 6.0f, 6.0f);
    rgb[c] = v - v * s * std::clamp(std::min(x, 4.0f - x), 0.0f, 1.0f);
  }
  return rgb;
}

std::array<glm::vec3, kPaletteSize> buildPalette() {
  // Twelve hues of similar lightness, neighbours far apart on the hue circle.
  std::array<glm::vec3, kPaletteSize> p{};
  const glm::vec3 first[12] = {hex(0x4e79a7), hex(0xf28e2b), hex(0x59a14f), hex(0xe15759), hex(0xb07aa1), hex(0xedc948),
                               hex(0x76b7b2), hex(0xff9da7), hex(0x9c755f), hex(0xa0cbe8), hex(0xd37295), hex(0xbab0ac)};
  for (int i = 0; i < 12; ++i) p[size_t(i)] = first[i];
  // Then the golden angle around the hue circle (each new hue lands in the largest gap).
  for (int i = 12; i < kPaletteSize; ++i) {
    const float h = std::fmod(0.07f + 0.618034f * float(i), 1.0f);
    const float s = (i % 2 == 0) ? 0.55f : 0.80f;
    const float v = (i % 3 == 0) ? 0.70f : 0.90f;
    p[size_t(i)] = hsv(h, s, v);
  }
  return p;
}

}  // namespace

const std::array<glm::vec3, kPaletteSize>& categoryPalette() {
  static const std::array<glm::vec3, kPaletteSize> kPalette = buildPalette();
  return kPalette;
}

glm::vec3 sampleColormap(float t) {
  const auto& keys = colormapKeys();
  if (!(t > 0.0f)) return keys.front();  // also NaN
  if (t >= 1.0f) return keys.back();
  const float s = t * float(kColormapKeys - 1);
  const int i = std::min(int(s), kColormapKeys - 2);
  return glm::mix(keys[size_t(i)], keys[size_t(i + 1)], s - float(i));
}

glm::vec3 categoryColor(int index) {
  const int i = ((index % kPaletteSize) + kPaletteSize) % kPaletteSize;
  return categoryPalette()[size_t(i)];
}

glm::vec3 bodyAlbedo(glm::vec3 base, int body) {
  static const glm::vec3 kOthers[7] = {hex(0x5b8fb0), hex(0xd6b24c), hex(0x8f6fb3), hex(0x6fa776),
                                       hex(0x3fb5a0), hex(0xc0607e), hex(0x9a9a9a)};
  if (body <= 0) return base;
  return kOthers[size_t((body - 1) % 7)];
}

glm::vec3 clothAlbedo(int sheet, bool back) {
  // (face, back) pairs: terracotta / cream, teal / pale teal, plum / pale rose.
  static const glm::vec3 kFace[3] = {hex(0xc2553b), hex(0x2f8f8a), hex(0x8a4f7d)};
  static const glm::vec3 kBack[3] = {hex(0xeadbb8), hex(0xbfe0d9), hex(0xe8c9d4)};
  const size_t k = size_t(std::max(sheet, 0) % 3);
  return back ? kBack[k] : kFace[k];
}

float normalizeToRange(float value, float lo, float hi) {
  if (!(hi > lo)) return 0.0f;
  return std::clamp((value - lo) / (hi - lo), 0.0f, 1.0f);
}

float smoothRangeMax(float previous, float current, float shrinkRate) {
  if (!std::isfinite(current)) return previous;
  if (previous < 0.0f || current >= previous) return current;
  return previous + std::clamp(shrinkRate, 0.0f, 1.0f) * (current - previous);
}

std::string formatFieldValue(float value, std::string_view unit) {
  char text[48];
  if (!std::isfinite(value)) return "n/a";
  if (value == 0.0f) return unit.empty() ? "0" : "0 " + std::string(unit);
  if (unit.empty()) {
    const float a = std::abs(value);
    std::snprintf(text, sizeof(text), a >= 1e-2f && a < 1e4f ? "%.3g" : "%.2e", double(value));
    return text;
  }
  // SI prefixes so "Pa" reads as kPa/MPa and "m" as mm.
  struct Prefix {
    double scale;
    const char* name;
  };
  static constexpr Prefix kPrefixes[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1.0, ""}, {1e-3, "m"}, {1e-6, "u"}};
  const double a = std::abs(double(value));
  const Prefix* chosen = &kPrefixes[std::size(kPrefixes) - 1];
  for (const Prefix& p : kPrefixes)
    if (a >= p.scale) {
      chosen = &p;
      break;
    }
  std::snprintf(text, sizeof(text), "%.3g %s", double(value) / chosen->scale, chosen->name);
  return text + std::string(unit);
}

void drawColorLegend(const LegendInput& input) {
  if (input.field == ColorField::kNone) return;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const float line = ImGui::GetTextLineHeight();
  const std::string title(colorFieldName(input.field));
  const ImU32 text = IM_COL32(235, 235, 240, 255);
  const ImU32 backdrop = IM_COL32(20, 22, 28, 175);

  if (isCategorical(input.field)) {
    const int n = std::max(input.categories, 0);
    const int shown = std::min(n, kLegendSwatches);
    const float swatch = line;
    const std::string more = std::to_string(n) + " colours";
    float width = std::max(ImGui::CalcTextSize(title.c_str()).x, swatch + 8.0f + ImGui::CalcTextSize("00").x);
    if (n > shown) width = std::max(width, ImGui::CalcTextSize(("... " + more).c_str()).x);
    const float height = line * 1.4f + float(shown) * (swatch + 3.0f) + (n > shown ? line + 2.0f : 0.0f);
    const ImVec2 min(input.displaySize.x - input.rightMargin - width - 16.0f, 0.5f * (input.displaySize.y - height));
    draw->AddRectFilled(ImVec2(min.x, min.y - 8.0f), ImVec2(min.x + width + 16.0f, min.y + height + 8.0f), backdrop,
                        6.0f);
    draw->AddText(ImVec2(min.x + 8.0f, min.y), text, title.c_str());
    float y = min.y + line * 1.4f;
    for (int i = 0; i < shown; ++i, y += swatch + 3.0f) {
      draw->AddRectFilled(ImVec2(min.x + 8.0f, y), ImVec2(min.x + 8.0f + swatch, y + swatch),
                          toImColor(categoryColor(i)), 3.0f);
      draw->AddText(ImVec2(min.x + 16.0f + swatch, y), text, std::to_string(i).c_str());
    }
    if (n > shown) draw->AddText(ImVec2(min.x + 8.0f, y), IM_COL32(200, 200, 205, 220), ("... " + more).c_str());
    return;
  }

  const std::string_view unit = colorFieldUnit(input.field);
  const bool clipped = input.shownMax > input.max * 1.0001f && input.shownMax > 0.0f;
  const std::string labels[3] = {(clipped ? ">= " : "") + formatFieldValue(input.max, unit),
                                 formatFieldValue(0.5f * (input.min + input.max), unit),
                                 formatFieldValue(input.min, unit)};
  const float barWidth = 16.0f;
  float labelWidth = 0.0f;
  for (const std::string& l : labels) labelWidth = std::max(labelWidth, ImGui::CalcTextSize(l.c_str()).x);
  const std::string peak = clipped ? "max " + formatFieldValue(input.shownMax, unit) : std::string();
  labelWidth = std::max(labelWidth, ImGui::CalcTextSize(peak.c_str()).x - barWidth - 8.0f);
  const float barHeight = std::clamp(0.35f * input.displaySize.y, 120.0f, 320.0f);
  const float width = std::max(ImGui::CalcTextSize(title.c_str()).x, barWidth + 8.0f + labelWidth);
  const float height = line * 1.6f + barHeight + 0.5f * line + (clipped ? line * 1.2f : 0.0f);
  const ImVec2 min(input.displaySize.x - input.rightMargin - width - 16.0f, 0.5f * (input.displaySize.y - height));
  draw->AddRectFilled(ImVec2(min.x, min.y - 8.0f), ImVec2(min.x + width + 16.0f, min.y + height + 8.0f), backdrop,
                      6.0f);
  draw->AddText(ImVec2(min.x + 8.0f, min.y), text, title.c_str());
  const float barTop = min.y + line * 1.6f;
  const float barX = min.x + 8.0f;
  // One gradient quad per key interval: exact for the piecewise-linear map. Top = max.
  for (int i = 0; i < kColormapKeys - 1; ++i) {
    const float y0 = barTop + barHeight * (1.0f - float(i + 1) / float(kColormapKeys - 1));
    const float y1 = barTop + barHeight * (1.0f - float(i) / float(kColormapKeys - 1));
    const ImU32 top = toImColor(colormapKeys()[size_t(i + 1)]);
    const ImU32 bottom = toImColor(colormapKeys()[size_t(i)]);
    draw->AddRectFilledMultiColor(ImVec2(barX, y0), ImVec2(barX + barWidth, y1), top, top, bottom, bottom);
  }
  draw->AddRect(ImVec2(barX, barTop), ImVec2(barX + barWidth, barTop + barHeight), IM_COL32(255, 255, 255, 90));
  for (int k = 0; k < 3; ++k) {
    const float y = barTop + barHeight * 0.5f * float(k);
    draw->AddLine(ImVec2(barX + barWidth, y), ImVec2(barX + barWidth + 4.0f, y), text);
    draw->AddText(ImVec2(barX + barWidth + 8.0f, y - 0.5f * line), text, labels[k].c_str());
  }
  if (clipped)
    draw->AddText(ImVec2(barX, barTop + barHeight + 0.6f * line), IM_COL32(200, 200, 205, 220), peak.c_str());
}

}  // namespace tetlab
