#pragma once
// Mouse, key and file-drop input as plain events. GLFW callbacks (app/window.cpp) turn into these,
// and so can a test or a script: everything that reacts to the mouse (camera
// today, picking and dragging later) consumes this one stream, so synthetic
// input follows exactly the code path of real input.
#include <string>
#include <vector>

#include <glm/vec2.hpp>

namespace tetlab {

enum class MouseButton { kLeft, kRight, kMiddle };

struct InputEvent {
  enum class Type { kButtonPress, kButtonRelease, kCursorMove, kScroll, kKeyPress, kDrop };
  Type type = Type::kCursorMove;
  MouseButton button = MouseButton::kLeft;  // press/release only
  glm::vec2 cursor{0.0f};                   // window coordinates (pixels, y down)
  float scroll = 0.0f;                      // wheel steps, positive = away from the user
  int key = 0;                              // key press only: a GLFW_KEY_* code
  bool shift = false;
  bool ctrl = false;
  std::vector<std::string> paths;           // drop only: files dropped onto the window
};

}  // namespace tetlab
