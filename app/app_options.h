#pragma once
// Everything the interactive/headless app needs from the command line, already
// validated (paths resolved, overrides range-checked, OpenCL queried), so App
// never parses strings.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/commands/compare_command.h"
#include "app/commands/deform_command.h"
#include "app/opencl_status.h"
#include "core/mesh/tet_target.h"
#include "core/session/sim_session.h"
#include "core/scene/scene_overrides.h"

namespace tetlab {

// The scene `tetlab` opens without --scene or --mesh (relative to assets/).
inline constexpr const char* kDefaultScene = "scenes/bunny_drop.json";

struct AppOptions {
  // What to load: a scene file, else an OBJ dropped on the ground (makeMeshDropScene).
  std::filesystem::path scenePath;  // resolved, exists
  std::filesystem::path meshPath;   // resolved, exists (when scenePath is empty)
  std::string sceneArgument;        // as the user typed it (for messages)
  int targetTets = kDefaultTargetTets;  // --mesh: approximate tet count
  SceneOverrides overrides;         // --solver, --dt, ... replace the file's values
  // --backend. Unset: OpenCL on the chosen device when it works (the sandbox
  // steps on the device; on PoCL the one-group schedules made it the faster
  // path, docs/benchmarks.md), else the CPU reference with a one-line notice.
  std::optional<Backend> backend;
  std::filesystem::path kernelDir;  // --kernels: OpenCL kernels from this folder, rebuilt when edited
  bool startPaused = false;
  std::vector<std::filesystem::path> assetDirs;  // for presets and relative mesh paths

  bool headless = false;            // invisible window, render into an offscreen target only
  int frames = 0;                   // frames to run, 0 = until the window is closed
  std::string screenshotPath;       // PNG of the last frame, empty = none
  std::string framesDir;            // PNG per frame (frame_00000.png, ...), empty = none
  std::string recordPath;           // .mp4 video or a folder of PNGs at a fixed dt per video frame
  int recordFps = 30;
  bool recordHideUi = false;
  std::string exportObjDir;         // OBJ sequence of the simulated surface, one file per frame
  int width = 1280;                 // window or image size [pixels]
  int height = 720;
  int msaaSamples = -1;  // -1 = automatic (see chooseMsaaSamples)
  // `tetlab compare --record/--screenshot/--window`: compare from the start,
  // the flags' lanes over the scene file's "compare" section, and write the
  // lanes' CSV (compareSpecOf, app/commands/compare_command.h).
  std::optional<CompareArgs> compare;
  // `tetlab deform --window`: the deformer's rest mesh, animation and settings (paths resolved).
  std::optional<DeformArgs> deform;
  std::vector<std::string> uiOpen;  // --ui-open: panel sections open at start (kPanelSections names), empty = default
  OpenClStatus opencl;
};

}  // namespace tetlab
