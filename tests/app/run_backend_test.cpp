// `tetlab run --backend opencl` steps the same scene as `--backend cpu`: the
// last CSV row (time, energies, lowest point, centre of mass) agrees within
// the GPU parity bound (1e-4 relative to the beam's 1 m length for
// positions; energies relative to the gravitational energy scale m g L).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <stb_image.h>

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
  // 40 substeps: inside XPBD's shear limit for this beam (35); at 20 it blows up (exit 2).
  // per_color: the launch floor below is that schedule's (one_group: 2 per frame).
  const std::string common =
      "run --preset beam --solver xpbd --frames 30 --substeps 40 --iterations 2 --gpu-schedule per_color --stats ";
  auto cpu = test::runTetlab(common + "'" + (dir / "cpu.csv").string() + "' --backend cpu");
  ASSERT_EQ(cpu.exitCode, 0) << cpu.output;
  auto gpu = test::runTetlab(common + "'" + (dir / "gpu.csv").string() + "' --backend opencl");
  if (gpu.exitCode != 0 && gpu.output.find("no OpenCL platform") != std::string::npos)
    GTEST_SKIP() << gpu.output;
  ASSERT_EQ(gpu.exitCode, 0) << gpu.output;

  const std::vector<double> c = lastRow(dir / "cpu.csv"), g = lastRow(dir / "gpu.csv");
  ASSERT_EQ(c.size(), 24u);  // kRunStatsHeader's 24 columns
  ASSERT_EQ(g.size(), 24u);
  // Launches: none on the CPU; on OpenCL at least predict + velocity and the
  // element colours per iteration of each of the 40 substeps.
  EXPECT_EQ(c[18], 0.0);
  EXPECT_GE(g[18], 40.0 * 2.0 * 3.0);
  EXPECT_EQ(c[0], 30.0);
  EXPECT_NEAR(g[1], c[1], 1e-6) << "simulated time";
  // Beam mass 1000 kg/m^3 * 0.01 m^3 = 10 kg, L = 1 m: energy scale m g L = 98.1 J.
  for (int col : {2, 3, 4, 5, 19}) EXPECT_NEAR(g[col], c[col], 1e-4 * 98.1) << "energy column " << col;
  for (int col : {8, 9, 10, 11}) EXPECT_NEAR(g[col], c[col], 1e-4) << "position column " << col;
  EXPECT_LT(c[10], -0.005) << "the beam's centre of mass did not sag: the comparison is vacuous";
  // XPBD on OpenCL measures neither the residual nor the max violation (NaN
  // in the CSV); the summary line says so in words: "nan" reads as a blow-up.
  EXPECT_TRUE(std::isnan(g[6]) && !std::isnan(c[6])) << "residual column";
  // The common measure is taken on both backends, from the same function
  // (on OpenCL from the read-back state): the same numbers to parity.
  for (int col : {21, 22, 23}) {
    ASSERT_TRUE(std::isfinite(g[col]) && std::isfinite(c[col])) << "step error column " << col;
    EXPECT_NEAR(g[col], c[col], 0.1 * c[col]) << "step error column " << col;
  }
  EXPECT_NE(gpu.output.find("residual not measured on this backend, max violation not measured on this backend"),
            std::string::npos)
      << gpu.output;
  EXPECT_EQ(gpu.output.find("nan"), std::string::npos) << gpu.output;
  EXPECT_EQ(cpu.output.find("not measured"), std::string::npos) << cpu.output;
  std::filesystem::remove_all(dir);
}

struct Rgba {
  int width = 0, height = 0;
  std::vector<unsigned char> pixels;
};

Rgba loadRgba(const std::filesystem::path& path) {
  Rgba img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 4);
  if (data != nullptr) {
    img.pixels.assign(data, data + size_t(img.width) * size_t(img.height) * 4);
    stbi_image_free(data);
  }
  return img;
}

// The app on the OpenCL backend draws the surfaces from the device (GL
// interop: shared buffer, or one copy into a mapped GL buffer) and the 3D view
// shows the same picture as the CPU backend: the solvers agree to 1e-4 of the
// body size (parity tests), far below a pixel at this resolution.
TEST(AppBackends, OpenClDrawsFromTheDeviceAndMatchesTheCpuPicture) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no display (run under xvfb-run)";
  const auto dir = std::filesystem::temp_directory_path() / "tetlab_app_backend_test";
  std::filesystem::create_directories(dir);
  const std::string scene = std::string(TETLAB_SOURCE_DIR) + "/assets/scenes/beam.json";
  const std::string common = "--scene '" + scene + "' --headless --frames 30 --width 960 --height 540 --screenshot ";
  auto cpu = test::runTetlab(common + "'" + (dir / "cpu.png").string() + "' --backend cpu");
  ASSERT_EQ(cpu.exitCode, 0) << cpu.output;
  auto gpu = test::runTetlab(common + "'" + (dir / "gpu.png").string() + "' --backend opencl");
  if (gpu.exitCode != 0 && gpu.output.find("no OpenCL") != std::string::npos) GTEST_SKIP() << gpu.output;
  ASSERT_EQ(gpu.exitCode, 0) << gpu.output;
  EXPECT_NE(gpu.output.find("surfaces drawn via "), std::string::npos) << gpu.output;
  EXPECT_EQ(gpu.output.find("CPU embedding"), std::string::npos) << gpu.output;

  const Rgba a = loadRgba(dir / "cpu.png"), b = loadRgba(dir / "gpu.png");
  ASSERT_EQ(a.width, 960);
  ASSERT_EQ(b.width, a.width);
  ASSERT_EQ(b.height, a.height);
  // The 3D view right of the panel (the panels differ: backend buttons, interop line).
  size_t compared = 0, differing = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = a.width * 2 / 5; x < a.width; ++x) {
      const size_t i = (size_t(y) * size_t(a.width) + size_t(x)) * 4;
      int d = 0;
      for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a.pixels[i + c]) - int(b.pixels[i + c])));
      ++compared;
      differing += d > 8 ? 1 : 0;
    }
  EXPECT_LT(double(differing) / double(compared), 0.01) << differing << " of " << compared << " pixels differ";
  std::filesystem::remove_all(dir);
}

TEST(RunCommandBackends, UnknownBackendIsAClearError) {
  auto r = test::runTetlab("run --preset beam --solver xpbd --frames 1 --backend cuda");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("unknown backend 'cuda'"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace tetlab
