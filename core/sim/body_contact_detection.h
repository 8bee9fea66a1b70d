#pragma once
// Finds the body contacts of one substep (core/sim/body_contacts.h). Run by the
// stepper right after the predict, so it sees x^t (state.xPrev) and the
// inertial prediction y (state.xInertial). The rule, which the OpenCL
// detection (gpu/) reproduces exactly so both backends find the same set:
//
//   for each surface vertex p (slot s), over the surface triangles t = (a, b, c)
//   of another body (or of its own body with selfCollision, when t does not
//   contain p and every corner's rest distance from p exceeds 2 searchRadius):
//     w    = closest-point weights of y_p on triangle (y_a, y_b, y_c)
//     dist = |y_p - (w0 y_a + w1 y_b + w2 y_c)|
//     n    = normalize(cross(y_b - y_a, y_c - y_a))   (skip |cross| == 0)
//   candidates: dist < searchRadius; the contact is the best candidate by
//   clm::body_contact_better (shaders/cl/common/body_contact.clh: nearest,
//   near-ties by normal alignment, then triangle index), stored with n, w,
//   thickness and friction.
//
// Measuring at y (not x^t) catches bodies approaching within the substep; a
// resting contact is found because y is pulled h^2 g into the support.
// The broad phase is a uniform grid over triangle bounds (conservative: it only
// prunes triangles whose bound, grown by searchRadius, misses y_p).
#include <cstdint>
#include <vector>

#include "core/model/sim_model.h"
#include "core/sim/body_contact_params.h"
#include "core/sim/state.h"

namespace tetlab {

// Fills state.bodyContacts (sized for the model on first use); the broad-phase
// scratch is state.bodyContactGrid.
void detectBodyContacts(const SimModel& model, const BodyContactParams& params, State& state);

}  // namespace tetlab
