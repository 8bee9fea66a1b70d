// Device energy (gpu/solvers/device_energy.h) against its CPU twin computeEnergy
// (core/sim/energy.cpp), per component, on states that exercise every term.
//
// Tolerance: tests/gpu/energy_rounding_bound.h derives it (float evaluation
// of each term on both sides + the device reduction), per component.
// With cancellation (Neo-Hookean near rest: psi << mu) M >> |E|, so the states
// are deformed well away from rest (strains of 10-30 %) and the test checks
// that tol stays below 1e-2 |E|, so it can fail: a wrong factor, material,
// body or a dropped group of partials would be far outside it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <optional>

#include <glm/geometric.hpp>

#include "core/cpu/constraints_setup.h"
#include "core/model/generators.h"
#include "core/model/material.h"
#include "core/model/model_builder.h"
#include "core/sim/energy.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/device_energy.h"
#include "gpu/solvers/device_state.h"
#include "energy_rounding_bound.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

using test::deviceEnergyTolerance;
using test::EnergyTolerance;

// Compares a device report of `state` with computeEnergy, per component.
void expectReportMatchesHost(const DeviceEnergy& energy, const SimModel& model, const SolverSettings& settings,
                             const State& state, const EnergyReport& got, const char* what) {
  const EnergyReport want = computeEnergy(model, settings, state);
  const EnergyTolerance tol = deviceEnergyTolerance(energy, model, settings, state);
  const double tolKinetic = tol.kinetic, tolPotential = tol.potential, tolElastic = tol.elastic;
  EXPECT_NEAR(got.kinetic, want.kinetic, tolKinetic);
  EXPECT_NEAR(got.potential, want.potential, tolPotential);
  EXPECT_NEAR(got.elastic, want.elastic, tolElastic);
  // The bound must be able to fail: far below each component it checks.
  EXPECT_LT(tolKinetic, 1e-2 * std::fabs(want.kinetic));
  EXPECT_LT(tolPotential, 1e-2 * std::fabs(want.potential));
  EXPECT_LT(tolElastic, 1e-2 * std::fabs(want.elastic));
  std::printf("[ %s ] %u tets, L %u, k_tet %u: rel. error kinetic %.2e, potential %.2e, elastic %.2e (tol %.2e, %.2e, %.2e)\n",
              what, model.tetCount(), energy.groupSize(), energy.itemsPerWorkItem(model.tetCount()),
              std::fabs(got.kinetic - want.kinetic) / std::fabs(want.kinetic),
              std::fabs(got.potential - want.potential) / std::fabs(want.potential),
              std::fabs(got.elastic - want.elastic) / std::fabs(want.elastic), tolKinetic / std::fabs(want.kinetic),
              tolPotential / std::fabs(want.potential), tolElastic / std::fabs(want.elastic));
}

// What expectMatchesHost measured: the device report, the tolerance of its
// components and the larger reduction factor of the tet and edge kernels.
struct DeviceCheck {
  EnergyReport got;
  EnergyTolerance tol;
  double reduction = 0.0;
};

// Uploads `state`, computes its device energy and compares it with the host's
// (nullopt after a failure, which is reported).
std::optional<DeviceCheck> expectMatchesHost(const ClContext& ctx, const SimModel& model,
                                             const SolverSettings& settings, const State& state, const char* what) {
  SCOPED_TRACE(what);
  auto device = createDeviceState(ctx, model, state);
  auto energy = device ? DeviceEnergy::create(ctx, model) : Result<DeviceEnergy>(device.error());
  Result<EnergyReport> got = energy ? energy->compute(ctx, *device, model, settings) : energy.error();
  EXPECT_TRUE(got.ok()) << got.error().message;
  if (!got) return std::nullopt;
  EXPECT_LE(energy->lastReadBytes(), size_t(3) * DeviceEnergy::kMaxGroups * sizeof(glm::vec4));
  expectReportMatchesHost(*energy, model, settings, state, *got, what);
  return DeviceCheck{*got, deviceEnergyTolerance(*energy, model, settings, state),
                     std::max(test::reductionFactor(*energy, model.tetCount()),
                              test::reductionFactor(*energy, model.edgeCount()))};
}

SimModel beamModel(glm::uvec3 cells) {
  Material m;
  m.youngsModulus = 2.0e6f;
  m.poissonRatio = 0.35f;
  BodyDesc body{makeBoxTetMesh(glm::vec3(0.0f, 0.5f, 0.0f), glm::vec3(1.0f, 0.1f, 0.1f), cells), m, "beam"};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << model.error().message;
  return model.ok() ? std::move(*model) : SimModel{};
}

// Bent (y += 0.3 x^2), stretched 15 % along x, squeezed 10 % across, twisted,
// and moving with a smooth velocity field: strains of 10-30 %, far from rest.
State deformedBeamState(const SimModel& model) {
  State s = makeState(model);
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::vec3 p = model.restPositions[i];
    const float twist = 0.4f * p.x;
    const float y = p.y - 0.55f, z = p.z - 0.05f;
    const glm::vec3 q(1.15f * p.x, 0.55f + 0.9f * (std::cos(twist) * y - std::sin(twist) * z) + 0.3f * p.x * p.x,
                      0.05f + 0.9f * (std::sin(twist) * y + std::cos(twist) * z));
    s.x[i] = glm::vec4(q, s.x[i].w);
    s.v[i] = glm::vec4(std::sin(3.0f * p.x), 0.5f - p.x, std::cos(7.0f * p.z), 0.0f);
  }
  return s;
}

