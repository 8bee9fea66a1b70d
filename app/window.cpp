// GLFW window, GL context creation with readable failures, input callbacks.
#include "app/window.h"

#include <cstdio>
#include <cstdlib>

namespace tetlab {

namespace {

void printGlfwError(int code, const char* description) {
  std::fprintf(stderr, "tetlab: GLFW error 0x%05x: %s\n", code, description ? description : "(no description)");
}

std::string lastGlfwError() {
  const char* description = nullptr;
  const int code = glfwGetError(&description);
  if (code == GLFW_NO_ERROR) return "unknown GLFW error";
  return description ? description : "GLFW error " + std::to_string(code);
}

Window* owner(GLFWwindow* window) { return static_cast<Window*>(glfwGetWindowUserPointer(window)); }

InputEvent withMods(InputEvent e, int mods) {
  e.shift = (mods & GLFW_MOD_SHIFT) != 0;
  e.ctrl = (mods & GLFW_MOD_CONTROL) != 0;
  return e;
}

}  // namespace

std::optional<std::string> missingDisplayMessage(const char* displayEnv, const char* waylandDisplayEnv) {
  const bool x11 = displayEnv != nullptr && *displayEnv != '\0';
  const bool wayland = waylandDisplayEnv != nullptr && *waylandDisplayEnv != '\0';
  if (x11 || wayland) return std::nullopt;
  return std::string(
      "no display found (DISPLAY is not set): run under xvfb-run, or use scripts/run.sh which does. Without a "
      "display these still work: tetlab run (simulate, --stats CSV), tetlab inspect (mesh report) and tetlab-bench");
}

Result<std::unique_ptr<Window>> Window::create(const WindowOptions& options) {
  if (auto message = missingDisplayMessage(std::getenv("DISPLAY"), std::getenv("WAYLAND_DISPLAY")))
    return Error{*message};
  if (glfwInit() != GLFW_TRUE) {
    const char* display = std::getenv("DISPLAY");
    return Error{"cannot open the display '" + std::string(display ? display : "") + "' (" + lastGlfwError() +
                 "): check that the X server is running, or run under xvfb-run"};
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  // Anti-aliasing happens in the OffscreenTarget; the window itself only receives a blit.
  glfwWindowHint(GLFW_SAMPLES, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);

  std::unique_ptr<Window> w(new Window());
  w->window_ = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (w->window_ == nullptr) {
    const std::string reason = lastGlfwError();
    glfwTerminate();
    return Error{"cannot create an OpenGL 3.3 core window (" + reason +
                 "): the GL driver is too old or missing; install libgl1-mesa-dri or update the GPU driver"};
  }
  // Installed only now: set-up failures above are reported once, by the returned
  // message; from here on GLFW errors are unexpected and printed as they happen.
  glfwSetErrorCallback(printGlfwError);
  glfwMakeContextCurrent(w->window_);
  glfwSwapInterval(options.vsync ? 1 : 0);
  glfwSetWindowUserPointer(w->window_, w.get());
  w->installCallbacks();
  return w;
}

Window::~Window() {
  if (window_ != nullptr) glfwDestroyWindow(window_);
  glfwTerminate();
}

void Window::installCallbacks() {
  glfwSetCursorPosCallback(window_, [](GLFWwindow* window, double x, double y) {
    Window* self = owner(window);
    self->cursor_ = glm::vec2(static_cast<float>(x), static_cast<float>(y));
    InputEvent e;
    e.type = InputEvent::Type::kCursorMove;
    e.cursor = self->cursor_;
    self->events_.push_back(e);
  });
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* window, int button, int action, int mods) {
    Window* self = owner(window);
    if (button != GLFW_MOUSE_BUTTON_LEFT && button != GLFW_MOUSE_BUTTON_RIGHT && button != GLFW_MOUSE_BUTTON_MIDDLE)
      return;
    InputEvent e;
    e.type = action == GLFW_PRESS ? InputEvent::Type::kButtonPress : InputEvent::Type::kButtonRelease;
    e.button = button == GLFW_MOUSE_BUTTON_LEFT    ? MouseButton::kLeft
               : button == GLFW_MOUSE_BUTTON_RIGHT ? MouseButton::kRight
                                                   : MouseButton::kMiddle;
    e.cursor = self->cursor_;
    self->events_.push_back(withMods(e, mods));
  });
  glfwSetScrollCallback(window_, [](GLFWwindow* window, double, double yOffset) {
    Window* self = owner(window);
    InputEvent e;
    e.type = InputEvent::Type::kScroll;
    e.scroll = static_cast<float>(yOffset);
    e.cursor = self->cursor_;
    self->events_.push_back(e);
  });
  glfwSetDropCallback(window_, [](GLFWwindow* window, int count, const char** paths) {
    Window* self = owner(window);
    InputEvent e;
    e.type = InputEvent::Type::kDrop;
    e.cursor = self->cursor_;
    for (int i = 0; i < count; ++i)
      if (paths[i] != nullptr) e.paths.emplace_back(paths[i]);
    self->events_.push_back(std::move(e));
  });
  glfwSetKeyCallback(window_, [](GLFWwindow* window, int key, int, int action, int mods) {
    if (action != GLFW_PRESS) return;
    Window* self = owner(window);
    InputEvent e;
    e.type = InputEvent::Type::kKeyPress;
    e.key = key;
    e.cursor = self->cursor_;
    self->events_.push_back(withMods(e, mods));
  });
}

bool Window::shouldClose() const { return glfwWindowShouldClose(window_) == GLFW_TRUE; }
void Window::requestClose() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void Window::swapBuffers() { glfwSwapBuffers(window_); }

glm::ivec2 Window::windowSize() const {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  return {w, h};
}

glm::ivec2 Window::framebufferSize() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return {w, h};
}

std::string Window::glVersionString() const {
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return std::string(version ? version : "?") + " (" + (renderer ? renderer : "?") + ")";
}

std::vector<InputEvent> Window::takeEvents() {
  std::vector<InputEvent> out;
  out.swap(events_);
  return out;
}

}  // namespace tetlab
