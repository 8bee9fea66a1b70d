#include "app/render/compare_layout.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>

namespace tetlab {

namespace {
constexpr float kGap = 4.0f;  // between cells [display units]
}

std::vector<ScreenRect> splitCells(glm::vec2 display, float freeLeft, size_t lanes) {
  // Too narrow beside the panel: use the whole width (the panel covers part of the first cells).
  const float left = display.x - freeLeft >= 0.5f * display.x ? freeLeft : 0.0f;
  const glm::vec2 area(display.x - left, display.y);
  const size_t columns = lanes <= 1 ? 1 : 2;
  const size_t rows = lanes <= 2 ? 1 : 2;
  const glm::vec2 cell((area.x - kGap * float(columns - 1)) / float(columns),
                       (area.y - kGap * float(rows - 1)) / float(rows));
  std::vector<ScreenRect> out;
  for (size_t i = 0; i < lanes; ++i) {
    const size_t c = i % columns, r = i / columns;
    out.push_back(ScreenRect{glm::vec2(left + float(c) * (cell.x + kGap), float(r) * (cell.y + kGap)),
                             glm::max(cell, glm::vec2(1.0f))});
  }
  return out;
}

ViewportRect toPixels(const ScreenRect& r, glm::vec2 display, glm::ivec2 target) {
  const glm::vec2 scale(display.x > 0.0f ? float(target.x) / display.x : 1.0f,
                        display.y > 0.0f ? float(target.y) / display.y : 1.0f);
  const glm::vec2 lo = r.min * scale, hi = (r.min + r.size) * scale;
  ViewportRect out;
  out.origin = glm::ivec2(int(std::lround(lo.x)), target.y - int(std::lround(hi.y)));
  out.size = glm::max(glm::ivec2(int(std::lround(hi.x)) - int(std::lround(lo.x)), int(std::lround(hi.y)) - int(std::lround(lo.y))),
                      glm::ivec2(1));
  return out;
}

glm::vec3 laneColor(size_t lane) {
  static constexpr glm::vec3 kColors[] = {
      {0.82f, 0.45f, 0.30f},  // clay (the sandbox's albedo)
      {0.30f, 0.62f, 0.92f},  // blue
      {0.45f, 0.80f, 0.40f},  // green
      {0.80f, 0.50f, 0.90f},  // violet
  };
  return kColors[lane % 4];
}

}  // namespace tetlab
