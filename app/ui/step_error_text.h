#pragma once
// The under-converged verdict (core/sim/convergence_verdict.h) as one line:
// the numbers panel's first fidelity line and each compare lane's, so both
// read the same.
#include "core/sim/convergence_verdict.h"

namespace tetlab {

// The latest measured frame of `verdict`: amber "under-converged (N frames)"
// when it was off its answer; `indent` leads the line ("" or spaces); with no
// measure yet it says why. Adds the tooltip.
void drawStepErrorLine(const ConvergenceTally& verdict, const char* indent);

}  // namespace tetlab
