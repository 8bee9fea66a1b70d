// A live material edit (LiveMaterials::set, what the Materials panel does)
// reaches every solver on both backends: everything derived from the
// materials is re-made when their revision moves, and only then.
//
// The beam: 0.6 x 0.15 x 0.15 m, clamped at x = 0, rho = 1000. Its first
// bending mode, omega_1 = 1.875^2 sqrt(E I / (rho A L^4)) with I/A = h^2 / 12,
// is 6.0 rad/s at E = 2e5 Pa (period 1.05 s) and 60 rad/s at E = 2e7 Pa
// (period 0.105 s); the static tip sag scales as 1/E.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "core/cpu/xpbd_solver.h"
#include "core/scene/enum_names.h"
#include "core/sim/simulator.h"
#include "gpu/solvers/opencl_simulator.h"
#include "clamped_beam.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

constexpr float kSoftE = 2.0e5f, kStiffE = 2.0e7f;

Material withE(float youngsModulus, float damping = 0.0f) {
  Material m;
  m.youngsModulus = youngsModulus;
  m.damping = damping;
  return m;
}

// The beam with its start material on `backend`; `model` must outlive it.
std::unique_ptr<Simulator> makeSimulator(Backend backend, const test::BeamScene& beam, SolverKind kind,
                                         const ClContext& ctx) {
  if (backend == Backend::Cpu) return std::make_unique<CpuSimulator>(beam.model, beam.state, kind);
  auto sim = OpenClSimulator::create(beam.model, beam.state, kind, ctx);
  EXPECT_TRUE(sim.ok()) << sim.error().message;
  return sim.ok() ? std::move(*sim) : nullptr;
}

// Tip (the free end's vertices) mean y displacement, and kinetic energy.
struct Sample {
  double tipY = 0.0;
  double kinetic = 0.0;
};

Sample sample(Simulator& sim, const SimModel& model) {
  State s;
  EXPECT_TRUE(sim.readState(s).ok());
  Sample out;
  int tip = 0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    if (model.restPositions[i].x > 0.6f - 1e-4f) {
      out.tipY += double(s.x[i].y) - double(model.restPositions[i].y);
      ++tip;
    }
    const glm::vec3 v(s.v[i]);
    out.kinetic += 0.5 * double(model.mass[i]) * double(glm::dot(v, v));
  }
  out.tipY /= std::max(tip, 1);
  return out;
}

// Runs `frames` frames; before frame `editAt` sets the body's material to
// `edit` (editAt < 0: never). Returns the mean tip displacement over the
// frames from `averageFrom` on, and the kinetic energy summed over them.
Sample run(Backend backend, SolverKind kind, const Material& start, int editAt, const Material& edit, int frames,
           int averageFrom, const ClContext& ctx) {
  test::BeamScene beam = test::clampedBeam(start);
  SimModel& model = beam.model;
  std::unique_ptr<Simulator> sim = makeSimulator(backend, beam, kind, ctx);
  if (!sim) return {};
  const SolverSettings asked = test::smallBudget(kind);
  Sample total;
  for (int f = 0; f < frames; ++f) {
    if (f == editAt) model.materials.set(0, edit);
    // XPBD with the substeps the app raises it to for this material (its
    // Neo-Hookean shear limit; 5 substeps blow the stiff beam up).
    SolverSettings settings = asked;
    settings.step.substeps = planXpbdSubsteps(model, asked).used;
    StepDiagnostics d;
    EXPECT_TRUE(sim->step(settings, d).ok());
    if (f >= averageFrom) {
      const Sample s = sample(*sim, model);
      total.tipY += s.tipY / double(frames - averageFrom);
      total.kinetic += s.kinetic;
    }
  }
  return total;
}

class MaterialEdit : public ::testing::TestWithParam<std::tuple<Backend, SolverKind>> {};

// Stiffened 3 frames in (after every derived copy was made and used), the
// beam averages the stiff beam's sag over frames 20-50 (about 5 stiff periods,
// half a soft one), not the soft beam's, which is 100x larger statically and
// still in its first swing.
TEST_P(MaterialEdit, StiffnessEditReachesTheSolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const auto [backend, kind] = GetParam();
  const Material soft = withE(kSoftE), stiff = withE(kStiffE);
  const Sample edited = run(backend, kind, soft, 3, stiff, 50, 20, ctx);
  const Sample stiffAll = run(backend, kind, stiff, -1, stiff, 50, 20, ctx);
  const Sample softAll = run(backend, kind, soft, -1, soft, 50, 20, ctx);
  std::printf("[ %s %s ] mean tip y: edited %.4g, stiff %.4g, soft %.4g m\n", backendName(backend),
              solverName(kind), edited.tipY, stiffAll.tipY, softAll.tipY);
  ASSERT_LT(softAll.tipY, 5.0 * stiffAll.tipY) << "the soft beam must sag far more (both negative)";
  EXPECT_LT(std::abs(edited.tipY - stiffAll.tipY), 0.1 * std::abs(softAll.tipY - stiffAll.tipY));
}

// Damping switched on 3 frames in: k_d = 10 ms gives the first mode of the
// stiff beam the extra ratio k_d omega_1 / 2 = 0.3, so over frames 20-50 its
// amplitude decays by exp(-0.3 * 60 * 0.33) < 3e-3 more than without, and its
// kinetic energy (the square) far more; the first mode decays slowest of all
// (Rayleigh stiffness damping grows with omega), so the total follows it.
TEST_P(MaterialEdit, DampingEditReachesTheDampingPass) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const auto [backend, kind] = GetParam();
  const Material undamped = withE(kStiffE), damped = withE(kStiffE, 0.01f);
  const Sample edited = run(backend, kind, undamped, 3, damped, 50, 20, ctx);
  const Sample plain = run(backend, kind, undamped, -1, undamped, 50, 20, ctx);
  std::printf("[ %s %s ] kinetic energy over frames 20-50: damped from frame 3 %.3g J, undamped %.3g J\n",
              backendName(backend), solverName(kind), edited.kinetic, plain.kinetic);
  ASSERT_GT(plain.kinetic, 0.0);
  EXPECT_LT(edited.kinetic, 0.01 * plain.kinetic);
}

std::string caseName(const ::testing::TestParamInfo<MaterialEdit::ParamType>& info) {
  return std::string(backendName(std::get<0>(info.param))) + "_" + solverName(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, MaterialEdit,
                         ::testing::Combine(::testing::Values(Backend::Cpu, Backend::OpenCl),
                                            ::testing::Values(SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd,
                                                              SolverKind::Avbd)),
                         caseName);

}  // namespace
}  // namespace tetlab
