#include "core/sim/convergence_verdict.h"

#include <algorithm>
#include <cstdio>

namespace tetlab {

void ConvergenceTally::add(const StepError& e, bool fresh) {
  if (!fresh) return;
  if (!e.measured) {
    ++unmeasured;
    if (e.unmeasured) unmeasuredWhy = e.unmeasured;
    return;
  }
  ++measured;
  last = e;
  allRelativeSum += double(e.relative());
  if (tetlab::underConverged(e)) ++this->underConverged;
  if (e.floatLimited()) {
    ++floatLimited;
    worstFloorShare = std::max(worstFloorShare, StepError::kFloorUlps * e.floor / e.scale);
  }
  if (e.atFloatPrecision()) {
    ++atFloor;
    return;
  }
  // A frame at its floor has no meaningful ratio (rounding over a step that may barely move).
  relativeSum += double(e.relative());
  ++relativeFrames;
  worstRelative = std::max(worstRelative, e.relative());
}

std::string convergenceSummary(const ConvergenceTally& t, const std::string& advice) {
  char line[640];
  if (t.measured == 0) {
    std::snprintf(line, sizeof(line), "convergence not measured on any of %llu frames: %s",
                  static_cast<unsigned long long>(t.unmeasured),
                  t.unmeasuredWhy ? t.unmeasuredWhy : "no frame was read back");
    return line;
  }
  int n = std::snprintf(line, sizeof(line),
                        "%llu of %llu measured frames under-converged (step error > %.0fx its float floor and > "
                        "%.0f %% of the step's force displacement",
                        static_cast<unsigned long long>(t.underConverged), static_cast<unsigned long long>(t.measured),
                        double(StepError::kFloorUlps), 100.0 * double(StepError::kBand));
  if (t.relativeFrames > 0)
    n += std::snprintf(line + n, sizeof(line) - size_t(n), "; mean %.2g %%, worst %.3g %%", 100.0 * t.meanRelative(),
                       100.0 * double(t.worstRelative));
  if (t.atFloor > 0)
    n += std::snprintf(line + n, sizeof(line) - size_t(n), "; %llu at float precision",
                       static_cast<unsigned long long>(t.atFloor));
  n += std::snprintf(line + n, sizeof(line) - size_t(n), ")");
  if (t.floatLimited > 0)
    n += std::snprintf(line + n, sizeof(line) - size_t(n),
                       "; %llu float-limited (rounding allows up to %.3g %% of the step's force there, above the "
                       "band: fewer substeps resolve it)",
                       static_cast<unsigned long long>(t.floatLimited), 100.0 * double(t.worstFloorShare));
  if (t.unmeasured > 0)
    n += std::snprintf(line + n, sizeof(line) - size_t(n), "; %llu frames not measured: %s",
                       static_cast<unsigned long long>(t.unmeasured), t.unmeasuredWhy ? t.unmeasuredWhy : "unknown");
  std::string s(line);
  if (t.underConverged > 0) s += advice;
  return s;
}

}  // namespace tetlab
