// GPU PBD/XPBD against the CPU reference (core/cpu): same model, same
// settings, 100 frames, then every vertex compared. Both backends visit the
// constraints in the same order (colour Gauss-Seidel, or Jacobi with the same
// per-vertex sums), so the only differences are float roundings (fused or
// reordered operations, the device's dot/sqrt/expm1). The bound:
//
//   relative error = max_i |x_gpu_i - x_cpu_i| / D  <  1e-4,
//
// D = the diagonal of the CPU result's bounding box (the body's size). A
// stable elastic solve does not amplify roundings exponentially; 1e-4 is
// ~1000 float ulps of the coordinates, the budget for 100 frames x substeps x
// iterations of accumulated rounding.
#include <cmath>
#include <cstdio>
#include <limits>

#include <gtest/gtest.h>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/gpu_solver_factory.h"
#include "gpu/solvers/gpu_stepper.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

constexpr double kMaxRelativeError = 1e-4;

struct Scene {
  SimModel model;
  State state;
};

// A 0.6 m x 0.15 m x 0.15 m beam, clamped at x = 0, above the ground.
Scene beam(float youngs = 2.0e5f, float poisson = 0.3f, float damping = 0.0f) {
  Material m;
  m.youngsModulus = youngs;
  m.poissonRatio = poisson;
  m.density = 1000.0f;
  m.damping = damping;
  BodyDesc body{makeBoxTetMesh(glm::vec3(0.0f, 0.3f, 0.0f), glm::vec3(0.6f, 0.15f, 0.15f), glm::uvec3(6, 2, 2)), m,
                "beam"};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << model.error().message;
  Scene s{std::move(*model), {}};
  s.state = makeState(s.model);
  pinVertices(s.model, s.state, [](glm::vec3 p) { return p.x < 1e-4f; });
  return s;
}

// A free box dropped onto the ground and the analytic colliders.
Scene droppedBox() {
  BodyDesc body{makeBoxTetMesh(glm::vec3(-0.1f, 0.25f, -0.1f), glm::vec3(0.2f), glm::uvec3(2, 2, 2)), Material{},
                "box"};
  body.material.youngsModulus = 5.0e4f;
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << model.error().message;
  Scene s{std::move(*model), {}};
  s.state = makeState(s.model);
  for (glm::vec4& v : s.state.v) v = glm::vec4(0.4f, -1.0f, 0.2f, 0.0f);
  return s;
}

struct Comparison {
  double maxError = 0.0;
  double diagonal = 0.0;
  double maxDisplacement = 0.0;  // how far the CPU result moved from the start: the test is not vacuous
  double relative() const { return maxError / diagonal; }
};

using GpuFactory = Result<std::unique_ptr<GpuSolver>> (*)(const ClContext&, const KernelSourceOptions&);

Result<std::unique_ptr<GpuSolver>> makeXpbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source) {
  return makeGpuSolver(SolverKind::Xpbd, ctx, source);
}
Result<std::unique_ptr<GpuSolver>> makePbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source) {
  return makeGpuSolver(SolverKind::Pbd, ctx, source);
}

Comparison runBoth(const ClContext& ctx, Scene scene, const SolverSettings& settings, GpuFactory factory,
                   int frames = 100) {
  Comparison out;
  std::unique_ptr<Solver> cpu = makeCpuSolver(settings.solver);
  State cpuState = scene.state;
  cpu->reset(scene.model, cpuState);

  auto device = createDeviceState(ctx, scene.model, scene.state);
  EXPECT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  EXPECT_TRUE(stepper.ok()) << stepper.error().message;
  auto gpu = factory(ctx, {});
  EXPECT_TRUE(gpu.ok()) << gpu.error().message;
  if (!device.ok() || !stepper.ok() || !gpu.ok()) return out;
  Status reset = (*gpu)->reset(ctx, scene.model, *device);
  EXPECT_TRUE(reset.ok()) << reset.error().message;
  (*gpu)->setAttachment(scene.state.mouse);

  Profiler profiler;
  for (int f = 0; f < frames; ++f) {
    StepDiagnostics diag;
    stepSimulation(scene.model, settings, *cpu, cpuState, diag);
    EXPECT_TRUE(diag.finite) << diag.problem;
    Status st = stepper->enqueueStep(ctx, scene.model, settings, **gpu, *device, profiler);
    EXPECT_TRUE(st.ok()) << st.error().message;
    profiler.discard();
  }
  std::vector<glm::vec4> gpuX;
  EXPECT_TRUE(downloadPositions(ctx, *device, gpuX).ok());
  auto bad = stepper->readBadVertex(ctx);
  EXPECT_TRUE(bad.ok() && *bad == -1);

  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (size_t i = 0; i < cpuState.x.size(); ++i) {
    const glm::vec3 c(cpuState.x[i]), g(gpuX[i]);
    lo = glm::min(lo, c);
    hi = glm::max(hi, c);
    out.maxError = std::max(out.maxError, double(glm::length(g - c)));
    out.maxDisplacement = std::max(out.maxDisplacement, double(glm::length(c - glm::vec3(scene.state.x[i]))));
    EXPECT_EQ(gpuX[i].w, cpuState.x[i].w) << "inverse mass of vertex " << i;
  }
  out.diagonal = glm::length(hi - lo);
  return out;
}

SolverSettings baseSettings(SolverKind kind) {
  SolverSettings s;
  s.solver = kind;
  s.step.substeps = 5;
  s.step.iterations = 3;
  return s;
}

