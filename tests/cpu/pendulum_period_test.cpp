// A stiff pendulum's period on VBD and AVBD at the default (adaptive) initial
// guess: the scene and its reference in tests/pendulum_scene.h. The guess
// decides the swing of a stiff body: a few Gauss-Seidel sweeps hardly move its
// rigid modes (a bar of E = 1e9 started from inertia did not swing at all,
// HeldBodies.StiffBarOnAHingeSwings), so a guess that drops gravity slows the
// swing, and more iterations must not make it slower.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <ostream>

#include "core/scene/enum_names.h"
#include "core/sim/solver.h"
#include "core/sim/stepper.h"
#include "tests/pendulum_scene.h"
#include "tests/preset_files.h"

namespace tetlab {
namespace {

struct PendulumCase {
  SolverKind solver;
  int iterations;
};

void PrintTo(const PendulumCase& c, std::ostream* os) { *os << solverName(c.solver) << " 10 x " << c.iterations; }

class PendulumPeriod : public ::testing::TestWithParam<PendulumCase> {};

TEST_P(PendulumPeriod, StiffBarSwingsAtItsCompoundPendulumPeriod) {
  const PendulumCase c = GetParam();
  Result<BuiltScene> built = test::buildPresetDesc(test::pendulumScene(c.solver, 10, c.iterations));
  ASSERT_TRUE(built.ok());
  const SimModel& model = built->scene.model;
  const SolverSettings& s = built->scene.settings;
  ASSERT_EQ(s.vbd.initialGuess, VbdInitialGuess::Adaptive) << "the default is what is tested";
  ASSERT_EQ(s.avbd.primal.initialGuess, VbdInitialGuess::Adaptive);
  State state = makeInitialState(*built);
  const double reference = test::pendulumReferencePeriod(model, state, -double(s.step.gravity.y));
  auto solver = makeCpuSolver(c.solver);
  solver->reset(model, state);
  double largest = 0.0;
  const double period = test::measurePendulumPeriod(model, state, double(s.step.dt), 420, &largest, [&](State& st) {
    StepDiagnostics diag;
    stepSimulation(model, s, *solver, st, diag);
    EXPECT_TRUE(diag.finite) << diag.problem;
    return diag.finite;
  });
  std::printf("[ measured ] stiff pendulum on %s (%d x %d): period %.4f s, reference %.4f s (%.3fx), largest "
              "swing %.3f deg\n",
              solverName(c.solver), s.step.substeps, s.step.iterations, period, reference, period / reference,
              largest * 180.0 / M_PI);
  ASSERT_FALSE(std::isnan(period)) << "fewer than three zero crossings in 7 s";
  EXPECT_NEAR(period / reference, 1.0, 0.05);
  // Implicit Euler only damps: an unforced swing may not grow past its release.
  EXPECT_LE(largest, (test::kPendulumAmplitudeDegrees + 0.05) * M_PI / 180.0);
}

INSTANTIATE_TEST_SUITE_P(VbdFamily, PendulumPeriod,
                         ::testing::Values(PendulumCase{SolverKind::Vbd, 4}, PendulumCase{SolverKind::Vbd, 20},
                                           PendulumCase{SolverKind::Avbd, 4}, PendulumCase{SolverKind::Avbd, 20}),
                         [](const auto& info) {
                           return std::string(solverName(info.param.solver)) + "_10x" +
                                  std::to_string(info.param.iterations);
                         });

}  // namespace
}  // namespace tetlab
