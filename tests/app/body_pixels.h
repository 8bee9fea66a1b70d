#pragma once
// Share of body pixels in the 3D view right of the panel of a screenshot: the
// default clay and the body colours are warm (red well above blue), the
// environment neutral to cool (checked in headless_app_test). -1 when the PNG
// cannot be read.
#include <filesystem>

#include <stb_image.h>

#include "app/ui/ui_panel.h"

namespace tetlab::test {

inline double bodyPixelShare(const std::filesystem::path& png) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(png.c_str(), &w, &h, &channels, 4);
  if (!data) return -1.0;
  const int x0 = int(kPanelPosition.x * 2 + kPanelWidth);
  size_t body = 0, total = 0;
  for (int y = 0; y < h; ++y)
    for (int x = x0; x < w; ++x, ++total) {
      const unsigned char* p = data + 4 * (size_t(y) * size_t(w) + size_t(x));
      if (int(p[0]) - int(p[2]) > 40) ++body;
    }
  stbi_image_free(data);
  return total > 0 ? double(body) / double(total) : 0.0;
}

}  // namespace tetlab::test
