// GPU PBD/XPBD body contacts (shaders/cl/body_contact_pb.clh) against the CPU
// reference (core/cpu/constraints_body_contacts.cpp), one substep at a time
// from the same input: the host predicts (xPrev = x, xInertial = x + h v +
// h^2 g) and detects the contacts (detectBodyContacts), both backends get the
// same state and contact rows, run one solveSubstep / enqueueSubstep, and
// every vertex is compared as in the other parity tests (vbd_parity_util.h):
//
//   relative error = max_i |x_gpu_i - x_cpu_i| / D  <  1e-4,   D = diagonal of the CPU result.
//
// Both backends compute the contact pass as the same Jacobi gather (rows from
// the positions at the start of the pass, per-vertex sums in item order), so
// they differ only by float rounding; one substep is ~1e-7 of the size. The
// scenes are taken at a substep where contacts act: the CPU runs the scene
// until the predicted positions of a substep penetrate another body.
//
// The last test runs whole frames through OpenClSimulator (device detection,
// gpu/solvers/body_contact_detection_gpu.h, then this pass) against the CPU stepper
// with the same 1e-4 bound: detection picks the same rows from the same
// positions, so the runs part only by rounding as long as no near-tie in the
// choice of a contact triangle flips (body_contact_better's tolerance keeps
// ties stable against a few ulp).
#include <cmath>
#include <cstdio>
#include <functional>

#include <gtest/gtest.h>

#include "core/sim/body_contact_detection.h"
#include "gpu/solvers/device_body_contacts.h"
#include "gpu/solvers/opencl_simulator.h"
#include "tests/cpu/physics_scenes.h"
#include "vbd_parity_util.h"

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/body_contact.clh"

