#pragma once
// One row of the per-frame stats CSV, shared by `tetlab run --stats` and
// `tetlab compare --csv` (whose rows are the same columns behind the lane's
// own), so a plot script reads both. Values the backend does not measure are
// NaN (the residual of PBD/XPBD on OpenCL, the max violation off the CPU
// reference).
#include <cstdint>
#include <ostream>

#include <glm/vec3.hpp>

#include "core/sim/diagnostics.h"

namespace tetlab {

struct SimModel;
struct State;

// Columns of the --stats CSV, in order.
inline constexpr const char* kRunStatsHeader =
    "frame,time,kinetic,potential,elastic,total,residual,max_violation,min_y,com_x,com_y,com_z,step_ms,"
    "under_converged,residual_tolerance,energy_rise,damping_iterations,damping_residual,launches,dynamic_total,"
    "force_share,step_error,step_error_floor,step_error_scale";

struct StatsRow {
  uint64_t frame = 0;
  double time = 0.0;             // [s]
  EnergyReport energy;           // [J]
  float residual = 0.0f;         // NaN: not measured
  float maxViolation = 0.0f;     // [m], NaN: not measured
  float minY = 0.0f;             // lowest vertex [m]
  glm::dvec3 com{0.0};           // centre of mass [m]
  double stepMs = 0.0;
  bool underConverged = false;   // the step error is off its answer (core/sim/convergence_verdict.h)
  float residualTolerance = 0.0f;
  double energyRise = 0.0;       // above the start, in an unforced run [J]; 0 where it does not apply
  int dampingIterations = 0;
  float dampingResidual = 0.0f;
  uint32_t launches = 0;
  double forceShare = 0.0;       // XPBD; NaN elsewhere
  StepError stepError;           // the common measure [m] (core/sim/step_error.h); NaN columns when not measured
};

// minY and com of the state's vertices (lumped masses).
void measureShape(const SimModel& model, const State& state, StatsRow& row);
// The columns of kRunStatsHeader, comma separated, without a line end.
void writeStatsColumns(std::ostream& out, const StatsRow& row);

}  // namespace tetlab
