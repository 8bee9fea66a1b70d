#pragma once
// The "Compare solvers" section (issue 14): set up two to four lanes (solver,
// substeps x iterations, backend), an optional reference lane and equal-cost
// mode, start and stop the comparison, switch split / overlay view, pick the
// probe, and the overlaid plots (one curve per lane in its colour): total and
// kinetic energy, residual per frame, per iteration and against time within the
// last substep, max violation, step time, error against the reference, probe.
// It edits only its own state and returns what the user asked for.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "app/ui/multi_plot.h"
#include "core/scene/compare_spec.h"

namespace tetlab {

class CompareSession;
class SimSession;

struct CompareUiState {
  struct Lane {
    int solver = 2;       // SolverKind
    int substeps = 10;
    int iterations = 4;
    int backend = 0;      // 0: the scene's, 1: CPU, 2: OpenCL
  };
  bool initialised = false;      // lanes filled from the running scene once
  std::vector<Lane> lanes;       // 2..4 (the reference counts toward 4)
  int reference = 0;             // 0: none, 1: automatic, 2: the lane below
  Lane referenceLane{2, 20, 40, 0};
  bool equalCost = false;
  float equalCostMs = 10.0f;
  int parametersLane = 0;        // whose solver parameters the "Solver parameters" section edits
  int probeVertex = 0;
  bool probeIsVertex = false;
  // Plot history: frozen copies while paused by the user, and how many of the last frames to show.
  bool freeze = false;
  int window = 300;
  std::vector<std::vector<PlotCurve>> frozen;
};

struct CompareActions {
  std::optional<CompareSpec> start;  // start comparing with these lanes
  bool stop = false;
  std::optional<CompareView> view;
  std::optional<float> equalCostMs;  // 0 = off
  std::optional<std::optional<uint32_t>> probe;  // a vertex, or (nullopt) the centre of mass
  std::optional<std::pair<size_t, LaneSpec>> setLane;  // a lane's new solver budget
};

struct ComparePanelInput {
  const SimSession* primary = nullptr;    // the running scene (lane 0 when comparing)
  const CompareSession* compare = nullptr;  // null: not comparing
  CompareView view = CompareView::Split;
  bool openClAvailable = false;
  std::optional<uint32_t> lastPickedVertex;  // the vertex last grabbed or pinned
};

CompareActions drawComparePanel(const ComparePanelInput& input, CompareUiState& state);

// The spec the editor describes (lanes, reference, equal cost, view).
CompareSpec compareSpecFromUi(const CompareUiState& state, CompareView view);

}  // namespace tetlab
