#include "core/deform/anim_sequence.h"

#include <cctype>
#include <system_error>

#include "core/mesh/obj_loader.h"

namespace tetlab {

namespace {

// The loader as the deformer uses it: file units (the exported sequence must
// line up with the user's own files) and a weld of exact duplicates only, so
// two vertices that an animation frame happens to bring close stay two.
ObjLoadOptions deformLoadOptions() {
  ObjLoadOptions o;
  o.weldRelativeEpsilon = 0.0f;
  o.normalizeScale = false;
  return o;
}

bool isFile(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

std::string triangleText(glm::uvec3 t) {
  // 1-based like the file's own 'f' lines.
  std::string out = "(";
  out += std::to_string(t.x + 1);
  out += ' ';
  out += std::to_string(t.y + 1);
  out += ' ';
  out += std::to_string(t.z + 1);
  out += ')';
  return out;
}

}  // namespace

Result<std::string> animFramePath(const std::string& pattern, int index) {
  std::string out;
  int fields = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    // %d or %0Nd (N up to 2 digits).
    size_t j = i + 1;
    bool zeroPad = j < pattern.size() && pattern[j] == '0';
    if (zeroPad) ++j;
    int width = 0;
    while (j < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[j])) && width < 100)
      width = width * 10 + (pattern[j++] - '0');
    if (j >= pattern.size() || pattern[j] != 'd' || width > 12)
      return Error{"animation pattern '" + pattern + "': '%' must start a frame-number field like %d or %04d (use %% for a literal %)"};
    std::string number = std::to_string(index);
    if (int(number.size()) < width) number = std::string(size_t(width) - number.size(), zeroPad ? '0' : ' ') + number;
    out += number;
    ++fields;
    i = j;
  }
  if (fields != 1)
    return Error{"animation pattern '" + pattern + "' has " + std::to_string(fields) +
                 " frame-number fields; it needs exactly one, like 'anim/frame_%04d.obj'"};
  return out;
}

Result<AnimSequence> findAnimSequence(const std::string& pattern) {
  Result<std::string> first0 = animFramePath(pattern, 0);
  if (!first0) return first0.error();
  AnimSequence seq;
  seq.pattern = pattern;
  seq.firstIndex = isFile(*first0) ? 0 : 1;
  // A sequence of more than a million frames is a pattern that matches something else.
  constexpr int kMaxFrames = 1000000;
  for (int n = seq.firstIndex; n < seq.firstIndex + kMaxFrames; ++n) {
    const std::string path = *animFramePath(pattern, n);
    if (!isFile(path)) break;
    seq.files.emplace_back(path);
  }
  if (seq.files.empty())
    return Error{"animation '" + pattern + "': no frame found (looked for '" + *first0 + "' and '" +
                 *animFramePath(pattern, 1) + "'); give the frames' path with the frame number as %04d"};
  return seq;
}

Result<SurfaceMesh> loadDeformRestMesh(const std::string& path) {
  Result<LoadedSurface> loaded = loadObj(path, deformLoadOptions());
  if (!loaded) return loaded.error();
  return std::move(loaded->mesh);
}

Result<std::vector<glm::vec3>> loadAnimFrame(const AnimSequence& sequence, size_t i, const SurfaceMesh& rest,
                                             const std::string& restName) {
  if (i >= sequence.files.size())
    return Error{"animation '" + sequence.pattern + "': frame " + std::to_string(i) + " asked for, it has " +
                 std::to_string(sequence.files.size())};
  const std::string file = sequence.files[i].string();
  Result<LoadedSurface> loaded = loadObj(file, deformLoadOptions());
  if (!loaded) return loaded.error();
  const SurfaceMesh& m = loaded->mesh;
  if (m.positions.size() != rest.positions.size())
    return Error{file + ": " + std::to_string(m.positions.size()) + " vertices, but the rest mesh " + restName +
                 " has " + std::to_string(rest.positions.size()) +
                 "; every animation frame must have the rest mesh's vertices, in the same order (export the "
                 "sequence from the same mesh without adding or removing vertices)"};
  if (m.triangles.size() != rest.triangles.size())
    return Error{file + ": " + std::to_string(m.triangles.size()) + " triangles, but the rest mesh " + restName +
                 " has " + std::to_string(rest.triangles.size()) +
                 "; every animation frame must have the rest mesh's faces"};
  for (size_t t = 0; t < m.triangles.size(); ++t)
    if (m.triangles[t] != rest.triangles[t])
      return Error{file + ": triangle " + std::to_string(t + 1) + " is " + triangleText(m.triangles[t]) +
                   ", the rest mesh " + restName + "'s is " + triangleText(rest.triangles[t]) +
                   "; every animation frame must have the rest mesh's faces in the same order"};
  return std::move(loaded.value().mesh.positions);
}

}  // namespace tetlab
