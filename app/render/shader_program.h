#pragma once
// A linked GLSL program built from the shaders embedded at build time
// (shaders/gl/*). Compile and link failures come back as an Error carrying the
// driver's info log and the file name, so a typo in a shader shows up as a
// readable message in the terminal or the UI instead of a black window.
#include <string_view>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "app/render/gl_resources.h"
#include "core/result.h"

namespace tetlab {

class ShaderProgram {
 public:
  ShaderProgram() = default;
  explicit ShaderProgram(GlProgram program) : program_(std::move(program)) {}

  void use() const { glUseProgram(program_.id()); }
  GLuint id() const { return program_.id(); }

  // Setters on the currently used program; unknown names (optimised away) are ignored by GL.
  void set(const char* name, float value) const;
  void set(const char* name, int value) const;
  void set(const char* name, const glm::vec2& value) const;
  void set(const char* name, const glm::vec3& value) const;
  void set(const char* name, const glm::vec4& value) const;
  void set(const char* name, const glm::mat4& value) const;

 private:
  GlProgram program_;
};

// Builds from source text; the names only label error messages.
Result<ShaderProgram> buildShaderProgram(std::string_view vertexName, std::string_view vertexSource,
                                         std::string_view fragmentName, std::string_view fragmentSource);

// Builds from embedded files, e.g. loadShaderProgram("gl/mesh.vert", "gl/mesh.frag").
Result<ShaderProgram> loadShaderProgram(std::string_view vertexFile, std::string_view fragmentFile);

}  // namespace tetlab
