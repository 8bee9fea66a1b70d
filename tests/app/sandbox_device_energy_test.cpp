// The sandbox's energy plots on the OpenCL backend come from the device every
// frame (gpu/solvers/device_energy.h), not from a full state read-back every 10th
// frame: one point per frame, the same numbers as the host's computeEnergy of
// the downloaded state, and the same energy history as the CPU reference.
// Also prints the per-frame cost of the device energy on two presets (a
// report, never an assertion: timing depends on the machine).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "tests/app/app_test_util.h"
#include "core/session/sim_session.h"
#include "core/scene/scene_json.h"
#include "core/sim/energy.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_energy.h"
#include "gpu/solvers/opencl_simulator.h"
#include "tests/gpu/energy_rounding_bound.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<SimSession> loadScene(const std::string& file) { return test::loadPresetSession(file); }

// The derived float bound for device vs host energy of the same state
// (tests/gpu/energy_rounding_bound.h), for the groups the session's kernels
// launch on this device (a DeviceEnergy built the same way).
test::EnergyTolerance roundingBound(const ClContext& ctx, const SimSession& session, const State& state) {
  auto energy = DeviceEnergy::create(ctx, session.model());
  EXPECT_TRUE(energy.ok()) << energy.error().message;
  if (!energy) return {};
  return test::deviceEnergyTolerance(*energy, session.model(), session.settings(), state);
}

void expectSameEnergy(const EnergyReport& got, const EnergyReport& want, const test::EnergyTolerance& tol,
                      const char* what) {
  EXPECT_NEAR(got.kinetic, want.kinetic, tol.kinetic) << what;
  EXPECT_NEAR(got.potential, want.potential, tol.potential) << what;
  EXPECT_NEAR(got.elastic, want.elastic, tol.elastic) << what;
}

TEST(SandboxDeviceEnergy, OpenClSeriesGainsOnePointPerFrameMatchingTheHostEnergy) {
  Result<ClContext> ctx = createClContext();
  if (!ctx) GTEST_SKIP() << ctx.error().message;
  std::unique_ptr<SimSession> session = loadScene("hang.json");
  ASSERT_TRUE(session);
  ASSERT_TRUE(session->setBackend(Backend::OpenCl, &*ctx).ok());
  ASSERT_TRUE(session->deviceEnergyActive()) << "device energy kernels did not build";
  session->hostPositionsEveryFrame = false;

  constexpr int kFrames = 2 * SimSession::kDiagnosticsEvery + 3;
  for (int f = 1; f <= kFrames; ++f) {
    session->advance();
    ASSERT_FALSE(session->blownUp()) << session->blowUpMessage();
    EXPECT_TRUE(session->diagnosticsFresh()) << "frame " << f;
    ASSERT_EQ(session->series().totalEnergy.size(), size_t(f)) << "one energy point per frame";
    EXPECT_EQ(session->series().kinetic.size(), size_t(f));
    EXPECT_EQ(session->series().elastic.size(), size_t(f));
    if (f == SimSession::kDiagnosticsEvery + 2) {
      // A live material edit (stiffness and density) between frames: the next
      // comparison checks that both reached the device energy.
      Material m = session->material(0);
      m.youngsModulus *= 2.0f;
      m.density *= 1.5f;
      session->setMaterial(0, m);
    }
    if (f % SimSession::kDiagnosticsEvery == 0) {
      // The session read the whole state back this frame: the host twin of
      // the same state must give the same energy.
      const EnergyReport host = computeEnergy(session->model(), session->settings(), session->state());
      const test::EnergyTolerance tol = roundingBound(*ctx, *session, session->state());
      expectSameEnergy(session->diagnostics().energy, host, tol, "device vs host energy of the same state");
      // The bound can fail: well below the elastic energy (the smallest part).
      EXPECT_LT(tol.elastic, 0.05 * host.elastic);
      std::printf("[ hang, frame %d ] elastic %.5g J, device - host %.2e J, bound %.2e J\n", f, host.elastic,
                  session->diagnostics().energy.elastic - host.elastic, tol.elastic);
    }
  }
  // Between full read-backs the curve still moves every frame (the slab swings).
  const Series& total = session->series().totalEnergy;
  int changes = 0;
  for (size_t i = 1; i < total.size(); ++i) changes += total.at(i) != total.at(i - 1);
  EXPECT_GE(changes, kFrames - 2) << "the energy curve is stair-stepped";
}

