#pragma once
// The GLFW window and its OpenGL 3.3 core context, owned RAII-style (GLFW is
// initialised with the window and terminated with it: one window per process,
// which is all tetlab needs). Mouse and key callbacks turn into InputEvents
// queued here; ImGui's GLFW backend is installed after these callbacks and
// chains to them, so ImGui and the scene see the same events.
//
// Headless runs use the same class with visible = false: an invisible window
// still gives a GL context on the X server (Xvfb), and all drawing goes to an
// OffscreenTarget anyway.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#define GLFW_INCLUDE_NONE
#include <epoxy/gl.h>
#include <GLFW/glfw3.h>

#include <glm/vec2.hpp>

#include "app/input_events.h"
#include "core/result.h"

namespace tetlab {

struct WindowOptions {
  int width = 1280;  // [screen coordinates]
  int height = 720;
  std::string title = "tetlab";
  bool visible = true;
  bool vsync = true;
};

// Why no window can be opened here, or nullopt when a display is configured.
// Pure (takes the environment values) so the message is unit-tested.
std::optional<std::string> missingDisplayMessage(const char* displayEnv, const char* waylandDisplayEnv);

class Window {
 public:
  static Result<std::unique_ptr<Window>> create(const WindowOptions& options);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool shouldClose() const;
  void requestClose();
  void swapBuffers();
  glm::ivec2 windowSize() const;
  glm::ivec2 framebufferSize() const;
  std::string glVersionString() const;

  // Drains the events received since the last call, oldest first.
  std::vector<InputEvent> takeEvents();
  // Queues a synthetic event, processed exactly like a real one.
  void pushEvent(const InputEvent& event) { events_.push_back(event); }

 private:
  Window() = default;
  void installCallbacks();

  GLFWwindow* window_ = nullptr;
  glm::vec2 cursor_{0.0f};
  std::vector<InputEvent> events_;
};

}  // namespace tetlab
