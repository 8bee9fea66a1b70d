// `tetlab run --backend opencl` steps the same scene as `--backend cpu`: the
// last CSV row (time, energies, lowest point, centre of mass) agrees within
// the GPU parity bound (1e-4 relative to the beam's 1 m length for
// positions; energies relative to the gravitational energy scale m g L).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "run_process.h"

namespace tetlab {
namespace {

std::vector<double> lastRow(const std::filesystem::path& csv) {
  std::ifstream in(csv);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  std::vector<double> out;
  std::stringstream ss(last);
  for (std::string cell; std::getline(ss, cell, ',');) out.push_back(std::strtod(cell.c_str(), nullptr));
  return out;
}

TEST(RunCommandBackends, OpenClMatchesCpuOnTheBeam) {
  const auto dir = std::filesystem::temp_directory_path() / "tetlab_run_backend_test";
  std::filesystem::create_directories(dir);
  const std::string common = "run --preset beam --solver xpbd --frames 30 --substeps 20 --iterations 2 --stats ";
  auto cpu = test::runTetlab(common + "'" + (dir / "cpu.csv").string() + "' --backend cpu");
  ASSERT_EQ(cpu.exitCode, 0) << cpu.output;
  auto gpu = test::runTetlab(common + "'" + (dir / "gpu.csv").string() + "' --backend opencl");
  if (gpu.exitCode != 0 && gpu.output.find("no OpenCL platform") != std::string::npos)
    GTEST_SKIP() << gpu.output;
  ASSERT_EQ(gpu.exitCode, 0) << gpu.output;

  const std::vector<double> c = lastRow(dir / "cpu.csv"), g = lastRow(dir / "gpu.csv");
  ASSERT_EQ(c.size(), 13u);
  ASSERT_EQ(g.size(), 13u);
  EXPECT_EQ(c[0], 30.0);
  EXPECT_NEAR(g[1], c[1], 1e-6) << "simulated time";
  // Beam mass 1000 kg/m^3 * 0.01 m^3 = 10 kg, L = 1 m: energy scale m g L = 98.1 J.
  for (int col : {2, 3, 4, 5}) EXPECT_NEAR(g[col], c[col], 1e-4 * 98.1) << "energy column " << col;
  for (int col : {8, 9, 10, 11}) EXPECT_NEAR(g[col], c[col], 1e-4) << "position column " << col;
  EXPECT_LT(c[10], -0.005) << "the beam's centre of mass did not sag: the comparison is vacuous";
  std::filesystem::remove_all(dir);
}

TEST(RunCommandBackends, UnknownBackendIsAClearError) {
  auto r = test::runTetlab("run --preset beam --solver xpbd --frames 1 --backend cuda");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("unknown backend 'cuda'"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace tetlab
