#include "app/bench/bench_metrics.h"

namespace tetlab {

double tetIterationsPerSecond(const BenchResult& r) {
  if (!r.ok || !(r.medianMs > 0.0)) return 0.0;
  return double(r.tets) * double(r.substeps) * double(r.iterations) / (r.medianMs * 1e-3);
}

double minimumSolveBandwidth(const BenchResult& r) { return kMinBytesPerTetIteration * tetIterationsPerSecond(r); }

std::vector<ConvergencePoint> convergenceCurve(const BenchResult& r) {
  std::vector<ConvergencePoint> curve;
  const int perFrame = r.substeps * r.iterations;
  if (!r.ok || r.residualHistory.empty() || perFrame <= 0 || !(r.residualHistory.front() > 0.0f)) return curve;
  const double msPerIteration = r.medianMs / double(perFrame);
  const double first = r.residualHistory.front();
  for (size_t k = 0; k < r.residualHistory.size(); ++k)
    curve.push_back({int(k) + 1, msPerIteration * double(k + 1), double(r.residualHistory[k]) / first});
  return curve;
}

}  // namespace tetlab
