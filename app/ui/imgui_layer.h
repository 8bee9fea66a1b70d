#pragma once
// Dear ImGui's context and its GLFW + OpenGL3 backends, created and destroyed
// together. Headless runs override the display size with the offscreen
// target's size, so the UI is laid out for the image being written rather than
// for the (invisible) window.
#include <memory>
#include <optional>

#include <glm/vec2.hpp>

#include "core/result.h"

struct GLFWwindow;

namespace tetlab {

class ImGuiLayer {
 public:
  // Installs the GLFW callbacks (chaining to those already on the window).
  static Result<std::unique_ptr<ImGuiLayer>> create(GLFWwindow* window);
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  void newFrame(std::optional<glm::ivec2> displaySizeOverride);
  // Finishes the frame and draws it into the bound framebuffer.
  void render();
  // Ends a frame without drawing it: used once at start-up so auto-sized
  // windows (which ImGui hides on their first frame while it measures them)
  // already appear in the first rendered frame.
  void discardFrame();

  bool wantsMouse() const;
  bool wantsKeyboard() const;

 private:
  ImGuiLayer() = default;
  bool platformReady_ = false;
  bool rendererReady_ = false;
};

}  // namespace tetlab
