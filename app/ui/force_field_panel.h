#pragma once
// The "Force fields" section (issue 15 item 5): add, remove and edit
// directional, radial and vortex fields (core/sim/force_fields.h) in the
// session's settings, read at the next substep by either backend.
#include "core/session/sim_session.h"

namespace tetlab {

void drawForceFields(SimSession& session);

}  // namespace tetlab
