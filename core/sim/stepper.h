#pragma once
// The shared substep driver of all four CPU solvers (see core/sim/solver.h):
//
//   for substep s of h = dt / substeps:
//     wind       v += h F_wind / m on cloth vertices when settings.wind is on (core/sim/wind.h)
//     predict    xPrev = x; xInertial = x + h v + h^2 g   (w = 0: xInertial = x)
//     solve      solver.solveSubstep(model, settings, h, state, diagnostics)
//     spheres    motion and separation spheres blended at (s + 1) / substeps, when
//                state.spheres is set (core/sim/sphere_constraints.h)
//     velocity   v = v + h g + (x - xInertial) / h  (= (x - xPrev) / h without the
//                float rounding of the predict: shaders/cl/common/step_integrate.clh);
//                v *= exp(-velocityDamping h)
//     check      first non-finite x or v stops the step (see below)
//   damping      Rayleigh material damping, once per frame for every solver
//                (core/sim/rayleigh_damping.h)
//   energy       computeEnergy (core/sim/energy.h)
//
// Because x and v are the only state the driver carries between substeps,
// any solver can take over mid-run (Solver::reset re-initialises only its own
// data). No allocation happens here once the state is sized.
#include "core/model/sim_model.h"
#include "core/sim/diagnostics.h"
#include "core/sim/solver.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"

namespace tetlab {

// One frame of settings.step.dt. On NaN/inf: outDiagnostics.finite = false,
// badVertex/problem name the first bad vertex, the failing substep is rolled
// back (x = xPrev, v = 0) so the state stays drawable, and the remaining
// substeps are skipped. Also fails (finite = false) if the state was not made
// for this model (sizes differ).
void stepSimulation(const SimModel& model, const SolverSettings& settings, Solver& solver, State& state,
                    StepDiagnostics& outDiagnostics);

// Whether the wind acts this step: it is on and the model has a cloth sheet or a strand.
bool windActs(const SimModel& model, const SolverSettings& settings);
// The wind's elements in the layout shaders/cl/common/wind.clh reads: the cloth
// triangles (a, b, c, 0), then the strand segments (a, b, WIND_SEGMENT, the
// bits of the body's diameter), indexed as SimModel::vertexWindElements.
// The diameter is live: re-pack when the materials change.
std::vector<glm::uvec4> packWindElements(const SimModel& model);

}  // namespace tetlab
