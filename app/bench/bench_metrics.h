#pragma once
// What a bench case's median frame time means in the units issue 12's targets
// use: element-iterations per second, the memory traffic that throughput
// implies against the device's copy bandwidth, and the residual curve of the
// last substep against the time it took. Pure functions of a BenchResult.
#include <vector>

#include "app/bench/bench_runner.h"

namespace tetlab {

// Bytes one tet-iteration must move at least, whatever the solver: its four
// vertex indices (16 B) and rest-shape inverse (a 3x3 float matrix stored as
// three float4 rows, 48 B), its four positions read (4 x 16 B) and written
// back (4 x 16 B). Real kernels move more (materials, lambdas, Hessian
// blocks, neighbour lists, re-reads between colours), so the bandwidth
// computed from it is a lower bound of what the kernels achieve.
inline constexpr double kMinBytesPerTetIteration = 16.0 + 48.0 + 64.0 + 64.0;

// tets x substeps x iterations per second of median frame time (0 if the case failed).
double tetIterationsPerSecond(const BenchResult& r);

// kMinBytesPerTetIteration x tetIterationsPerSecond, bytes per second.
double minimumSolveBandwidth(const BenchResult& r);

struct ConvergencePoint {
  int iteration = 0;         // 1-based, within the last substep
  double ms = 0.0;           // solve time to the end of this iteration (see convergenceCurve)
  double relative = 0.0;     // residual / residual after the first iteration
};

// The last substep's residual history against time. The time of iteration k
// is k x median frame time / (substeps x iterations): the frame's time spread
// evenly over its iterations (the bench times frames, not single iterations),
// so curves of different solvers compare accuracy per millisecond. Empty
// when the case recorded no history or its first residual is 0.
std::vector<ConvergencePoint> convergenceCurve(const BenchResult& r);

}  // namespace tetlab
