#pragma once
// The switch-latency target of issue 12: "switching solvers or backends live
// costs no frame longer than 100 ms after the first use of each". Drives a
// SimSession (the window's own object) through the switches a user makes in
// the solver panel and times each switch together with the frame after it,
// device work and the position read-back included, as the window sees it.
#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {

inline constexpr double kSwitchLatencyTargetMs = 100.0;

struct SwitchTiming {
  std::string action;   // "backend opencl", "solver xpbd", ...
  bool firstUse = false;
  double ms = 0.0;      // the switch plus one frame, wall clock
  std::string error;    // the switch or the frame failed: why
};

// On the scene file `sceneName` (a name of assets/scenes or a .json path):
// switch to OpenCL, through every solver, back to the CPU and to OpenCL, and
// through every solver again. Fails when the scene does not load.
Result<std::vector<SwitchTiming>> measureSwitchLatency(const std::string& sceneName, const ClContext& ctx);

// Longest re-use (not first-use) switch, ms; 0 when there is none.
double worstReuseMs(const std::vector<SwitchTiming>& timings);

}  // namespace tetlab