namespace tetlab {
namespace {

constexpr double kMaxRelativeError = 1e-4;

test::VbdScene twoBoxes(glm::vec3 minA, glm::vec3 sizeA, glm::uvec3 cellsA, glm::vec3 minB, glm::vec3 sizeB,
                        glm::uvec3 cellsB) {
  test::VbdScene s{phystest::buildTwoBoxes(minA, sizeA, cellsA, minB, sizeB, cellsB), {}};
  s.state = makeState(s.model);
  return s;
}

// The stepper's predict and detection (core/sim/stepper.cpp) on the host.
void predictAndDetect(const SimModel& model, const SolverSettings& settings, float h, State& state) {
  for (size_t i = 0; i < state.x.size(); ++i) {
    const glm::vec4 x = state.x[i];
    state.xPrev[i] = x;
    state.xInertial[i] =
        x.w > 0.0f ? glm::vec4(glm::vec3(x) + h * glm::vec3(state.v[i]) + (h * h) * settings.step.gravity, x.w) : x;
  }
  detectBodyContacts(model, settings.bodyContacts, state);
}

// Rows that penetrate at the predicted positions (the substep has work to do),
// and the deepest of them [m].
uint32_t penetratingRows(const State& s, float* outDeepest = nullptr) {
  const BodyContacts& c = s.bodyContacts;
  uint32_t n = 0;
  float deepest = 0.0f;
  for (size_t k = 0; k < c.ids.size(); ++k) {
    const glm::uvec4 id = c.ids[k];
    if (id.x == kNoContact) continue;
    const auto y = [&](uint32_t v) { return glm::vec3(s.xInertial[v]); };
    const float C = clm::body_contact_gap(y(id.x), y(id.y), y(id.z), y(id.w), glm::vec3(c.normal[k]),
                                          glm::vec3(c.weights[k]), c.normal[k].w);
    n += C < 0.0f;
    deepest = std::max(deepest, -C);
  }
  if (outDeepest) *outDeepest = deepest;
  return n;
}

// Runs the CPU stepper frame by frame until the next substep's prediction
// penetrates another body; returns that substep's input (predicted, detected).
State substepInContact(const test::VbdScene& scene, const SolverSettings& settings, float h) {
  auto solver = makeCpuSolver(settings.solver);
  State state = scene.state;
  solver->reset(scene.model, state);
  for (int f = 0; f < 200; ++f) {
    State probe = state;
    predictAndDetect(scene.model, settings, h, probe);
    if (penetratingRows(probe) > 0) return probe;
    StepDiagnostics diag;
    stepSimulation(scene.model, settings, *solver, state, diag);
    EXPECT_TRUE(diag.finite) << diag.problem;
  }
  ADD_FAILURE() << "the bodies never came into contact";
  return state;
}

struct SubstepResult {
  test::VbdComparison cmp;
  double contactEffect = 0.0;  // max |x_cpu - x_cpu without body contacts| [m]
  uint32_t bodyContactLaunches = 0;
};

SubstepResult compareOneSubstep(const ClContext& ctx, const SimModel& model, const State& input,
                                const SolverSettings& settings, float h) {
  SubstepResult out;
  auto cpu = makeCpuSolver(settings.solver);
  State cpuState = input;
  cpu->reset(model, cpuState);
  StepDiagnostics diag;
  cpu->solveSubstep(model, settings, h, cpuState, diag);

  SolverSettings off = settings;
  off.step.constraints.bodyContacts = false;
  State offState = input;
  cpu->reset(model, offState);
  cpu->solveSubstep(model, off, h, offState, diag);

  auto device = createDeviceState(ctx, model, input);
  EXPECT_TRUE(device.ok()) << device.error().message;
  if (!device.ok()) return out;
  auto gpu = makeGpuSolver(settings.solver, ctx, model, *device);
  EXPECT_TRUE(gpu.ok()) << gpu.error().message;
  if (!gpu.ok()) return out;
  State upload = input;
  upload.lambda = cpuState.lambda;  // the solver's layout (PBD keeps k there, XPBD clears it)
  EXPECT_TRUE(uploadState(ctx, model, *device, upload).ok());
  Status st = uploadBodyContacts(ctx, input.bodyContacts, device->bodyContacts);
  EXPECT_TRUE(st.ok()) << st.error().message;
  Profiler profiler;
  EXPECT_EQ((*gpu)->enqueueSubstep(ctx, settings, h, *device, profiler), CL_SUCCESS);
  const StepStats stats = profiler.resolve();
  EXPECT_TRUE(stats.valid) << "profiling events of the substep";
  if (const StageTime* t = stats.find("body contact solve")) out.bodyContactLaunches = t->launches;
  State gpuState;
  EXPECT_TRUE(downloadState(ctx, *device, gpuState).ok());

  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (size_t i = 0; i < cpuState.x.size(); ++i) {
    const glm::vec3 c(cpuState.x[i]), g(gpuState.x[i]);
    lo = glm::min(lo, c);
    hi = glm::max(hi, c);
    out.cmp.maxError = std::max(out.cmp.maxError, double(glm::length(g - c)));
    out.cmp.maxDisplacement = std::max(out.cmp.maxDisplacement, double(glm::length(c - glm::vec3(input.x[i]))));
    out.contactEffect = std::max(out.contactEffect, double(glm::length(c - glm::vec3(offState.x[i]))));
    out.cmp.finite = out.cmp.finite && std::isfinite(g.x) && std::isfinite(g.y) && std::isfinite(g.z);
  }
  out.cmp.diagonal = glm::length(hi - lo);
  return out;
}

struct Variant {
  const char* name;
  SolverKind kind;
  PbdScheme scheme;
};
const Variant kVariants[] = {{"XPBD", SolverKind::Xpbd, PbdScheme::GaussSeidel},
                             {"PBD Gauss-Seidel", SolverKind::Pbd, PbdScheme::GaussSeidel},
                             {"PBD Jacobi", SolverKind::Pbd, PbdScheme::Jacobi}};

// For every variant: find the contact substep of the scene, compare, and
// check the contacts did something: the hard rows must undo a good part
// (> 1/4) of the deepest penetration of the predicted positions.
void checkScene(const ClContext& ctx, const std::function<test::VbdScene()>& makeScene,
                const std::function<void(SolverSettings&)>& configure) {
  for (const Variant& v : kVariants)
    for (GpuSchedule schedule : {GpuSchedule::PerColor, GpuSchedule::OneGroup}) {
      SCOPED_TRACE(v.name);
      SCOPED_TRACE(schedule == GpuSchedule::PerColor ? "per colour" : "one group");
      SolverSettings s;
      s.solver = v.kind;
      s.pbd.scheme = v.scheme;
      s.step.gpuSchedule = schedule;  // one group: the substep's projection in one launch (pb_group.clh)
      configure(s);
      const float h = s.step.dt / float(s.step.substeps);
      const test::VbdScene scene = makeScene();
      const State input = substepInContact(scene, s, h);
      const SubstepResult r = compareOneSubstep(ctx, scene.model, input, s, h);
      float deepest = 0.0f;
      const uint32_t penetrating = penetratingRows(input, &deepest);
      std::printf("  %s: %u contacts (%u penetrating, deepest %.3g m), contact effect %.3g m\n", v.name,
                  input.bodyContacts.active, penetrating, deepest, r.contactEffect);
      EXPECT_VBD_PARITY(r.cmp, 0.0, kMaxRelativeError);
      EXPECT_GT(r.contactEffect, 0.25 * deepest) << "the contacts did not act: the test is vacuous";
      if (schedule == GpuSchedule::PerColor)
        EXPECT_EQ(r.bodyContactLaunches, 3u * uint32_t(s.step.iterations)) << "rows, shares, apply per iteration";
    }
}

// The block of BlockComesToRestOnAnotherBody dropped from 30 cm onto the slab:
// the substep of impact at sqrt(2 g 0.28 m) = 2.3 m/s.
TEST(BodyContactPositionBasedGpuParity, BlockLandingOnASlab) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  checkScene(
      ctx,
      [] {
        return twoBoxes({-0.15f, 0.0f, -0.15f}, {0.3f, 0.1f, 0.3f}, {3, 1, 3}, {-0.05f, 0.38f, -0.05f},
                        glm::vec3(0.1f), {2, 2, 2});
      },
      [](SolverSettings&) {});
}

// Head-on collision in free space at 1 m/s (two-sided rows: both bodies move).
TEST(BodyContactPositionBasedGpuParity, HeadOnCollisionInFreeSpace) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  checkScene(
      ctx,
      [] {
        test::VbdScene s = twoBoxes({-0.12f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}, {0.0f, 0.0f, -0.05f},
                                    glm::vec3(0.1f), {2, 2, 2});
        for (uint32_t i = 0; i < s.model.vertexCount(); ++i)
          if (s.model.vertexBody[i] == 0) s.state.v[i] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
        return s;
      },
      [](SolverSettings& s) {
        s.step.gravity = glm::vec3(0.0f);
        s.colliders.ground.enabled = false;
      });
}

