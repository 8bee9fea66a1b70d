// tetlab-bench's metrics and reports: pure functions of hand-made results, so
// every number below follows from the definitions in app/bench/bench_metrics.h.
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/bench/bench_metrics.h"
#include "app/bench/bench_report.h"
#include "app/bench/switch_latency.h"

namespace tetlab {
namespace {

// 1,000 tets at 10 substeps x 4 iterations in 8 ms: 40,000 tet-iterations in 8 ms.
BenchResult oneCase(BenchBackend backend) {
  BenchResult r;
  r.scene = "beam";
  r.vertices = 300;
  r.tets = 1000;
  r.solver = SolverKind::Vbd;
  r.backend = backend;
  r.substeps = 10;
  r.iterations = 4;
  r.ok = true;
  r.medianMs = 8.0;
  r.p10Ms = 7.5;
  r.p90Ms = 9.0;
  r.launches = backend == BenchBackend::OpenCl ? 2u : 0u;
  r.schedule = backend == BenchBackend::OpenCl ? "one group" : "";
  r.residualHistory = {4.0f, 2.0f, 1.0f, 0.5f};
  return r;
}

TEST(BenchMetrics, TetIterationsPerSecondIsTetsTimesBudgetOverTheMedian) {
  const BenchResult r = oneCase(BenchBackend::Cpu);
  EXPECT_DOUBLE_EQ(tetIterationsPerSecond(r), 40000.0 / 0.008);
  EXPECT_DOUBLE_EQ(minimumSolveBandwidth(r), kMinBytesPerTetIteration * 40000.0 / 0.008);
  BenchResult failed = r;
  failed.ok = false;
  EXPECT_EQ(tetIterationsPerSecond(failed), 0.0);
}

TEST(BenchMetrics, ConvergenceCurveSpreadsTheFrameOverItsIterations) {
  const std::vector<ConvergencePoint> curve = convergenceCurve(oneCase(BenchBackend::OpenCl));
  ASSERT_EQ(curve.size(), 4u);
  // 8 ms over 40 iterations: 0.2 ms each; residuals relative to the first.
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(curve[size_t(k)].iteration, k + 1);
    EXPECT_NEAR(curve[size_t(k)].ms, 0.2 * (k + 1), 1e-12);
  }
  EXPECT_DOUBLE_EQ(curve[0].relative, 1.0);
  EXPECT_DOUBLE_EQ(curve[3].relative, 0.125);
  BenchResult none = oneCase(BenchBackend::Cpu);
  none.residualHistory.clear();
  EXPECT_TRUE(convergenceCurve(none).empty());
  none.residualHistory = {0.0f, 0.0f};
  EXPECT_TRUE(convergenceCurve(none).empty()) << "a zero first residual has no relative curve";
}

TEST(BenchReport, CopyShareOnlyForOpenClRowsWithAMeasuredBandwidth) {
  BenchRunInfo info;
  EXPECT_EQ(copyBandwidthShare(oneCase(BenchBackend::OpenCl), info), 0.0);
  info.copyBytesPerSecond = 1e9;
  EXPECT_DOUBLE_EQ(copyBandwidthShare(oneCase(BenchBackend::OpenCl), info),
                   kMinBytesPerTetIteration * 40000.0 / 0.008 / 1e9);
  EXPECT_EQ(copyBandwidthShare(oneCase(BenchBackend::Cpu), info), 0.0);
}

TEST(BenchReport, CsvRowsHaveTheHeadersColumnsAndQuoteTheError) {
  std::ostringstream out;
  writeCsvHeader(out);
  BenchResult failed = oneCase(BenchBackend::Cpu);
  failed.ok = false;
  failed.error = "blew up, \"badly\"";
  writeCsvRow(out, oneCase(BenchBackend::OpenCl), BenchRunInfo{});
  writeCsvRow(out, failed, BenchRunInfo{});
  std::istringstream lines(out.str());
  std::string header, ok, bad;
  std::getline(lines, header);
  std::getline(lines, ok);
  std::getline(lines, bad);
  const auto columns = [](const std::string& s) { return std::count(s.begin(), s.end(), ','); };
  EXPECT_EQ(columns(ok), columns(header));
  EXPECT_NE(ok.find(",one group,"), std::string::npos) << ok;
  EXPECT_NE(bad.find("\"blew up, \"\"badly\"\"\""), std::string::npos) << bad;
}

TEST(BenchReport, JsonCarriesEveryCaseWithItsCurve) {
  BenchRunInfo info;
  info.device = "test device";
  info.copyBytesPerSecond = 2e9;
  info.frames = 30;
  const auto doc = nlohmann::json::parse(benchJson({oneCase(BenchBackend::Cpu), oneCase(BenchBackend::OpenCl)}, info));
  EXPECT_EQ(doc["device"], "test device");
  EXPECT_DOUBLE_EQ(doc["copy_gb_per_s"].get<double>(), 2.0);
  ASSERT_EQ(doc["cases"].size(), 2u);
  EXPECT_EQ(doc["cases"][1]["backend"], "opencl");
  EXPECT_EQ(doc["cases"][1]["schedule"], "one group");
  EXPECT_DOUBLE_EQ(doc["cases"][0]["tet_iterations_per_s"].get<double>(), 5e6);
  ASSERT_EQ(doc["cases"][0]["convergence"].size(), 4u);
  EXPECT_DOUBLE_EQ(doc["cases"][0]["convergence"][3]["relative_residual"].get<double>(), 0.125);
}

TEST(BenchReport, MarkdownHasOneRowPerCaseAndSaysWhatFailed) {
  BenchResult failed = oneCase(BenchBackend::Cpu);
  failed.ok = false;
  failed.error = "no OpenCL platform";
  BenchRunInfo info;
  info.copyBytesPerSecond = 1e9;
  const std::string md = benchMarkdown({oneCase(BenchBackend::OpenCl), failed}, info);
  EXPECT_NE(md.find("| beam | vbd | opencl | 300 | 1000 | 10 x 4 | 8.00 | 7.50-9.00 | 2 | one group | 5.00 | 96.0 % |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("failed: no OpenCL platform"), std::string::npos) << md;
  EXPECT_NE(md.find("Copy-kernel bandwidth: 1.0 GB/s"), std::string::npos) << md;
}

TEST(BenchReport, ConvergenceCsvHasARowPerPoint) {
  std::ostringstream out;
  writeConvergenceCsv(out, {oneCase(BenchBackend::Cpu)});
  const std::string s = out.str();
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 5);
  EXPECT_NE(s.find("beam,vbd,cpu,4,0.8,0.125"), std::string::npos) << s;
}

TEST(SwitchLatency, WorstReuseIgnoresFirstUsesAndFailures) {
  const std::vector<SwitchTiming> t{{"backend opencl", true, 900.0, ""},
                                    {"solver xpbd", false, 40.0, ""},
                                    {"solver vbd", false, 500.0, "blew up"},
                                    {"backend cpu", false, 12.0, ""}};
  EXPECT_DOUBLE_EQ(worstReuseMs(t), 40.0);
  EXPECT_DOUBLE_EQ(worstReuseMs({}), 0.0);
}

}  // namespace
}  // namespace tetlab
