#pragma once
// The conformance suite's data: an analytic case is a scene builder per
// Young's modulus plus what to measure and the closed form it is held to.
// The runner (conformance_runner.h) steps a case at one budget on one
// backend; the search (conformance_search.h) walks the budget ladder.
//
//   ConformanceCase ──build(E)──► CaseSetup ──runConformanceCell(solver, budget, backend)──► CellResult
//     id, formula, source          scene, state, seconds,        value vs reference, relError,
//                                  reference, measure            ms/frame, substeps run, reason
#include <functional>
#include <string>
#include <vector>

#include "core/sim/presets.h"
#include "core/sim/state.h"

namespace tetlab {

// One run's answer from the final state (and the probe samples, if any).
struct CaseMeasure {
  double value = 0.0;
  std::string problem;  // non-empty: a side condition failed (the cell fails with this reason)
};

using CaseProbe = std::function<double(const SimModel&, const State&)>;
using CaseMeasureFn =
    std::function<CaseMeasure(const SimModel&, const State& final, const std::vector<double>& probes, double sampleDt)>;

// Everything one (case, E) run needs; built once and reused across solvers and budgets.
struct CaseSetup {
  Scene scene;                  // model, settings (gravity, colliders, drag), pinned
  State state;                  // the initial state (pins and initial velocities applied)
  double seconds = 1.0;         // simulated time [s]
  double sampleInterval = 0.0;  // probe at least this often [s] (0: once per 1/60 s frame)
  double reference = 0.0;       // the analytic value
  double errorScale = 1.0;      // relError = |value - reference| / errorScale
  bool undamped = false;        // no drag, no material damping: the energy-rise bound applies
  bool settles = false;         // static: the answer is the settled state, read at the end
  std::string note;             // what the table should say about this E (mesh gap, scaled gravity)
  CaseProbe probe;              // optional, sampled every sampleInterval
  CaseMeasureFn measure;
};

struct ConformanceCase {
  std::string id;        // short, for the CSV and test names: "free_fall", "hanging_bar", ...
  std::string title;     // the table's row label
  std::string quantity;  // what is measured and its closed form, for the docs
  double tolerance = 0.05;
  std::function<CaseSetup(float youngsModulus)> build;
};

// The Young's moduli of the table [Pa].
inline const std::vector<float> kConformanceModuli = {1.0e5f, 1.0e7f, 1.0e9f};

}  // namespace tetlab
