#include "core/deform/held_vertices.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"

namespace tetlab {

Result<std::vector<uint8_t>> loadHeldVertices(const std::filesystem::path& path, size_t vertexCount) {
  const std::string name = path.string();
  std::ifstream in(path);
  if (!in) return Error{"cannot read the held vertices '" + name + "' (check the path)"};
  std::vector<uint8_t> held(vertexCount, 0);
  std::string line;
  for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      unsigned long long v = 0;
      const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
      if (ec != std::errc{} || end != word.data() + word.size())
        return Error{"'" + name + "' line " + std::to_string(lineNo) + ": '" + word +
                     "' is not a vertex number (write one number per line, 1 = the rest mesh's first vertex)"};
      if (v < 1 || v > vertexCount)
        return Error{"'" + name + "' line " + std::to_string(lineNo) + ": vertex " + word +
                     " is outside the rest mesh's 1.." + std::to_string(vertexCount) +
                     " (was the file painted on another mesh?)"};
      held[v - 1] = 1;
    }
  }
  if (in.bad()) return Error{"reading the held vertices '" + name + "' failed"};
  return held;
}

std::string heldVerticesText(std::span<const uint8_t> held, const std::string& restName) {
  std::string out = "# tetlab deformer: vertices held on the animation, numbered as in " + restName + "\n";
  for (size_t i = 0; i < held.size(); ++i)
    if (held[i]) out += std::to_string(i + 1) + "\n";
  return out;
}

Status saveHeldVertices(const std::filesystem::path& path, std::span<const uint8_t> held, const std::string& restName) {
  if (Status s = writeFileAtomically(path, heldVerticesText(held, restName)); !s)
    return Error{"cannot save the held vertices to '" + path.string() + "': " + s.error().message};
  return Ok{};
}

}  // namespace tetlab
