#pragma once
// What a step reports for the UI, the benchmark and `tetlab run --stats`.
#include <cstdint>
#include <string>
#include <vector>

namespace tetlab {

struct EnergyReport {
  double kinetic = 0.0;    // sum 1/2 m |v|^2 [J]
  double potential = 0.0;  // gravitational, sum -m g.x [J]
  double elastic = 0.0;    // material energy of the tets/springs [J]
  double total() const { return kinetic + potential + elastic; }
};

// Wall time of each stage of the last step, summed over its substeps [ms].
struct StageTimes {
  double predictMs = 0.0;   // xPrev = x, inertial target
  double contactsMs = 0.0;  // body-body contact detection
  double solveMs = 0.0;     // Solver::solveSubstep
  double velocityMs = 0.0;  // velocity update, damping, NaN/inf check
  double energyMs = 0.0;    // energy report
};

struct StepDiagnostics {
  EnergyReport energy;
  std::vector<float> residualHistory;  // per iteration of the last substep (solver-specific measure, documented in docs/solvers.md)
  float residual = 0.0f;               // last entry of residualHistory
  float maxViolation = 0.0f;           // max |C| over hard constraints (pins, contacts, attachments) [m]
  bool finite = true;                  // false: NaN/inf found, step stopped
  int64_t badVertex = -1;              // first non-finite vertex
  std::string problem;                 // human-readable, set when !finite
  std::string warning;                 // human-readable, set when the step ran outside a solver's safe range
  uint32_t bodyContacts = 0;           // body-body contacts found in the last substep
  uint32_t bodyContactOverflow = 0;    // of those, items dropped from full per-vertex lists (last substep)
  double stepMs = 0.0;
  StageTimes stages;
};

}  // namespace tetlab
