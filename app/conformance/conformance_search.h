#pragma once
// The budget search behind the conformance table: for each (case, E, solver)
// walk a fixed ladder of (substeps x iterations) per 1/60 s frame, cheapest
// first, and keep the first rung whose error is within the case's tolerance.
// A rung whose projected wall time exceeds the cap ends the search: the cell
// then "does not reach within" the largest rung tried, with the error at its
// best rung and the reason (blow-up, XPBD's shear limit, VBD/AVBD residual,
// a failed side condition, or the plain error).
#include <string>
#include <vector>

#include "app/conformance/conformance_runner.h"

namespace tetlab {

// Ordered by the cost estimate substeps x (iterations + 1) (a substep's
// predict, velocity and collision work is about one iteration's).
const std::vector<ConformanceBudget>& conformanceLadder();

struct SearchOptions {
  ConformanceBackend backend = ConformanceBackend::Cpu;
  const ClContext* ctx = nullptr;
  double rungCapSeconds = 20.0;  // skip rungs projected to take longer than this [s of wall time]
};

struct CellSearch {
  std::string caseId;
  float youngsModulus = 0.0f;
  SolverKind solver = SolverKind::Xpbd;
  bool reached = false;
  ConformanceBudget budget;        // reached: the passing rung; else the best (smallest error) rung
  ConformanceBudget largestTried;  // the costliest rung run
  CellResult result;               // at `budget`
  // Reached: the costliest finite rung run before it that missed the tolerance
  // (the flag must fire there); none when the first rung run reached.
  bool haveBelow = false;
  ConformanceBudget below;
  CellResult belowResult;
  std::string reason;              // not reached: why
  int rungsRun = 0;
  double wallSeconds = 0.0;        // the whole search
};

CellSearch searchCell(const ConformanceCase& c, const CaseSetup& setup, float youngsModulus, SolverKind solver,
                      const SearchOptions& options);

// "20x4", and "20x4 (XPBD ran 143x4)" when the substeps run differ from those asked.
std::string budgetLabel(ConformanceBudget budget, int substepsRun = 0);

}  // namespace tetlab
