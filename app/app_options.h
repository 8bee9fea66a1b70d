#pragma once
// Everything the interactive/headless app needs from the command line, already
// validated (mesh path resolved, OpenCL queried), so App never parses strings.
#include <filesystem>
#include <string>

#include "app/opencl_status.h"

namespace tetlab {

struct AppOptions {
  std::filesystem::path meshPath;  // resolved, exists
  std::string meshArgument;        // as the user typed it (for messages)
  bool headless = false;           // invisible window, render into an offscreen target only
  int frames = 0;                  // frames to run, 0 = until the window is closed
  std::string screenshotPath;      // PNG of the last frame, empty = none
  std::string framesDir;           // PNG per frame (frame_00000.png, ...), empty = none
  int width = 1280;                // window or image size [pixels]
  int height = 720;
  int msaaSamples = -1;  // -1 = automatic (see chooseMsaaSamples)
  OpenClStatus opencl;
};

}  // namespace tetlab
