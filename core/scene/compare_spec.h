#pragma once
// A side-by-side comparison of solvers on one scene (issue 14): two to four
// "lanes", each a solver with its own budget and optionally its own backend,
// stepped in lock-step from the same state with the same material. Plain data,
// kept in scene files ("compare") so a comparison set up in the window is
// saved, shared and rerun headless (`tetlab compare --scene FILE`).
//
// A lane is written "solver:SUBSTEPSxITERATIONS[@backend]", e.g. "vbd:10x4" or
// "xpbd:20x1@opencl"; the same text in the CLI (--lanes, --reference) and in
// scene files. One lane may be the reference: a converged solve the others are
// measured against (position RMS and max distance, energy difference).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/sim/backend.h"
#include "core/sim/step_settings.h"

namespace tetlab {

inline constexpr int kMaxCompareLanes = 4;          // lanes in all, the reference included (a 2x2 grid)
inline constexpr int kMaxLaneSubsteps = 10000;      // the CLI's own caps on a budget
inline constexpr int kMaxLaneIterations = 10000;

struct LaneSpec {
  SolverKind solver = SolverKind::Vbd;
  int substeps = 10;                  // substeps per frame [-]
  int iterations = 4;                 // iterations per substep [-]
  std::optional<Backend> backend;     // unset: the comparison's backend
  bool operator==(const LaneSpec&) const = default;
};

enum class CompareView : uint8_t { Split, Overlay };

struct CompareSpec {
  std::vector<LaneSpec> lanes;        // empty: not comparing; the reference is not among them
  // The reference lane, run after the others. Set with autoReference: chosen
  // from the lanes by autoReferenceLane when the comparison starts.
  std::optional<LaneSpec> reference;
  bool autoReference = false;
  // > 0: equal-cost mode: every lane but the reference picks its iterations
  // each few frames so that its frame takes about this long [ms].
  float equalCostMs = 0.0f;
  CompareView view = CompareView::Split;  // the window's layout
  bool active() const { return !lanes.empty(); }
  int laneCount() const { return int(lanes.size()) + (reference || autoReference ? 1 : 0); }
};

// "vbd:10x4", "xpbd:20x1@opencl". Errors say what is wrong and show the form.
Result<LaneSpec> parseLaneSpec(std::string_view text);
// "xpbd:20x1,vbd:10x4": one or more lanes, comma separated.
Result<std::vector<LaneSpec>> parseLaneList(std::string_view text);
std::string laneSpecText(const LaneSpec& lane);   // the parseable form
std::string laneLabel(const LaneSpec& lane);      // "VBD 10x4" (+ " OpenCL" with a backend)
// Lanes and reference within the limits (counts, budgets); the message names the lane.
Status validateCompareSpec(const CompareSpec& spec);

// The automatic reference: VBD at the budget the conformance cases needed to
// reach their analytic answers at the scene's stiffest material
// (tests/conformance/budgets.csv, VBD at 4 iterations, the largest over the
// cases at that E: 10 substeps up to 1e5 Pa, 50 up to 1e7, 500 above), at
// least twice the largest substep count of the lanes, and 8 iterations (twice
// the cases' 4). The reference reports under-convergence like any VBD lane, so
// a scene that needs more says so.
LaneSpec autoReferenceLane(const std::vector<LaneSpec>& lanes, float maxYoungsModulus);

// Equal-cost mode's update of one lane's iterations from its measured frame
// time: the frame cost is roughly fixed + per-iteration, so the ratio is
// applied with damping (square root) and bounded per update to [1/2, 2].
int equalCostIterations(int iterations, double measuredMs, double targetMs);

}  // namespace tetlab
