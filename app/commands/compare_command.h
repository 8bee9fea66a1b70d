#pragma once
// `tetlab compare`: solvers side by side on one scene, headless (issue 14).
//
//   tetlab compare (--scene NAME|FILE.json | --preset NAME | --mesh FILE.obj)
//                  --lanes xpbd:20x1,vbd:10x4,avbd:10x4 [--reference vbd:10x60|auto]
//                  [--equal-cost 5ms] [--backend cpu|opencl] --frames N [--csv out.csv]
//                  [--dt S --youngs E ...: the scene overrides of `tetlab run`]
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
};

// The lanes, reference and equal cost of the command line over the scene
// file's (`fromScene`). Errors name the flag.
Result<CompareSpec> compareSpecOf(const CompareArgs& args, const CompareSpec& fromScene);
// "5ms", "5", "2.5 ms" -> milliseconds; errors say the form.
Result<float> parseMilliseconds(const std::string& text);

// Exit codes: 0 ok; 1 bad arguments or setup failure; 2 a lane blew up (the
// CSV holds every frame up to the end, that lane's rows stop moving).
int runCompareCommand(const CompareArgs& args);

}  // namespace tetlab