// A block thrown at (1, -0.5, 0) m/s onto a pinned slab with mu = 0.5 from
// 5 mm above it: normal rows with kinetic friction against pinned corners
// (w = 0).
TEST(BodyContactPositionBasedGpuParity, SlidingBlockWithFrictionOnAPinnedSlab) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  checkScene(
      ctx,
      [] {
        test::VbdScene s = twoBoxes({-0.3f, 0.0f, -0.2f}, {1.0f, 0.1f, 0.4f}, {10, 1, 4},
                                    {-0.25f, 0.105f, -0.05f}, glm::vec3(0.1f), {2, 2, 2});
        for (uint32_t i = 0; i < s.model.vertexCount(); ++i) {
          if (s.model.vertexBody[i] == 0) s.state.x[i].w = 0.0f;
          else s.state.v[i] = glm::vec4(1.0f, -0.5f, 0.0f, 0.0f);
        }
        return s;
      },
      [](SolverSettings& s) {
        s.bodyContacts.friction = 0.5f;
        s.colliders.ground.enabled = false;
      });
}

// With the toggle off the GPU launches nothing for body contacts, even with
// rows on the device, and matches the CPU without them.
TEST(BodyContactPositionBasedGpuParity, ToggleOffLaunchesNothing) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(v.name);
    SolverSettings s;
    s.solver = v.kind;
    s.pbd.scheme = v.scheme;
    s.step.gpuSchedule = GpuSchedule::PerColor;  // the launch count is the per-colour script's
    const float h = s.step.dt / float(s.step.substeps);
    const test::VbdScene scene = twoBoxes({-0.15f, 0.0f, -0.15f}, {0.3f, 0.1f, 0.3f}, {3, 1, 3},
                                          {-0.05f, 0.38f, -0.05f}, glm::vec3(0.1f), {2, 2, 2});
    const State input = substepInContact(scene, s, h);  // rows found with the toggle on
    s.step.constraints.bodyContacts = false;
    const SubstepResult r = compareOneSubstep(ctx, scene.model, input, s, h);
    EXPECT_EQ(r.bodyContactLaunches, 0u);
    EXPECT_VBD_PARITY(r.cmp, 0.0, kMaxRelativeError);
    EXPECT_EQ(r.contactEffect, 0.0) << "the CPU with the toggle off is its own reference";
  }
}

