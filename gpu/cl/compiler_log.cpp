#include "gpu/cl/compiler_log.h"

#include <cctype>
#include <charconv>
#include <vector>

namespace tetlab {

namespace {

struct SourceLine {
  std::string_view file;  // empty before the first #line marker
  long line = 0;
};

// "#line 12 "cl/a.clh"" -> {cl/a.clh, 12}; anything else -> nullopt-like false.
bool parseLineMarker(std::string_view text, std::string_view* file, long* line) {
  size_t i = text.find_first_not_of(" \t");
  if (i == std::string_view::npos || text.substr(i, 5) != "#line") return false;
  i = text.find_first_not_of(" \t", i + 5);
  if (i == std::string_view::npos) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data() + i, end, *line);
  if (ec != std::errc()) return false;
  std::string_view rest(ptr, size_t(end - ptr));
  size_t open = rest.find('"');
  size_t close = open == std::string_view::npos ? open : rest.find('"', open + 1);
  if (close == std::string_view::npos) return false;
  *file = rest.substr(open + 1, close - open - 1);
  return true;
}

// Where each line of the expanded source came from (index 0 = line 1).
std::vector<SourceLine> mapSource(std::string_view source) {
  std::vector<SourceLine> map;
  std::string_view file;
  long next = 1;
  size_t pos = 0;
  while (pos < source.size()) {
    size_t end = source.find('\n', pos);
    if (end == std::string_view::npos) end = source.size();
    std::string_view text = source.substr(pos, end - pos);
    pos = end + 1;
    map.push_back({file, next});
    std::string_view markerFile;
    long markerLine = 0;
    if (parseLineMarker(text, &markerFile, &markerLine)) {
      file = markerFile;
      next = markerLine;
    } else {
      ++next;
    }
  }
  return map;
}

bool namesAKernelFile(std::string_view name, const std::vector<SourceLine>& map) {
  for (const SourceLine& s : map)
    if (!s.file.empty() && s.file == name) return true;
  return false;
}

}  // namespace

std::string attributeCompilerLog(std::string_view log, std::string_view source) {
  const std::vector<SourceLine> map = mapSource(source);
  std::string out;
  out.reserve(log.size());
  size_t pos = 0;
  while (pos < log.size()) {
    size_t end = log.find('\n', pos);
    const bool lastLine = end == std::string_view::npos;
    if (lastLine) end = log.size();
    std::string_view text = log.substr(pos, end - pos);
    pos = end + 1;

    // NAME:LINE: with NAME free of blanks and colons ("<kernel>", "/tmp/x.cl", "1").
    size_t colon = text.find(':');
    bool mapped = false;
    if (colon != std::string_view::npos && colon > 0) {
      std::string_view name = text.substr(0, colon);
      bool plainName = name.find_first_of(" \t") == std::string_view::npos;
      long line = 0;
      const char* numBegin = text.data() + colon + 1;
      auto [ptr, ec] = std::from_chars(numBegin, text.data() + text.size(), line);
      if (plainName && ec == std::errc() && ptr != numBegin && ptr < text.data() + text.size() && *ptr == ':' &&
          line >= 1 && size_t(line) <= map.size() && !namesAKernelFile(name, map)) {
        const SourceLine& from = map[size_t(line - 1)];
        if (!from.file.empty()) {
          out += from.file;
          out += ':';
          out += std::to_string(from.line);
          out.append(ptr, size_t(text.data() + text.size() - ptr));
          mapped = true;
        }
      }
    }
    if (!mapped) out.append(text);
    if (!lastLine) out += '\n';
  }
  return out;
}

}  // namespace tetlab
