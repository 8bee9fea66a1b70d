#pragma once
// Our own line-by-line validation of an OBJ file, run before tinyobjloader.
// tinyobjloader is lenient by design: it parses binary garbage as "nothing",
// reads "nan" or a missing coordinate as 0 and resolves face indices without
// range checks. Users need the file name and the line instead, so this pass
// rejects what the parser would silently accept and counts what it will see.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace tetlab {

struct ObjPrescan {
  size_t vertexCount = 0;          // 'v' statements
  size_t faceCount = 0;            // 'f' statements (polygons as written)
  size_t shortFaceCount = 0;       // faces with fewer than 3 corners (tinyobjloader drops them)
  size_t lineCount = 0;            // 'l' statements (polylines: strands)
  size_t unknownStatements = 0;    // keywords we do not know (ignored, reported)
  std::vector<std::string> materialLibraries;  // names after 'mtllib'
};

// `path` is used for messages only. Errors name the file and the 1-based line.
// A file needs faces or polylines; which one a caller accepts is its check.
Result<ObjPrescan> prescanObjText(const std::string& path, std::string_view text);

}  // namespace tetlab
