#pragma once
// Pixels out of the renderer: an RGBA image type, PNG writing through
// stb_image_write, and a numbered PNG sequence (frame_00000.png, ...) that
// ffmpeg or any video tool can turn into a video. The read-back itself lives
// in OffscreenTarget; this file has no GL so it is tested on plain data.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"

namespace tetlab {

// Tightly packed RGBA8, rows top to bottom (image order, not GL's bottom-up order).
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;
};

// Reverses the row order in place (GL reads rows bottom-up).
void flipRowsInPlace(Image& image);

// Creates missing parent folders; the error names the path and the reason.
Status writePng(const std::filesystem::path& path, const Image& image);

// Writes dir/frame_00000.png, dir/frame_00001.png, ... creating dir on first use.
class PngSequenceWriter {
 public:
  explicit PngSequenceWriter(std::filesystem::path directory) : directory_(std::move(directory)) {}
  Status write(const Image& image);
  int framesWritten() const { return next_; }
  const std::filesystem::path& directory() const { return directory_; }
  static std::string frameFileName(int index);

 private:
  std::filesystem::path directory_;
  int next_ = 0;
};

}  // namespace tetlab