#define EXPECT_PARITY(cmp, minMove)                                                                \
  do {                                                                                            \
    std::printf("  parity: max |dx| %.3g m, relative %.3g, CPU moved %.3g m\n", (cmp).maxError,         \
                (cmp).relative(), (cmp).maxDisplacement);                                         \
    EXPECT_GT((cmp).maxDisplacement, (minMove)) << "the scene did not move: the test is vacuous"; \
    EXPECT_LT((cmp).relative(), kMaxRelativeError)                                                \
        << "max |dx| = " << (cmp).maxError << " m over a body of " << (cmp).diagonal << " m";     \
  } while (0)

TEST(XpbdGpuParity, NeoHookeanBeamWithDamping) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  SolverSettings s = baseSettings(SolverKind::Xpbd);
  s.step.constraints.neoHookean = true;
  Comparison c = runBoth(ctx, beam(2.0e5f, 0.3f, 0.01f), s, makeXpbdSolverGpu);
  EXPECT_PARITY(c, 0.01);
}

TEST(XpbdGpuParity, EdgesVolumeAndStrainBasedBeam) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  SolverSettings s = baseSettings(SolverKind::Xpbd);
  s.step.constraints.neoHookean = false;
  s.step.constraints.edges = true;
  s.step.constraints.tetVolume = true;
  s.step.constraints.strainBased = true;
  s.positionBased.stretchScale = glm::vec3(1.0f, 0.5f, 0.0f);  // a zero scale disables that constraint
  s.xpbd.complianceScale = 0.5f;
  Comparison c = runBoth(ctx, beam(), s, makeXpbdSolverGpu);
  EXPECT_PARITY(c, 0.01);
}

TEST(PositionBasedGpuParity, TethersAndCappedMouseAttachmentBothSolvers) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (SolverKind kind : {SolverKind::Xpbd, SolverKind::Pbd}) {
    SCOPED_TRACE(kind == SolverKind::Xpbd ? "XPBD" : "PBD");
    SolverSettings s = baseSettings(kind);
    s.step.constraints.tethers = true;
    s.positionBased.tetherSlack = 0.05f;
    Scene scene = beam(5.0e4f);
    // Drag the tip corner up and sideways with a force cap that binds.
    const uint32_t tip = scene.model.vertexCount() - 1;
    scene.state.mouse.active = true;
    scene.state.mouse.vertices = {tip, tip - 1};
    scene.state.mouse.weights = {0.75f, 0.25f};
    scene.state.mouse.target = glm::vec3(scene.model.restPositions[tip]) + glm::vec3(0.0f, 0.3f, 0.2f);
    scene.state.mouse.stiffness = 2.0e3f;
    scene.state.mouse.maxForce = 5.0f;
    Comparison c = runBoth(ctx, scene, s, kind == SolverKind::Xpbd ? makeXpbdSolverGpu : makePbdSolverGpu, 60);
    EXPECT_PARITY(c, 0.01);
  }
}

TEST(XpbdGpuParity, ContactsWithGroundAndEveryColliderKind) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  SolverSettings s = baseSettings(SolverKind::Xpbd);
  s.colliders.ground.height = 0.0f;
  s.colliders.ground.friction = 0.6f;
  s.colliders.spheres.push_back({glm::vec3(0.05f, 0.1f, 0.0f), 0.08f, 0.3f});
  BoxCollider box;
  box.center = glm::vec3(-0.15f, 0.05f, 0.05f);
  box.halfExtents = glm::vec3(0.06f, 0.05f, 0.08f);
  const float a = 0.4f;
  box.rotation = glm::mat3(glm::vec3(std::cos(a), 0.0f, -std::sin(a)), glm::vec3(0.0f, 1.0f, 0.0f),
                           glm::vec3(std::sin(a), 0.0f, std::cos(a)));
  s.colliders.boxes.push_back(box);
  s.colliders.capsules.push_back({glm::vec3(-0.2f, 0.04f, -0.2f), glm::vec3(0.2f, 0.04f, -0.1f), 0.04f, 0.5f});
  s.positionBased.contactOffset = 0.002f;
  Comparison c = runBoth(ctx, droppedBox(), s, makeXpbdSolverGpu);
  EXPECT_PARITY(c, 0.1);
}

TEST(PbdGpuParity, GaussSeidelBeamEveryMapping) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (PbdStiffnessMapping mapping :
       {PbdStiffnessMapping::MatchXpbd, PbdStiffnessMapping::FrequencyIndependent, PbdStiffnessMapping::PerIteration}) {
    SolverSettings s = baseSettings(SolverKind::Pbd);
    s.pbd.mapping = mapping;
    s.step.constraints.edges = true;  // with neoHookean: PBD's strain-based + volume set, plus edges
    Comparison c = runBoth(ctx, beam(), s, makePbdSolverGpu, 40);
    SCOPED_TRACE(int(mapping));
    EXPECT_PARITY(c, 0.004);  // PerIteration is the stiffest mapping: the beam sags ~6 mm
  }
}

TEST(PbdGpuParity, JacobiBeamAndDroppedBox) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  SolverSettings s = baseSettings(SolverKind::Pbd);
  s.pbd.scheme = PbdScheme::Jacobi;
  s.pbd.jacobiOmega = 1.5f;
  s.step.constraints.edges = true;
  Comparison c = runBoth(ctx, beam(), s, makePbdSolverGpu);
  EXPECT_PARITY(c, 0.01);
  Comparison d = runBoth(ctx, droppedBox(), s, makePbdSolverGpu);
  EXPECT_PARITY(d, 0.1);
}

}  // namespace
}  // namespace tetlab
