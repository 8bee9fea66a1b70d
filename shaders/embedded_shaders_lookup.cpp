#include "shaders/embedded_shaders.h"

namespace tetlab {

std::optional<std::string_view> findEmbeddedShader(std::string_view name) {
  for (const EmbeddedFile& f : embeddedShaderFiles())
    if (f.name == name) return f.text;
  return std::nullopt;
}

std::string shaderSourceDir() { return TETLAB_SHADER_SOURCE_DIR; }

}  // namespace tetlab
