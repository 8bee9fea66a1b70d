#pragma once
// The "Keyed pins" section (issue 15 item 3): each keyed pin region of the
// scene with its keys (time, translation, rotation), interpolation and release
// time, edited in place (core/sim/pin_animation.h), and a key added at the
// current time from the pose there. Edits apply from the next frame and are saved
// with the scene.
#include "core/session/sim_session.h"

namespace tetlab {

void drawKeyedPins(SimSession& session);

}  // namespace tetlab
