#pragma once
// The "Springs" section (issue 15 item 4): the scene's anchor springs
// (core/sim/anchor_springs.h) with their live load against their limits,
// which have broken and when, and their stiffness and limits editable live.
#include "core/session/sim_session.h"

namespace tetlab {

void drawSprings(SimSession& session);

}  // namespace tetlab
