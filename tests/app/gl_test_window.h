#pragma once
// The hidden 64x64 window (and so GL 3.3 core context) every GL test draws
// with; the image size is set by each test's offscreen target, not here.
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "app/window.h"
#include "core/result.h"

namespace tetlab::test {

inline constexpr const char* kNoDisplayReason =
    "no DISPLAY: GL tests need an X server (scripts/test.sh runs ctest under xvfb-run)";

// Xvfb (without -noreset) resets when its last client disconnects: a window
// or an App asked for just then (the previous test's window closing) cannot
// open the display for a moment. Calls make() again while that is the error.
template <class Make>
auto retryWhileDisplayResets(Make make) {
  auto made = make();
  for (int attempt = 0; attempt < 10 && !made.ok() &&
                        made.error().message.find("cannot open the display") != std::string::npos;
       ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    made = make();
  }
  return made;
}

inline Result<std::unique_ptr<Window>> createHiddenTestWindow() {
  WindowOptions options;
  options.width = 64;
  options.height = 64;
  options.visible = false;
  options.vsync = false;
  return retryWhileDisplayResets([&] { return Window::create(options); });
}

}  // namespace tetlab::test