// BlockComesToRestOnAnotherBody (tests/cpu/body_contact_physics_test.cpp) for
// 60 frames: the 10 cm block falls 2 cm onto the slab, lands and settles,
// every frame with device detection; compared every 10 frames.
TEST(BodyContactPositionBasedGpuParity, BlockComesToRestThroughOpenClSimulator) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(v.name);
    SolverSettings s;
    s.solver = v.kind;
    s.pbd.scheme = v.scheme;
    const test::VbdScene scene = twoBoxes({-0.15f, 0.0f, -0.15f}, {0.3f, 0.1f, 0.3f}, {3, 1, 3},
                                          {-0.05f, 0.12f, -0.05f}, glm::vec3(0.1f), {2, 2, 2});
    auto cpu = makeCpuSolver(v.kind);
    State cpuState = scene.state;
    cpu->reset(scene.model, cpuState);
    auto sim = OpenClSimulator::create(scene.model, scene.state, v.kind, ctx);
    ASSERT_TRUE(sim.ok()) << sim.error().message;
    test::VbdComparison cmp;
    std::vector<glm::vec4> gpuX;
    uint32_t contacts = 0;
    double solveMs = 0.0, detectMs = 0.0, totalMs = 0.0;
    std::printf("  %s: relative error every 10 frames:", v.name);
    for (int f = 1; f <= 60; ++f) {
      StepDiagnostics diag;
      stepSimulation(scene.model, s, *cpu, cpuState, diag);
      ASSERT_TRUE(diag.finite) << diag.problem;
      contacts = std::max(contacts, diag.bodyContacts);
      ASSERT_TRUE((*sim)->step(s).ok());
      const StepStats t = (*sim)->takeTimings();  // device time per stage (printed, never asserted)
      for (const StageTime& st : t.stages) {
        if (st.name == "body contact solve") solveMs += st.ms;
        if (st.name == "body contacts") detectMs += st.ms;
      }
      totalMs += t.totalMs;
      if (f % 10 != 0) continue;
      ASSERT_TRUE((*sim)->downloadPositions(gpuX).ok());
      glm::vec3 lo(INFINITY), hi(-INFINITY);
      cmp.maxError = 0.0;
      for (size_t i = 0; i < cpuState.x.size(); ++i) {
        const glm::vec3 c(cpuState.x[i]), g(gpuX[i]);
        lo = glm::min(lo, c);
        hi = glm::max(hi, c);
        cmp.maxError = std::max(cmp.maxError, double(glm::length(g - c)));
        cmp.maxDisplacement = std::max(cmp.maxDisplacement, double(glm::length(c - glm::vec3(scene.state.x[i]))));
      }
      cmp.diagonal = glm::length(hi - lo);
      std::printf(" %.2g", cmp.relative());
    }
    std::printf(" (%u contacts)\n  device time per frame: %.3f ms, of which detection %.3f ms, contact pass %.3f ms\n",
                contacts, totalMs / 60.0, detectMs / 60.0, solveMs / 60.0);
    auto bad = (*sim)->readBadVertex();
    cmp.finite = bad.ok() && *bad == -1;
    EXPECT_GT(contacts, 0u);
    EXPECT_VBD_PARITY(cmp, 0.015, kMaxRelativeError);  // the block fell the 2 cm gap (less the thickness)
  }
}

}  // namespace
}  // namespace tetlab
