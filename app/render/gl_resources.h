#pragma once
// Move-only RAII owners for OpenGL object names. GL objects are plain integers
// that must be deleted on the context that made them; wrapping each kind in a
// handle with its own deleter means a failed setup path (shader compile error,
// incomplete framebuffer) can return early without leaking, and the renderer's
// members clean up in reverse order when the window goes away.
//
// Every wrapper must be destroyed while its GL context is current: App owns the
// Window last, so GL owners die first.
#include <epoxy/gl.h>

#include <utility>

namespace tetlab {

template <class Deleter>
class GlHandle {
 public:
  GlHandle() = default;
  explicit GlHandle(GLuint id) : id_(id) {}
  ~GlHandle() { reset(); }

  GlHandle(const GlHandle&) = delete;
  GlHandle& operator=(const GlHandle&) = delete;
  GlHandle(GlHandle&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  GlHandle& operator=(GlHandle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }

  void reset() {
    if (id_ != 0) Deleter::destroy(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

struct GlBufferDeleter {
  static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct GlVertexArrayDeleter {
  static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct GlShaderDeleter {
  static void destroy(GLuint id) { glDeleteShader(id); }
};
struct GlProgramDeleter {
  static void destroy(GLuint id) { glDeleteProgram(id); }
};
struct GlFramebufferDeleter {
  static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct GlTextureDeleter {
  static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct GlRenderbufferDeleter {
  static void destroy(GLuint id) { glDeleteRenderbuffers(1, &id); }
};

using GlBuffer = GlHandle<GlBufferDeleter>;
using GlVertexArray = GlHandle<GlVertexArrayDeleter>;
using GlShader = GlHandle<GlShaderDeleter>;
using GlProgram = GlHandle<GlProgramDeleter>;
using GlFramebuffer = GlHandle<GlFramebufferDeleter>;
using GlTexture = GlHandle<GlTextureDeleter>;
using GlRenderbuffer = GlHandle<GlRenderbufferDeleter>;

inline GlBuffer makeGlBuffer() {
  GLuint id = 0;
  glGenBuffers(1, &id);
  return GlBuffer(id);
}
inline GlVertexArray makeGlVertexArray() {
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  return GlVertexArray(id);
}
inline GlFramebuffer makeGlFramebuffer() {
  GLuint id = 0;
  glGenFramebuffers(1, &id);
  return GlFramebuffer(id);
}
inline GlTexture makeGlTexture() {
  GLuint id = 0;
  glGenTextures(1, &id);
  return GlTexture(id);
}
inline GlRenderbuffer makeGlRenderbuffer() {
  GLuint id = 0;
  glGenRenderbuffers(1, &id);
  return GlRenderbuffer(id);
}

}  // namespace tetlab
