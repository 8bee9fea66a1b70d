#pragma once
// An animated input: an OBJ sequence of the same topology as a rest mesh
// (frame_0000.obj, frame_0001.obj, ... exported from a DCC tool: a skinned
// character, a keyframed blend shape). Frames are found up front and loaded
// one at a time when asked for (a long sequence never sits in memory), each
// checked against the rest mesh:
//
//   pattern 'anim/frame_%04d.obj' --find--> files [first .. last] (consecutive)
//   frame i --loadObj (no weld beyond exact duplicates, no fit)--> positions
//           --same vertex count and the same triangles as the rest mesh?--> or an error naming the file
//
// The loader's weld and cleanup run on every frame the same way they ran on the
// rest mesh, so a seam duplicated in the file stays matched frame to frame.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

struct AnimSequence {
  std::string pattern;                        // as given, with one %d or %0Nd
  std::vector<std::filesystem::path> files;   // the frames in order
  int firstIndex = 0;                         // the number in the first file's name
  size_t frames() const { return files.size(); }
};

// The path for frame number `index` (printf-style expansion of the one %d /
// %0Nd in the pattern). Errors: no such field, or more than one.
Result<std::string> animFramePath(const std::string& pattern, int index);

// The frames of a pattern: starting at number 0 or, when there is no frame 0,
// at 1, and consecutive until the first missing number. Errors name the
// pattern and the first file looked for when there is none.
Result<AnimSequence> findAnimSequence(const std::string& pattern);

// Loads the rest mesh the way every frame is loaded (file units, exact
// duplicates welded only), so the two compare vertex for vertex.
Result<SurfaceMesh> loadDeformRestMesh(const std::string& path);

// Frame `i` (0-based into files) as positions in the rest mesh's vertex
// order. Errors name the file and what differs from `restName`'s mesh: both
// vertex counts, or the first triangle that is not the rest mesh's.
Result<std::vector<glm::vec3>> loadAnimFrame(const AnimSequence& sequence, size_t i, const SurfaceMesh& rest,
                                             const std::string& restName);

}  // namespace tetlab
