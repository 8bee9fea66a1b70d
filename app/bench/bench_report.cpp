#include "app/bench/bench_report.h"

#include <cstdio>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/bench/bench_metrics.h"
#include "core/scene/enum_names.h"

namespace tetlab {

namespace {

std::string csvQuoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

double copyBandwidthShare(const BenchResult& r, const BenchRunInfo& info) {
  if (r.backend != BenchBackend::OpenCl || !(info.copyBytesPerSecond > 0.0)) return 0.0;
  return minimumSolveBandwidth(r) / info.copyBytesPerSecond;
}

void writeCsvHeader(std::ostream& out) {
  out << "scene,vertices,tets,solver,backend,substeps,iterations,ok,median_ms,p10_ms,p90_ms,launches,schedule,"
         "tet_iterations_per_s,min_bandwidth_gb_per_s,copy_bandwidth_share,error\n";
}

void writeCsvRow(std::ostream& out, const BenchResult& r, const BenchRunInfo& info) {
  out << r.scene << ',' << r.vertices << ',' << r.tets << ',' << solverName(r.solver) << ',' << backendName(r.backend)
      << ',' << r.substeps << ',' << r.iterations << ',' << (r.ok ? 1 : 0) << ',' << r.medianMs << ',' << r.p10Ms
      << ',' << r.p90Ms << ',' << r.launches << ',' << r.schedule << ',' << tetIterationsPerSecond(r) << ','
      << minimumSolveBandwidth(r) * 1e-9 << ',' << copyBandwidthShare(r, info) << ',' << csvQuoted(r.error) << '\n';
}

std::string benchJson(const std::vector<BenchResult>& results, const BenchRunInfo& info) {
  nlohmann::json doc;
  doc["device"] = info.device;
  doc["copy_gb_per_s"] = info.copyBytesPerSecond * 1e-9;
  doc["frames"] = info.frames;
  doc["warmup"] = info.warmup;
  doc["min_bytes_per_tet_iteration"] = kMinBytesPerTetIteration;
  nlohmann::json cases = nlohmann::json::array();
  for (const BenchResult& r : results) {
    nlohmann::json c;
    c["scene"] = r.scene;
    c["vertices"] = r.vertices;
    c["tets"] = r.tets;
    c["bodies"] = r.bodies;
    c["solver"] = solverName(r.solver);
    c["backend"] = backendName(r.backend);
    c["substeps"] = r.substeps;
    c["iterations"] = r.iterations;
    c["ok"] = r.ok;
    if (!r.ok) c["error"] = r.error;
    c["median_ms"] = r.medianMs;
    c["p10_ms"] = r.p10Ms;
    c["p90_ms"] = r.p90Ms;
    c["launches"] = r.launches;
    c["schedule"] = r.schedule;
    c["tet_iterations_per_s"] = tetIterationsPerSecond(r);
    c["min_bandwidth_gb_per_s"] = minimumSolveBandwidth(r) * 1e-9;
    c["copy_bandwidth_share"] = copyBandwidthShare(r, info);
    nlohmann::json stages = nlohmann::json::object();
    for (const StageMedian& s : r.stages) stages[s.name] = s.ms;
    c["stages_ms"] = stages;
    nlohmann::json curve = nlohmann::json::array();
    for (const ConvergencePoint& p : convergenceCurve(r))
      curve.push_back({{"iteration", p.iteration}, {"ms", p.ms}, {"relative_residual", p.relative}});
    c["convergence"] = curve;
    cases.push_back(std::move(c));
  }
  doc["cases"] = std::move(cases);
  return doc.dump(2) + "\n";
}

std::string benchMarkdown(const std::vector<BenchResult>& results, const BenchRunInfo& info) {
  std::string md;
  if (!info.device.empty()) md += "OpenCL device: " + info.device + "\n";
  if (info.copyBytesPerSecond > 0.0)
    md += "Copy-kernel bandwidth: " + fixed(info.copyBytesPerSecond * 1e-9, 1) + " GB/s (read + write)\n";
  md += std::to_string(info.frames) + " timed frames after " + std::to_string(info.warmup) +
        " warm-up frames per case; ms per frame.\n\n";
  md += "| scene | solver | backend | vertices | tets | substeps x iterations | median ms | p10-p90 ms | launches | "
        "schedule | Mtet-it/s | min. traffic / copy bw |\n";
  md += "| --- | --- | --- | ---: | ---: | --- | ---: | ---: | ---: | --- | ---: | ---: |\n";
  for (const BenchResult& r : results) {
    md += "| " + r.scene + " | " + solverName(r.solver) + " | " + backendName(r.backend) + " | " +
          std::to_string(r.vertices) + " | " + std::to_string(r.tets) + " | " + std::to_string(r.substeps) + " x " +
          std::to_string(r.iterations) + " | ";
    if (!r.ok) {
      md += "failed: " + r.error + " | | | | | |\n";
      continue;
    }
    const double share = copyBandwidthShare(r, info);
    md += fixed(r.medianMs, 2) + " | " + fixed(r.p10Ms, 2) + "-" + fixed(r.p90Ms, 2) + " | " +
          (r.backend == BenchBackend::OpenCl ? std::to_string(r.launches) : std::string("-")) + " | " +
          (r.schedule.empty() ? std::string("-") : r.schedule) + " | " + fixed(tetIterationsPerSecond(r) * 1e-6, 2) +
          " | " + (share > 0.0 ? fixed(100.0 * share, 1) + " %" : std::string("-")) + " |\n";
  }
  return md;
}

void writeConvergenceCsv(std::ostream& out, const std::vector<BenchResult>& results) {
  out << "scene,solver,backend,iteration,ms,relative_residual\n";
  for (const BenchResult& r : results)
    for (const ConvergencePoint& p : convergenceCurve(r))
      out << r.scene << ',' << solverName(r.solver) << ',' << backendName(r.backend) << ',' << p.iteration << ','
          << p.ms << ',' << p.relative << '\n';
}

}  // namespace tetlab
