// The GLX half of app/render/gl_interop.h, alone in its file: glfw3native.h pulls in
// Xlib, whose macros (Status, None, Bool, ...) collide with tetlab names.
#include <vector>

#include <CL/opencl.hpp>
// GLX types come from epoxy (GL/glx.h would drag in GL/gl.h next to epoxy's
// loader); glfw3native.h then finds them already declared.
#include <epoxy/glx.h>
#define GLFW_INCLUDE_NONE
#define GLFW_EXPOSE_NATIVE_X11
#define GLFW_EXPOSE_NATIVE_GLX
#include <GLFW/glfw3.h>
#include <GLFW/glfw3native.h>

struct GLFWwindow;

namespace tetlab {

std::vector<cl_context_properties> glxSharingProperties(GLFWwindow* window) {
  if (window == nullptr) return {};
  // NULL when GLFW made an EGL context, or no X11 display is in use (Wayland).
  GLXContext context = glfwGetGLXContext(window);
  Display* display = glfwGetX11Display();
  if (context == nullptr || display == nullptr) return {};
  return {CL_GL_CONTEXT_KHR, reinterpret_cast<cl_context_properties>(context), CL_GLX_DISPLAY_KHR,
          reinterpret_cast<cl_context_properties>(display)};
}

}  // namespace tetlab
