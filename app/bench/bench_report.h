#pragma once
// tetlab-bench's outputs: CSV and JSON rows for machines, a Markdown table for
// people, and the convergence curves (residual against time) as CSV for
// scripts/plot-convergence.sh. One row per case, the same columns everywhere.
#include <iosfwd>
#include <string>
#include <vector>

#include "app/bench/bench_runner.h"

namespace tetlab {

struct BenchRunInfo {
  std::string device;             // OpenCL device description, "" without one
  double copyBytesPerSecond = 0;  // measured copy bandwidth of that device, 0 when not measured
  int frames = 0, warmup = 0;
};

void writeCsvHeader(std::ostream& out);
void writeCsvRow(std::ostream& out, const BenchResult& r, const BenchRunInfo& info);

// The whole run as one JSON document: {"device", "copy_gb_per_s", "frames", "warmup", "cases": [...]}.
std::string benchJson(const std::vector<BenchResult>& results, const BenchRunInfo& info);

// A Markdown table: scene, solver, backend, size, budget, median and spread,
// launches, schedule, Mtet-it/s and (OpenCL) the traffic's share of the copy bandwidth.
std::string benchMarkdown(const std::vector<BenchResult>& results, const BenchRunInfo& info);

// scene,solver,backend,iteration,ms,relative_residual: one row per point of convergenceCurve.
void writeConvergenceCsv(std::ostream& out, const std::vector<BenchResult>& results);

// Share of the copy bandwidth the case's minimum traffic reaches (0 when either is unknown).
double copyBandwidthShare(const BenchResult& r, const BenchRunInfo& info);

}  // namespace tetlab
