#pragma once
// Device code compiled into the binary. Names are paths relative to shaders/,
// e.g. "cl/smoke.cl" or "gl/mesh.vert".
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tetlab {

struct EmbeddedFile {
  std::string_view name;
  std::string_view text;
};

std::span<const EmbeddedFile> embeddedShaderFiles();

// Text of an embedded file, or nullopt if no such file was embedded.
std::optional<std::string_view> findEmbeddedShader(std::string_view name);

// Absolute path of shaders/ in the source tree this binary was built from
// (for live editing; may not exist on another machine).
std::string shaderSourceDir();

}  // namespace tetlab
