#pragma once
// The common error measure (core/sim/step_error.h) as one line: the numbers
// panel's first fidelity line and each compare lane's, so both read the same.
#include "core/sim/diagnostics.h"

namespace tetlab {

// Amber when the step is off its answer; `indent` leads the line ("" or
// spaces); an unmeasured step says where it is measured. Adds the tooltip.
void drawStepErrorLine(const StepError& e, const char* indent);

}  // namespace tetlab
