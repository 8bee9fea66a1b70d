// The stiff free-fall cases of tests/cpu/stiff_fidelity_test.cpp on the
// OpenCL backend: the device's step_velocity and initial guess use the same
// shared functions (common/step_integrate.clh, common/vbd_initial_guess.clh),
// so the drops must match the same discrete closed form within the same 1 %.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/cpu/xpbd_solver.h"
#include "core/sim/presets.h"
#include "core/sim/solver_settings.h"
#include "gpu/solvers/opencl_simulator.h"
#include "gpu_test_context.h"
#include "tests/com_height.h"

namespace tetlab {
namespace {

using test::comY;

// Drop of the E = 1e8 ball after 6 frames (0.1 s) on the device, against
// x = g t^2 / 2 + g h t / 2 (implicit Euler's discrete free fall).
void expectDeviceDropAtG(const ClContext& ctx, SolverKind kind, bool xpbdPlan) {
  PresetOptions options;
  options.material = presetDefaultMaterial("drop");
  options.material.youngsModulus = 1e8f;
  auto scene = makePresetScene("drop", options);
  ASSERT_TRUE(scene.ok());
  SolverSettings settings = xpbdPlan ? scene->settings : SolverSettings{};  // VBD family: the defaults
  settings.solver = kind;
  settings.step.constraints.collisions = false;
  if (xpbdPlan) settings.step.substeps = planXpbdSubsteps(scene->model, settings).used;
  State state = makeSceneState(*scene);
  const double y0 = comY(scene->model, state);
  auto sim = OpenClSimulator::create(scene->model, state, kind, ctx);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  const int frames = 6;
  for (int f = 0; f < frames; ++f) ASSERT_TRUE((*sim)->step(settings).ok());
  ASSERT_TRUE((*sim)->downloadState(state).ok());
  const double h = double(settings.step.dt) / settings.step.substeps, t = double(settings.step.dt) * frames;
  const double expected = 0.5 * 9.81 * t * t + 0.5 * 9.81 * h * t;
  const double drop = y0 - comY(scene->model, state);
  std::printf("[ measured ] OpenCL solver %d, %d substeps: drop %.5f m (closed form %.5f)\n", int(kind),
              settings.step.substeps, drop, expected);
  EXPECT_NEAR(drop / expected, 1.0, 0.01);
}

TEST(StiffFidelityGpu, XpbdDropAtE1e8FallsAtGWithTheAutomaticSubsteps) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  expectDeviceDropAtG(ctx, SolverKind::Xpbd, true);
}

TEST(StiffFidelityGpu, StiffBallOnDefaultVbdAndAvbdSettingsFallsAtG) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  expectDeviceDropAtG(ctx, SolverKind::Vbd, false);
  expectDeviceDropAtG(ctx, SolverKind::Avbd, false);
}

}  // namespace
}  // namespace tetlab
