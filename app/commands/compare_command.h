#pragma once
// `tetlab compare`: solvers side by side on one scene, headless (issue 14).
//
//   tetlab compare (--scene NAME|FILE.json | --preset NAME | --mesh FILE.obj)
//                  --lanes xpbd:20x1,vbd:10x4,avbd:10x4 [--reference vbd:10x60|auto]
//                  [--equal-cost 5ms] [--backend cpu|opencl] --frames N [--csv out.csv]
//                  [--dt S --youngs E ...: the scene overrides of `tetlab run`]
//                  [--record out.mp4] [--screenshot out.png] [--window]: the window's side-by-side
//                  view (split cells, overlaid plots), headless or interactive; needs a display
//
// Without --lanes the scene file's "compare" section is used. Every lane
// starts from the scene's initial state and steps the same frames
// (core/session/compare_session.h). Prints one summary line per lane: mean
// step time, frames under-converged, and the error against the reference.
#include <string>

#include "app/commands/run_command.h"
#include "core/result.h"
#include "core/scene/compare_spec.h"

namespace tetlab {

struct CompareArgs {
  RunArgs source;          // the scene (--scene/--preset/--mesh), overrides, --frames, --backend (the lanes' default)
  std::string lanes;       // "xpbd:20x1,vbd:10x4"; empty: the scene file's
  std::string reference;   // "vbd:10x60" | "auto"; empty: the scene file's
  std::string equalCost;   // "5ms" or "5"; empty: the scene file's
  std::string csv;         // one row per frame per lane (compare_csv.h)
  std::string view;        // split | overlay; empty: the scene file's (default split)
  // The window's compare view instead of the plain run (needs a display):
  std::string record;      // a video of it (.mp4, or a folder of PNGs), headless
  std::string screenshot;  // its last frame as a PNG, headless
  bool window = false;     // interactive, until closed
  int width = 1280, height = 720;  // of the window or the images [pixels]
  bool wantsWindow() const { return window || !record.empty() || !screenshot.empty(); }
};

// The lanes, reference and equal cost of the command line over the scene
// file's (`fromScene`). Errors name the flag.
Result<CompareSpec> compareSpecOf(const CompareArgs& args, const CompareSpec& fromScene);
// "5ms", "5", "2.5 ms" -> milliseconds; errors say the form.
Result<float> parseMilliseconds(const std::string& text);

// Exit codes: 0 ok; 1 bad arguments or setup failure; 2 a lane blew up (the
// CSV holds every frame up to the end, that lane's rows stop moving). The
// window's variant (wantsWindow) runs through App (cli_dispatch.cpp).
int runCompareCommand(const CompareArgs& args);

}  // namespace tetlab
