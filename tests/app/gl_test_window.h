#pragma once
// The hidden 64x64 window (and so GL 3.3 core context) every GL test draws
// with; the image size is set by each test's offscreen target, not here.
#include <memory>

#include "app/window.h"
#include "core/result.h"

namespace tetlab::test {

inline constexpr const char* kNoDisplayReason =
    "no DISPLAY: GL tests need an X server (scripts/test.sh runs ctest under xvfb-run)";

inline Result<std::unique_ptr<Window>> createHiddenTestWindow() {
  WindowOptions options;
  options.width = 64;
  options.height = 64;
  options.visible = false;
  options.vsync = false;
  return Window::create(options);
}

}  // namespace tetlab::test