TEST(DeviceEnergy, MatchesHostOnADeformedNeoHookeanBeam) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = beamModel(glm::uvec3(20, 3, 3));
  ASSERT_GT(model.tetCount(), 0u);
  SolverSettings settings;
  settings.step.constraints = ConstraintToggles{};  // Neo-Hookean only
  expectMatchesHost(ctx, model, settings, deformedBeamState(model), "Neo-Hookean beam");
}

// Each of the other terms alone (so none hides behind a larger one), then all
// together on a mesh big enough that every kernel hits the group cap and each
// work-item adds several items in sequence.
TEST(DeviceEnergy, MatchesHostForVolumeStrainAndEdgeTerms) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = beamModel(glm::uvec3(48, 8, 8));
  ASSERT_GT(model.tetCount(), 2u * DeviceEnergy::kMaxGroups * DeviceEnergy::kPreferredGroupSize);
  const State state = deformedBeamState(model);
  SolverSettings settings;
  settings.positionBased.stretchScale = glm::vec3(1.0f, 0.5f, 2.0f);
  settings.positionBased.shearScale = glm::vec3(0.7f, 1.3f, 0.9f);
  settings.step.gravity = glm::vec3(0.5f, -9.81f, 0.2f);
  ConstraintToggles off{};
  off.neoHookean = false;
  settings.step.constraints = off;
  settings.step.constraints.tetVolume = true;
  expectMatchesHost(ctx, model, settings, state, "tet volume");
  settings.step.constraints = off;
  settings.step.constraints.strainBased = true;
  expectMatchesHost(ctx, model, settings, state, "strain based");
  // Along turned material axes, each toward its own rest-length scale.
  settings.positionBased.restScale = glm::vec3(1.2f, 0.9f, 1.05f);
  settings.positionBased.materialAxis = glm::vec3(1.0f, 1.0f, 0.3f);
  expectMatchesHost(ctx, model, settings, state, "strain based, material frame and rest scale");
  settings.positionBased.restScale = glm::vec3(1.0f);
  settings.positionBased.materialAxis = glm::vec3(1.0f, 0.0f, 0.0f);
  settings.step.constraints = off;
  settings.step.constraints.edges = true;
  expectMatchesHost(ctx, model, settings, state, "edges");
  settings.step.constraints.neoHookean = settings.step.constraints.tetVolume = settings.step.constraints.strainBased =
      true;
  expectMatchesHost(ctx, model, settings, state, "all four");
}

// Three bodies of different materials (each its own mu, lambda, E and edge
// stiffness) after a few CPU frames of falling and spinning, then each body
// stretched / squashed about its centre (strains of 15-20 %: a body that has
// only fallen is nearly at rest, where float Neo-Hookean energy is all
// cancellation on the host as on the device).
TEST(DeviceEnergy, MatchesHostOnAMovingMultiBodyScene) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  Material stiff{3.0e6f, 0.45f, 2000.0f, 0.0f}, soft{5.0e4f, 0.2f, 900.0f, 0.0f}, mid{4.0e5f, 0.3f, 1100.0f, 0.0f};
  std::vector<BodyDesc> bodies;
  bodies.push_back({makeBoxTetMesh(glm::vec3(-0.4f, 0.3f, -0.1f), glm::vec3(0.3f, 0.2f, 0.2f), glm::uvec3(6, 4, 4)),
                    stiff, "brick"});
  bodies.push_back({makeSphereTetMesh(glm::vec3(0.1f, 0.25f, 0.0f), 0.15f, 6), soft, "ball"});
  bodies.push_back({makeTorusTetMesh(glm::vec3(0.5f, 0.3f, 0.0f), 0.15f, 0.06f, 16, 4), mid, "ring"});
  auto built = buildSimModel(std::span<const BodyDesc>(bodies));
  ASSERT_TRUE(built.ok()) << built.error().message;
  const SimModel& model = *built;
  State state = makeState(model);
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::vec3 p = model.restPositions[i];
    // A spin about z plus a sideways throw, different per body.
    const float w = 3.0f + float(model.vertexBody[i]);
    state.v[i] = glm::vec4(-w * (p.y - 0.3f) + 0.5f, w * p.x, 0.2f, 0.0f);
  }
  SolverSettings settings;
  settings.solver = SolverKind::Vbd;
  settings.step.constraints.edges = true;  // Neo-Hookean and springs
  auto solver = makeCpuSolver(settings.solver);
  solver->reset(model, state);
  StepDiagnostics diag;
  for (int f = 0; f < 5; ++f) stepSimulation(model, settings, *solver, state, diag);
  ASSERT_TRUE(diag.finite) << diag.problem;
  std::vector<glm::dvec3> centre(model.materials.size(), glm::dvec3(0.0));
  std::vector<double> count(model.materials.size(), 0.0);
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    centre[model.vertexBody[i]] += glm::dvec3(glm::vec3(state.x[i]));
    count[model.vertexBody[i]] += 1.0;
  }
  const glm::mat3 squash(glm::vec3(1.2f, 0.1f, 0.0f), glm::vec3(0.0f, 0.85f, 0.0f), glm::vec3(0.05f, 0.0f, 1.1f));
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::vec3 c(centre[model.vertexBody[i]] / count[model.vertexBody[i]]);
    state.x[i] = glm::vec4(c + squash * (glm::vec3(state.x[i]) - c), state.x[i].w);
  }
  expectMatchesHost(ctx, model, settings, state, "three bodies");
}

