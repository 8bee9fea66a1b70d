#include "app/output/screenshot.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include <stb_image_write.h>  // implementation lives in libstb (Debian), not in this binary

namespace tetlab {

void flipRowsInPlace(Image& image) {
  const size_t rowBytes = static_cast<size_t>(image.width) * 4;
  for (int top = 0, bottom = image.height - 1; top < bottom; ++top, --bottom)
    std::swap_ranges(image.rgba.begin() + static_cast<std::ptrdiff_t>(top * rowBytes),
                     image.rgba.begin() + static_cast<std::ptrdiff_t>((top + 1) * rowBytes),
                     image.rgba.begin() + static_cast<std::ptrdiff_t>(bottom * rowBytes));
}

Status writePng(const std::filesystem::path& path, const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 4)
    return Error{"cannot write '" + path.string() + "': the image is empty or its size does not match " +
                 std::to_string(image.width) + "x" + std::to_string(image.height)};
  if (path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec)
      return Error{"cannot create folder '" + path.parent_path().string() + "' for '" + path.string() +
                   "': " + ec.message()};
  }
  // Screenshots are opaque: dropping alpha makes the files a quarter smaller and faster to write.
  std::vector<std::uint8_t> rgb(static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 3);
  for (size_t i = 0, j = 0; i < image.rgba.size(); i += 4, j += 3) {
    rgb[j] = image.rgba[i];
    rgb[j + 1] = image.rgba[i + 1];
    rgb[j + 2] = image.rgba[i + 2];
  }
  errno = 0;
  if (stbi_write_png(path.c_str(), image.width, image.height, 3, rgb.data(), image.width * 3) == 0) {
    const std::string reason = errno != 0 ? std::strerror(errno) : "write failed";
    return Error{"cannot write PNG '" + path.string() + "': " + reason + ": check the folder exists and is writable"};
  }
  return Ok{};
}

std::string PngSequenceWriter::frameFileName(int index) {
  char name[32];
  std::snprintf(name, sizeof(name), "frame_%05d.png", index);
  return name;
}

Status PngSequenceWriter::write(const Image& image) {
  Status s = writePng(directory_ / frameFileName(next_), image);
  if (s) ++next_;
  return s;
}

}  // namespace tetlab
