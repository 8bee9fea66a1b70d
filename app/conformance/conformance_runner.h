#pragma once
// One cell of the conformance table: a case at one E, one solver, one budget
// (substeps x iterations per 1/60 s frame), on the CPU reference or OpenCL.
//
//   setup.state ─► frames of 1/60 s (or sub-frames when the case probes
//   faster, e.g. the bending mode: same substeps, split into shorter frames)
//   ─► probe per (sub-)frame ─► measure on the final state
//   ─► relError = |value - reference| / errorScale, ok = relError <= tolerance
//
// XPBD runs the substeps planXpbdSubsteps raises it to (the shear limit of its
// Neo-Hookean constraints), as `tetlab run` and tetlab-bench do; the result
// records the substeps actually run.
#include <cstdint>
#include <string>

#include "app/conformance/conformance_case.h"
#include "core/sim/step_settings.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {

enum class ConformanceBackend { Cpu, OpenCl };

struct ConformanceBudget {
  int substeps = 10;    // per 1/60 s frame
  int iterations = 1;   // per substep
};

struct CellResult {
  double value = 0.0, reference = 0.0, relError = 0.0;
  bool ok = false;
  bool finite = true;
  bool stopped = false;          // ran past maxWallSeconds and was cut short
  double msPerFrame = 0.0;       // wall time per 1/60 s of simulated time
  int substepsRun = 0;           // per 1/60 s frame (XPBD: after its automatic raise)
  int iterations = 0;
  int xpbdNeeded = 0;            // substeps per frame XPBD's shear limit asks for (0: none)
  float convergenceRatio = 0.0f; // VBD/AVBD residual / tolerance at the end (0: not measured)
  // The common step error's verdicts (core/sim/convergence_verdict.h) over the frames the
  // answer comes from: every frame, or the last quarter of a case that settles (its
  // transient is not what it measures). CPU only: a device measures only the frames it reads back.
  uint64_t verdictFrames = 0;    // frames with a measure
  uint64_t flaggedFrames = 0;    // of those, flagged under-converged
  bool energyMeasured = false;   // undamped case on the CPU
  double energyRise = 0.0;       // max over the run of (total - start) / sceneEnergyScale
  std::string reason;            // why not ok; empty when ok
};

// `ctx` is needed for OpenCL. maxWallSeconds > 0 stops a run that takes longer
// (result.stopped, not ok).
CellResult runConformanceCell(const ConformanceCase& c, const CaseSetup& setup, SolverKind solver,
                              ConformanceBudget budget, ConformanceBackend backend, const ClContext* ctx,
                              double maxWallSeconds = 0.0);

// Convenience: builds the setup for E first.
CellResult runConformanceCell(const ConformanceCase& c, float youngsModulus, SolverKind solver,
                              ConformanceBudget budget, ConformanceBackend backend, const ClContext* ctx);

// Substeps per 1/60 s frame the cell will run (XPBD: after its automatic raise).
int plannedSubsteps(const CaseSetup& setup, SolverKind solver, ConformanceBudget budget);

const char* backendLabel(ConformanceBackend backend);

}  // namespace tetlab
