// A nearly incompressible block (nu = 0.49) squeezed by a heavy plate keeps
// its volume: with K / mu = 2 (1 + nu) / (3 (1 - 2 nu)) = 50, a uniaxial
// compression that shortens it by ~20% changes the volume by ~1% in linear
// elasticity (dV/V = (1 - 2 nu) eps_axial), so 2% bounds a correct solver.
//
// The plate is its weight: a 20 kg load (~20 times the block) spread over the
// top face's vertices by their share of the face area (uniform pressure
// 2e4 Pa = 0.2 E).
#include <gtest/gtest.h>

#include "tests/cpu/physics_scenes.h"

namespace tetlab {
namespace {

using namespace phystest;

struct Squeezed {
  SimModel model;
  double restVolume = 0.0;
  double restHeight = 0.1;
};

Squeezed squeezedBlock() {
  const uint32_t n = 3;
  const float size = 0.1f;
  Squeezed s;
  s.model = buildBox({-0.05f, 0.0f, -0.05f}, glm::vec3(size), glm::uvec3(n), Material{1e5f, 0.49f, 1000, 0});
  const float plateMass = 20.0f, cell = size / n;
  for (uint32_t i = 0; i < s.model.vertexCount(); ++i) {
    const glm::vec3 p = s.model.restPositions[i];
    if (p.y < size - 1e-3f * cell) continue;
    // Area share of a top-face lattice vertex: cell^2 times 1/4, 1/2 or 1.
    const bool edgeX = std::fabs(std::fabs(p.x) - 0.05f) < 1e-3f * cell;
    const bool edgeZ = std::fabs(std::fabs(p.z) - 0.05f) < 1e-3f * cell;
    const float share = (edgeX ? 0.5f : 1.0f) * (edgeZ ? 0.5f : 1.0f) * cell * cell;
    s.model.mass[i] += plateMass * share / (size * size);
  }
  for (float v : s.model.restVolume) s.restVolume += v;
  return s;
}

class VolumeSolver : public testing::TestWithParam<SolverKind> {};

TEST_P(VolumeSolver, SqueezedBlockKeepsItsVolume) {
  Squeezed block = squeezedBlock();
  SolverSettings settings;
  settings.solver = GetParam();
  settings.step.velocityDamping = 10.0f;  // settle the plate's bounce within the run
  settings.step.iterations = 10;          // 20:1 mass ratio between plate and block vertices
  State state = makeState(block.model);
  auto solver = makeCpuSolver(GetParam());
  solver->reset(block.model, state);
  StepDiagnostics diag;
  ASSERT_TRUE(run(block.model, settings, *solver, state, 120, diag));  // 2 s
  float top = -INFINITY;
  for (const auto& x : state.x) top = std::max(top, x.y);
  const double squeeze = 1.0 - top / block.restHeight;
  const double volumeChange = currentVolume(block.model, state) / block.restVolume - 1.0;
  std::printf("%s: squeezed by %.1f%% of its height, volume change %.3f%%\n", solverName(GetParam()),
              100.0 * squeeze, 100.0 * volumeChange);
  EXPECT_GT(squeeze, 0.05) << "the plate must actually squeeze the block";
  EXPECT_LT(std::fabs(volumeChange), 0.02);
}

INSTANTIATE_TEST_SUITE_P(Solvers, VolumeSolver,
                         testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd),
                         paramName);

}  // namespace
}  // namespace tetlab