// The same scene and solver on both backends: the energy history agrees. The
// backends differ only by float rounding in the solver (the parity tests bound
// the state difference), so their energies must agree to a small fraction of
// the energy the run exchanged: 2 % of the drop in gravitational energy, which
// is what the slab turns into kinetic and elastic energy. Missing, doubled or
// stale terms would be off by a large part of it.
TEST(SandboxDeviceEnergy, OpenClEnergyMatchesTheCpuReferenceAfterFrames) {
  Result<ClContext> ctx = createClContext();
  if (!ctx) GTEST_SKIP() << ctx.error().message;
  std::unique_ptr<SimSession> cpu = loadScene("hang.json");
  std::unique_ptr<SimSession> gpu = loadScene("hang.json");
  ASSERT_TRUE(cpu && gpu);
  ASSERT_TRUE(gpu->setBackend(Backend::OpenCl, &*ctx).ok());
  ASSERT_TRUE(gpu->deviceEnergyActive());
  const EnergyReport start = computeEnergy(cpu->model(), cpu->settings(), cpu->state());
  constexpr int kFrames = 30;
  for (int f = 0; f < kFrames; ++f) {
    cpu->advance();
    gpu->advance();
  }
  ASSERT_FALSE(cpu->blownUp()) << cpu->blowUpMessage();
  ASSERT_FALSE(gpu->blownUp()) << gpu->blowUpMessage();
  const EnergyReport& c = cpu->diagnostics().energy;
  const EnergyReport& g = gpu->diagnostics().energy;
  const double exchanged = start.potential - c.potential;
  ASSERT_GT(exchanged, 1e-3 * cpu->energyScale()) << "the slab did not fall: nothing to compare";
  const double tol = 0.02 * exchanged;
  std::printf("[ hang, %d frames ] exchanged %.5g J; CPU (K %.5g, U %.5g, E %.5g) OpenCL (K %.5g, U %.5g, E %.5g) J\n",
              kFrames, exchanged, c.kinetic, c.potential, c.elastic, g.kinetic, g.potential, g.elastic);
  expectSameEnergy(g, c, test::EnergyTolerance{tol, tol, tol}, "OpenCL vs CPU reference");
  EXPECT_NEAR(g.total(), c.total(), tol);
  ASSERT_EQ(gpu->series().totalEnergy.size(), cpu->series().totalEnergy.size());
  for (size_t i = 0; i < gpu->series().totalEnergy.size(); ++i)
    EXPECT_NEAR(gpu->series().totalEnergy.at(i), cpu->series().totalEnergy.at(i), tol) << "frame " << i + 1;
}

// Per-frame cost of the device energy on two presets, next to what it
// replaces (full state read-back + host energy). Printed, not asserted.
TEST(SandboxDeviceEnergy, ReportsTheCostPerFrame) {
  Result<ClContext> ctx = createClContext();
  if (!ctx) GTEST_SKIP() << ctx.error().message;
  for (const char* file : {"hang.json", "bunny_drop.json"}) {
    std::unique_ptr<SimSession> session = loadScene(file);
    ASSERT_TRUE(session);
    ASSERT_TRUE(session->setBackend(Backend::OpenCl, &*ctx).ok());
    ASSERT_TRUE(session->deviceEnergyActive());
    session->hostPositionsEveryFrame = false;
    constexpr int kFrames = 10;
    double deviceMs = 0.0;
    for (int f = 0; f < kFrames; ++f) {
      session->advance();
      ASSERT_FALSE(session->blownUp()) << session->blowUpMessage();
      deviceMs += session->diagnostics().stages[Stage::Energy];
    }
    OpenClSimulator* sim = session->openCl();
    ASSERT_NE(sim, nullptr);
    State state;
    const auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(sim->downloadState(state).ok());
    const EnergyReport host = computeEnergy(session->model(), session->settings(), state);
    const double hostMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    expectSameEnergy(session->diagnostics().energy, host, roundingBound(*ctx, *session, state), file);
    std::printf("[ %s: %u vertices, %u tets ] device energy %.3f ms/frame (mean of %d); full read-back + host energy "
                "%.3f ms; mean step %.2f ms\n",
                file, session->model().vertexCount(), session->model().tetCount(), deviceMs / kFrames, kFrames, hostMs,
                session->meanStepWallMs());
  }
}

}  // namespace
}  // namespace tetlab
