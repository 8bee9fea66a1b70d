#pragma once
// The simulated surface out to Blender (or any DCC tool) as Wavefront OBJ,
// one file per frame: out/surface_00000.obj, surface_00001.obj, ... which
// Blender's "Import OBJ" or a Stop-motion-OBJ style add-on plays back as a
// sequence. Each file has `v` and `vn` lines for every vertex and `f v//vn`
// faces, one `o` object per body, written with 9 significant digits so a float
// survives the text round trip exactly.
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "core/result.h"

namespace tetlab {

// One body's surface as drawn this frame (positions and normals per vertex).
struct ExportSurface {
  std::string name;                         // `o` name; "body" when empty
  std::span<const glm::vec3> positions;
  std::span<const glm::vec3> normals;       // same size as positions, or empty (then no vn lines)
  std::span<const glm::uvec3> triangles;    // counter-clockwise from outside
};

// Writes one OBJ with all surfaces (indices offset per object). Errors name the
// path and the reason (cannot open, disk full, a triangle index out of range,
// normals of the wrong size).
Status writeObj(const std::filesystem::path& path, std::span<const ExportSurface> surfaces,
                const std::string& comment = "");

// dir/prefix_00000.obj, dir/prefix_00001.obj, ... creating dir on first use.
class ObjSequenceWriter {
 public:
  explicit ObjSequenceWriter(std::filesystem::path directory, std::string prefix = "surface")
      : directory_(std::move(directory)), prefix_(std::move(prefix)) {}
  // comment goes into the file header (e.g. "t = 0.533 s").
  Status write(std::span<const ExportSurface> surfaces, const std::string& comment = "");
  int framesWritten() const { return next_; }
  const std::filesystem::path& directory() const { return directory_; }
  std::filesystem::path framePath(int index) const;  // directory / "surface_00012.obj"

 private:
  std::filesystem::path directory_;
  std::string prefix_;
  int next_ = 0;
};

}  // namespace tetlab
