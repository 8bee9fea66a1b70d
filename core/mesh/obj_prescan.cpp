// Line-by-line OBJ validation (see obj_prescan.h for why it exists).
// One pass over the bytes; forward references in faces (allowed by many
// writers) are remembered and checked once the total vertex count is known.
#include "core/mesh/obj_prescan.h"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <sstream>

namespace tetlab {
namespace {

// tinyobjloader stores a face's corner count in an unsigned char.
constexpr size_t kMaxCornersPerFace = 255;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Splits a line into whitespace-separated tokens (a comment ends the line).
std::vector<std::string_view> tokenize(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i])) ++i;
    if (i >= line.size() || line[i] == '#') break;
    size_t j = i;
    while (j < line.size() && !isSpace(line[j])) ++j;
    tokens.push_back(line.substr(i, j - i));
    i = j;
  }
  return tokens;
}

bool parseDouble(std::string_view s, double& out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

bool parseInt(std::string_view s, long long& out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

std::string where(const std::string& path, size_t line) {
  return path + ":" + std::to_string(line) + ": ";
}

struct ForwardReference {
  size_t line;
  long long index;
};

// Counts of attribute statements seen so far, for relative (negative) indices.
struct Counts {
  long long v = 0, vt = 0, vn = 0;
};

// Validates one "v", "v/t", "v//n" or "v/t/n" corner of an 'f' statement.
Status checkCorner(const std::string& path, size_t line, std::string_view token, const Counts& counts,
                   std::vector<ForwardReference>& forward) {
  std::string_view parts[3];
  int partCount = 0;
  size_t start = 0;
  for (size_t i = 0; i <= token.size(); ++i) {
    if (i == token.size() || token[i] == '/') {
      if (partCount == 3) {
        return Error{where(path, line) + "face corner '" + std::string(token) +
                     "' has more than three '/'-separated parts"};
      }
      parts[partCount++] = token.substr(start, i - start);
      start = i + 1;
    }
  }
  const long long limits[3] = {counts.v, counts.vt, counts.vn};
  const char* names[3] = {"vertex", "texture coordinate", "normal"};
  for (int k = 0; k < partCount; ++k) {
    if (k > 0 && parts[k].empty()) continue;  // "v//n": no texture coordinate
    long long index = 0;
    if (!parseInt(parts[k], index)) {
      return Error{where(path, line) + "face corner '" + std::string(token) + "' has a " + names[k] +
                   " index that is not an integer"};
    }
    if (index == 0) {
      return Error{where(path, line) + "face corner '" + std::string(token) + "' uses " + names[k] +
                   " index 0; OBJ indices start at 1 (or are negative for relative references)"};
    }
    if (index > INT32_MAX || index < -INT32_MAX) {
      return Error{where(path, line) + "face corner '" + std::string(token) + "' has an index too large to be real"};
    }
    if (index < 0 && -index > limits[k]) {
      return Error{where(path, line) + "face corner '" + std::string(token) + "' uses relative " + names[k] +
                   " index " + std::to_string(index) + " but only " + std::to_string(limits[k]) +
                   " were defined before this line"};
    }
    if (k == 0 && index > counts.v) forward.push_back({line, index});
  }
  return Ok{};
}

}  // namespace

Result<ObjPrescan> prescanObjText(const std::string& path, std::string_view text) {
  ObjPrescan scan;
  if (text.empty()) return Error{path + ": the file is empty; export the mesh again as a Wavefront OBJ"};

  Counts counts;
  std::vector<ForwardReference> forward;
  size_t lineNumber = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    ++lineNumber;
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;

    for (unsigned char c : line) {
      const bool control = c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v';
      if (control || c == 0x7f) {
        std::ostringstream msg;
        msg << where(path, lineNumber) << "binary data (byte 0x" << std::hex << int(c)
            << ") in what should be a text OBJ file; is this really a Wavefront .obj?";
        return Error{msg.str()};
      }
    }

    const std::vector<std::string_view> tokens = tokenize(line);
    if (tokens.empty()) continue;
    const std::string_view keyword = tokens[0];
    if (keyword == "v") {
      if (tokens.size() < 4) {
        return Error{where(path, lineNumber) + "vertex needs three coordinates (x y z), found " +
                     std::to_string(tokens.size() - 1)};
      }
      for (size_t k = 1; k < tokens.size() && k <= 7; ++k) {  // x y z [w] or x y z r g b
        double value = 0.0;
        if (!parseDouble(tokens[k], value)) {
          return Error{where(path, lineNumber) + "vertex coordinate '" + std::string(tokens[k]) +
                       "' is not a number"};
        }
        if (k <= 3 && (!std::isfinite(value) || std::fabs(value) > double(FLT_MAX))) {
          return Error{where(path, lineNumber) + "vertex coordinate '" + std::string(tokens[k]) +
                       "' is not finite in single precision (NaN, inf or beyond 3.4e38); fix or remove this vertex"};
        }
      }
      ++counts.v;
      ++scan.vertexCount;
    } else if (keyword == "vt") {
      ++counts.vt;
    } else if (keyword == "vn") {
      ++counts.vn;
    } else if (keyword == "f") {
      if (tokens.size() - 1 > kMaxCornersPerFace) {
        return Error{where(path, lineNumber) + "face has " + std::to_string(tokens.size() - 1) + " corners; at most " +
                     std::to_string(kMaxCornersPerFace) + " are supported, triangulate it in your modeller"};
      }
      for (size_t k = 1; k < tokens.size(); ++k) {
        Status st = checkCorner(path, lineNumber, tokens[k], counts, forward);
        if (!st) return st.error();
      }
      ++scan.faceCount;
      if (tokens.size() < 4) ++scan.shortFaceCount;
    } else if (keyword == "mtllib") {
      for (size_t k = 1; k < tokens.size(); ++k) scan.materialLibraries.emplace_back(tokens[k]);
    } else if (keyword == "l") {
      if (tokens.size() < 3) {
        return Error{where(path, lineNumber) + "a polyline ('l') needs at least two points, found " +
                     std::to_string(tokens.size() - 1)};
      }
      for (size_t k = 1; k < tokens.size(); ++k) {
        Status st = checkCorner(path, lineNumber, tokens[k], counts, forward);
        if (!st) return st.error();
      }
      ++scan.lineCount;
    } else if (keyword == "vp" || keyword == "p" || keyword == "o" || keyword == "g" ||
               keyword == "s" || keyword == "usemtl" || keyword == "vw" || keyword == "t" || keyword == "mg") {
      // Known statements that carry no surface geometry for us.
    } else {
      ++scan.unknownStatements;
    }
  }

  for (const ForwardReference& ref : forward) {
    if (ref.index > counts.v) {
      return Error{where(path, ref.line) + "face uses vertex " + std::to_string(ref.index) + " but the file has only " +
                   std::to_string(counts.v) + " vertices"};
    }
  }
  if (scan.faceCount == 0 && scan.lineCount == 0) {
    return Error{path + ": no faces ('f' lines) or polylines ('l' lines) found in " + std::to_string(lineNumber) +
                 " lines; a surface mesh with triangles or polygons, or polylines for strands, is needed (point "
                 "clouds are not)"};
  }
  return scan;
}

}  // namespace tetlab
