#pragma once
// User springs made in the window (issue 15 item 4): while dragging a body,
// H leaves a spring where the drag holds it, a "hook" at the cursor that
// keeps pulling like the drag did but with no force cap, and that breaks at
// the mouse spring's break force. It is an anchor spring like a scene file's
// (core/sim/anchor_springs.h) and is saved with the scene as one.
#include <cstdint>
#include <string>

#include "core/model/sim_model.h"
#include "core/sim/anchor_springs.h"
#include "core/sim/state.h"

namespace tetlab {

// The spec of a hook for the drag `drag` (vertices of one body, weights):
// attached at the grabbed point at rest, sum w_i p_i, over the rest vertices
// within the grabbed vertices' reach of it (so a saved scene picks the same
// patch), anchored at the drag's target with rest length 0, the drag's
// stiffness, and `breakForce` (0: never).
AnchorSpringSpec hookSpecFromDrag(const SimModel& model, const Attachment& drag, float breakForce, std::string name);

// Rebuilds springs.vertexSprings (vertex -> sub-springs, each vertex's list in
// spring order) and the zeroed multipliers; buildAnchorSprings ends with it.
void indexAnchorSprings(AnchorSprings& springs, uint32_t vertexCount);

// Appends `more` (built on the same model) after `into`'s springs: its
// sub-springs after into's, the vertex -> sub-spring lists rebuilt, revision bumped.
void appendAnchorSprings(AnchorSprings& into, const AnchorSprings& more, uint32_t vertexCount);

}  // namespace tetlab
