#pragma once
// The under-converged verdict (issue 41 item 1; docs/solvers.md "One error
// measure"): one rule for every solver, backend and frame driver. A frame is
// under-converged exactly when its common step error (core/sim/step_error.h)
// is off the step's answer, StepError::offItsAnswer: above
// StepError::kFloorUlps times its float32 floor and above StepError::kBand of
// the step's own force displacement. The solvers' own diagnostics (the VBD/AVBD residual,
// XPBD's force share, PBD's softness; core/sim/convergence.h) stay as
// secondary lines and do not set it.
#include <cmath>
#include <cstdint>
#include <string>

#include "core/sim/diagnostics.h"

namespace tetlab {

inline bool underConverged(const StepError& e) { return e.offItsAnswer(); }

// A device keeps the state, so its frames are measured from a read-back:
// every this many frames (the window's SimSession::kDiagnosticsEvery and
// `tetlab run` without --stats; with --stats every frame).
inline constexpr int kDeviceVerdictEvery = 10;

// The verdicts of a run so far. A frame whose measure was not taken
// (StepError::unmeasured names why) counts as unmeasured, and a float-limited
// one as such, never as converged.
struct ConvergenceTally {
  uint64_t measured = 0;        // frames with a measure
  uint64_t underConverged = 0;  // of those, off their answer
  uint64_t atFloor = 0;         // of those, within rounding of the answer
  uint64_t floatLimited = 0;    // of those, not off but unresolvable (StepError::floatLimited)
  float worstFloorShare = 0.0f; // largest kFloorUlps floor / scale over the float-limited frames
  uint64_t unmeasured = 0;      // frames seen without a measure
  const char* unmeasuredWhy = nullptr;  // the latest reason
  double relativeSum = 0.0;     // sum of error / scale over measured frames not at the floor
  uint64_t relativeFrames = 0;
  double allRelativeSum = 0.0;  // the same over every measured frame (at the floor, an upper bound)
  float worstRelative = 0.0f;   // largest error / scale over the same frames
  StepError last;               // the latest measured frame

  // One frame's measure; `fresh`: it was taken on this frame (a device
  // measures only the frames it reads back; the others are not counted).
  void add(const StepError& e, bool fresh = true);
  double meanRelative() const { return relativeFrames > 0 ? relativeSum / double(relativeFrames) : 0.0; }
  // Over every measured frame; NaN with none (compare mode's accuracy axis).
  double meanRelativeAll() const { return measured > 0 ? allRelativeSum / double(measured) : NAN; }
  // Most measured frames float-limited: the error may lie anywhere below the floor.
  bool mostlyFloatLimited() const { return measured > 0 && 2 * floatLimited > measured; }
};

// "N of M measured frames under-converged (...)" for `tetlab run` and
// `tetlab compare`; `advice` follows a non-zero count.
std::string convergenceSummary(const ConvergenceTally& t, const std::string& advice);

}  // namespace tetlab
