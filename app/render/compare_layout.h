#pragma once
// Where compare mode's lanes are drawn (issue 14). Split view: one cell per
// lane in the part of the window the panel leaves free, a row for two lanes,
// a 2x2 grid for three or four, all cells looking through the same camera.
// Overlay: one view, the first lane shaded, the others as ghosts in their
// lane colour. Display coordinates (top-left origin, ImGui's) for the labels
// and picking; GL pixels (bottom-left origin) for drawing.
#include <cstddef>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace tetlab {

struct ScreenRect {
  glm::vec2 min{0.0f};   // top-left [display units]
  glm::vec2 size{0.0f};
  bool contains(glm::vec2 p) const {
    return p.x >= min.x && p.y >= min.y && p.x < min.x + size.x && p.y < min.y + size.y;
  }
};

struct ViewportRect {
  glm::ivec2 origin{0};  // bottom-left [pixels]
  glm::ivec2 size{0};
};

// The cells of `lanes` lanes (1..4) in the display, right of `freeLeft`
// (the panel's right edge; the whole width when the rest is too narrow).
std::vector<ScreenRect> splitCells(glm::vec2 display, float freeLeft, size_t lanes);

// A display rectangle in the pixels of a render target of `target` pixels.
ViewportRect toPixels(const ScreenRect& r, glm::vec2 display, glm::ivec2 target);

// The lane's colour (sRGB): curves, labels and overlay ghosts use it. Lane 0
// is the sandbox's own warm clay, the others cool hues far from it and each other.
glm::vec3 laneColor(size_t lane);

}  // namespace tetlab
