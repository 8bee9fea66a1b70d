#pragma once
// The "Numbers and plots" section: frame rate, step time with its per-stage
// breakdown (CPU stepper stages or OpenCL kernel times), model counts, and
// live plots (total energy, kinetic and elastic energy, max constraint
// violation, the last step's residual per iteration) so two solvers can be
// compared by eye while toggling.
#include "app/ui/frame_timer.h"
#include "core/session/sim_session.h"

namespace tetlab {

void drawNumbersPanel(const SimSession& session, const FrameTimer& timer);

}  // namespace tetlab
