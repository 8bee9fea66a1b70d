#pragma once
// A pin region's animation in scene files (core/sim/pin_animation.h), inside
// the region's object:
//
//   {"min": [...], "max": [...], "keys": [{"time": 0, "translate": [0, 0, 0], "rotate_deg": [0, 0, 0]},
//                                         {"time": 3, "rotate_deg": [360, 0, 0]}],
//    "interpolation": "linear" | "smooth", "pivot": [x, y, z], "release_at": 2.5,
//    "toggle_at": [1.0, 1.5]}   (let go at 1 s, held again where they are at 1.5 s)
//
// Keys are sorted by time when read; two keys at one time are an error, and
// toggle times must rise.
#include "core/scene/json_reader.h"
#include "core/sim/pin_animation.h"

namespace tetlab {

void readPinAnimation(JsonObject& region, PinAnimation& out);
void writePinAnimation(const PinAnimation& animation, JsonOut& region);

}  // namespace tetlab
