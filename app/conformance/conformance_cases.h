#pragma once
// The analytic cases of the conformance table (issue 10), each with its
// closed form and source next to its scene in conformance_cases.cpp.
//
// Scaled gravity. The static cases (hanging bar, cantilever, volume) and the
// mode case load the body with a gravity g_E proportional to E, chosen so the
// closed-form answer is the same small fraction of the body's size at every E
// (peak strain 0.5 %, tip sag 1 % of the length, squeeze 5 %). That keeps each
// case in the linear range where the closed form holds (at E = 1e5 a 1 m
// cantilever under real gravity hangs down, far from beam theory) and above
// float32 resolution (at E = 1e9 a 1 m hanging bar under real gravity
// stretches 4.9 um, 80 ulps of its coordinates: a 1 % rounding quantum). What
// makes a stiff case hard for a solver is unchanged: the dimensionless
// stiffness (c h / L)^2 = E h^2 / (rho L^2), i.e. how far one substep's
// inertia is from the elastic answer, spans four decades across the table as
// it does under real gravity; only the load is rescaled, so the static answer
// stays proportional to (g_E / E).
#include <string_view>
#include <vector>

#include "app/conformance/conformance_case.h"

namespace tetlab {

// Every case, in the table's row order.
const std::vector<ConformanceCase>& conformanceCases();

// nullptr when unknown.
const ConformanceCase* findConformanceCase(std::string_view id);

}  // namespace tetlab
