// OBJ writing for the per-frame surface export; see obj_export.h for the format.
// Written with snprintf into one buffer per file and one atomic write: a 100k
// vertex frame is ~8 MB of text, and per-line stream formatting was the slow part.
#include "app/output/obj_export.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "core/atomic_file.h"

namespace tetlab {

namespace {

void appendf(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* format, ...) {
  char line[160];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  if (n > 0) out.append(line, size_t(std::min(n, int(sizeof(line)) - 1)));
}

}  // namespace

Status writeObj(const std::filesystem::path& path, std::span<const ExportSurface> surfaces, const std::string& comment) {
  const std::string where = "cannot write OBJ '" + path.string() + "': ";
  for (size_t s = 0; s < surfaces.size(); ++s) {
    const ExportSurface& surface = surfaces[s];
    if (!surface.normals.empty() && surface.normals.size() != surface.positions.size())
      return Error{where + "surface " + std::to_string(s) + " has " + std::to_string(surface.normals.size()) +
                   " normals for " + std::to_string(surface.positions.size()) + " vertices"};
    for (const glm::uvec3& t : surface.triangles)
      if (t.x >= surface.positions.size() || t.y >= surface.positions.size() || t.z >= surface.positions.size())
        return Error{where + "surface " + std::to_string(s) + " has a triangle index out of range (" +
                     std::to_string(surface.positions.size()) + " vertices)"};
  }
  std::string text = "# tetlab " TETLAB_VERSION " simulated surface\n";
  if (!comment.empty()) text += "# " + comment + "\n";
  size_t base = 1;  // OBJ indices are 1-based and global over the file
  for (const ExportSurface& surface : surfaces) {
    text += "o " + (surface.name.empty() ? std::string("body") : surface.name) + "\n";
    // %.9g: 9 significant digits round-trip every float exactly (IEEE 754 binary32).
    for (const glm::vec3& p : surface.positions) appendf(text, "v %.9g %.9g %.9g\n", p.x, p.y, p.z);
    for (const glm::vec3& n : surface.normals) appendf(text, "vn %.6g %.6g %.6g\n", n.x, n.y, n.z);
    const bool normals = !surface.normals.empty();
    for (const glm::uvec3& t : surface.triangles) {
      const size_t a = base + t.x, b = base + t.y, c = base + t.z;
      if (normals)
        appendf(text, "f %zu//%zu %zu//%zu %zu//%zu\n", a, a, b, b, c, c);
      else
        appendf(text, "f %zu %zu %zu\n", a, b, c);
    }
    base += surface.positions.size();
  }

  // Whole files only: an export interrupted mid-frame (a signal, a full disk)
  // leaves the frames before it complete and no half-written one.
  if (Status s = writeFileAtomically(path, text, AtomicWriteOptions{.durable = false}); !s)
    return Error{where + s.error().message};
  return Ok{};
}

std::filesystem::path ObjSequenceWriter::framePath(int index) const {
  char name[96];
  std::snprintf(name, sizeof(name), "%s_%05d.obj", prefix_.c_str(), index);
  return directory_ / name;
}

Status ObjSequenceWriter::write(std::span<const ExportSurface> surfaces, const std::string& comment) {
  Status s = writeObj(framePath(next_), surfaces, comment);
  if (s) ++next_;
  return s;
}

}  // namespace tetlab
