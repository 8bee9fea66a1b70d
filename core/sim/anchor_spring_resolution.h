#pragma once
// How finely float positions resolve an anchor spring's force
// (core/sim/anchor_springs.h; implemented in anchor_springs.cpp).
#include <string>

#include "core/sim/anchor_springs.h"

namespace tetlab {

// The smallest force change spring s can show [N]: its stiffness times one ulp
// of the largest coordinate at its ends (float positions cannot stretch it by
// less). A limit within 10x of it breaks on rounding, not on the load
// (springResolutionWarning: "" when every breakable spring is clear of it).
float springForceResolution(const AnchorSpring& spring);
std::string springResolutionWarning(const AnchorSprings& springs);

}  // namespace tetlab
