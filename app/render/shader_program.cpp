// Shader compile/link with the info log surfaced as the error message.
#include "app/render/shader_program.h"

#include <string>
#include <vector>

#include <glm/gtc/type_ptr.hpp>

#include "shaders/embedded_shaders.h"

namespace tetlab {

namespace {

std::string shaderInfoLog(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1), '\0');
  glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
  return std::string(log.data());
}

std::string programInfoLog(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1), '\0');
  glGetProgramInfoLog(program, static_cast<GLsizei>(log.size()), nullptr, log.data());
  return std::string(log.data());
}

Result<GlShader> compileShader(GLenum stage, std::string_view name, std::string_view source) {
  GlShader shader(glCreateShader(stage));
  if (!shader)
    return Error{"cannot create a GL shader object for '" + std::string(name) + "' (no current GL context?)"};
  const char* text = source.data();
  const GLint length = static_cast<GLint>(source.size());
  glShaderSource(shader.id(), 1, &text, &length);
  glCompileShader(shader.id());
  GLint ok = GL_FALSE;
  glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE)
    return Error{"shader '" + std::string(name) + "' failed to compile:\n" + shaderInfoLog(shader.id()) +
                 "fix the GLSL in shaders/" + std::string(name)};
  return shader;
}

}  // namespace

void ShaderProgram::set(const char* name, float value) const {
  glUniform1f(glGetUniformLocation(program_.id(), name), value);
}
void ShaderProgram::set(const char* name, int value) const {
  glUniform1i(glGetUniformLocation(program_.id(), name), value);
}
void ShaderProgram::set(const char* name, const glm::vec2& value) const {
  glUniform2fv(glGetUniformLocation(program_.id(), name), 1, glm::value_ptr(value));
}
void ShaderProgram::set(const char* name, const glm::vec3& value) const {
  glUniform3fv(glGetUniformLocation(program_.id(), name), 1, glm::value_ptr(value));
}
void ShaderProgram::set(const char* name, const glm::vec4& value) const {
  glUniform4fv(glGetUniformLocation(program_.id(), name), 1, glm::value_ptr(value));
}
void ShaderProgram::set(const char* name, const glm::mat4& value) const {
  glUniformMatrix4fv(glGetUniformLocation(program_.id(), name), 1, GL_FALSE, glm::value_ptr(value));
}

Result<ShaderProgram> buildShaderProgram(std::string_view vertexName, std::string_view vertexSource,
                                         std::string_view fragmentName, std::string_view fragmentSource) {
  Result<GlShader> vertex = compileShader(GL_VERTEX_SHADER, vertexName, vertexSource);
  if (!vertex) return vertex.error();
  Result<GlShader> fragment = compileShader(GL_FRAGMENT_SHADER, fragmentName, fragmentSource);
  if (!fragment) return fragment.error();

  GlProgram program(glCreateProgram());
  if (!program) return Error{"cannot create a GL program object (no current GL context?)"};
  glAttachShader(program.id(), vertex->id());
  glAttachShader(program.id(), fragment->id());
  glLinkProgram(program.id());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE)
    return Error{"shader program '" + std::string(vertexName) + "' + '" + std::string(fragmentName) +
                 "' failed to link:\n" + programInfoLog(program.id()) +
                 "check that the stages agree on their in/out variables"};
  // Shaders are reference-counted by the program once attached and linked.
  glDetachShader(program.id(), vertex->id());
  glDetachShader(program.id(), fragment->id());
  return ShaderProgram(std::move(program));
}

Result<ShaderProgram> loadShaderProgram(std::string_view vertexFile, std::string_view fragmentFile) {
  std::optional<std::string_view> vertex = findEmbeddedShader(vertexFile);
  std::optional<std::string_view> fragment = findEmbeddedShader(fragmentFile);
  for (auto [name, text] : {std::pair{vertexFile, vertex}, std::pair{fragmentFile, fragment}})
    if (!text)
      return Error{"shader '" + std::string(name) +
                   "' is not embedded in this binary: add it under shaders/ and re-run cmake"};
  return buildShaderProgram(vertexFile, *vertex, fragmentFile, *fragment);
}

}  // namespace tetlab