// XPBD's compliant constraints measured with multipliers (EnergyReport::
// compliant*): the device reads the same State::lambda slots with the same
// xpbd_compliant_energies as the host. Multipliers of every sign and size on
// every slot, a compliance scale that is not 1, the group cap hit. Tolerance:
// the shape terms are the elastic terms (NH off), so tol.elastic; converged is
// the same terms over complianceScale plus a few roundings of the division;
// carried is two products of the same floats (alpha, lambda / h^2) per term on
// both sides plus the reduction: u (8 + reduction factor) of the sum.
TEST(DeviceEnergy, MatchesHostForXpbdMultipliers) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = beamModel(glm::uvec3(48, 8, 8));
  State state = deformedBeamState(model);
  SolverSettings settings;
  settings.solver = SolverKind::Xpbd;
  settings.step.constraints = ConstraintToggles{};
  settings.step.constraints.neoHookean = false;
  settings.step.constraints.strainBased = settings.step.constraints.tetVolume = settings.step.constraints.edges = true;
  settings.step.substeps = 10;
  settings.xpbd.complianceScale = 1.7f;
  const LambdaLayout layout = lambdaLayout(model);
  state.lambda.resize(layout.size);
  for (size_t j = 0; j < state.lambda.size(); ++j)
    state.lambda[j] = -3.0e-6f * (0.3f + std::sin(0.37f * float(j))) * (j % 7 == 3 ? 20.0f : 1.0f);
  const std::optional<DeviceCheck> check = expectMatchesHost(ctx, model, settings, state, "XPBD compliant");
  ASSERT_TRUE(check);
  const EnergyReport& got = check->got;
  const EnergyReport want = computeEnergy(model, settings, state);
  ASSERT_TRUE(want.compliantMeasured);
  EXPECT_TRUE(got.compliantMeasured);
  const double u = test::kUnitRoundoff;
  EXPECT_NEAR(got.compliantShape, want.compliantShape, check->tol.elastic);
  EXPECT_NEAR(got.compliantConverged, want.compliantConverged,
              check->tol.elastic / settings.xpbd.complianceScale + 8.0 * u * want.compliantConverged);
  const double tolCarried = u * (8.0 + check->reduction) * want.compliantCarried;
  EXPECT_NEAR(got.compliantCarried, want.compliantCarried, tolCarried);
  EXPECT_LT(tolCarried, 1e-3 * want.compliantCarried);
  EXPECT_GT(want.compliantCarried, 0.0);
  std::printf("[ XPBD compliant ] shape %.6g / %.6g, converged %.6g / %.6g, carried %.6g / %.6g J (device / host)\n",
              got.compliantShape, want.compliantShape, got.compliantConverged, want.compliantConverged,
              got.compliantCarried, want.compliantCarried);

  // Other solvers keep other data in lambda: not measured.
  settings.solver = SolverKind::Vbd;
  const std::optional<DeviceCheck> vbd = expectMatchesHost(ctx, model, settings, state, "VBD on the same state");
  ASSERT_TRUE(vbd);
  EXPECT_FALSE(vbd->got.compliantMeasured);
  EXPECT_EQ(vbd->got.compliantCarried, 0.0);
}

// A material edit between frames reaches the kernels (same object, no rebuild).
TEST(DeviceEnergy, FollowsMaterialEdits) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  SimModel model = beamModel(glm::uvec3(20, 3, 3));
  const State state = deformedBeamState(model);
  SolverSettings settings;
  settings.step.constraints.edges = true;
  auto device = createDeviceState(ctx, model, state);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto energy = DeviceEnergy::create(ctx, model);
  ASSERT_TRUE(energy.ok()) << energy.error().message;
  Result<EnergyReport> before = energy->compute(ctx, *device, model, settings);
  ASSERT_TRUE(before.ok()) << before.error().message;
  Material stiffer = model.materials[0];
  stiffer.youngsModulus *= 3.0f;
  stiffer.poissonRatio = 0.1f;
  model.materials.set(0, stiffer);
  Result<EnergyReport> after = energy->compute(ctx, *device, model, settings);
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_GT(after->elastic, 2.0 * before->elastic) << "the stiffer material did not reach the device";
  expectReportMatchesHost(*energy, model, settings, state, *after, "after the edit");
}

}  // namespace
}  // namespace tetlab
