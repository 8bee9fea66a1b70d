// Body-contact detection on the device (gpu/solvers/body_contact_detection_gpu.h)
// against the CPU detection (core/sim/body_contact_detection.h), which is the
// rule: on the same prediction y both must choose the same triangle per slot
// (ids exact), with normal and weights equal to float rounding, the same
// active/overflow counts and the same items per vertex in the same order
// (ascending; the K smallest when a vertex has more, whatever order the
// device's work-items ran in). Also: the grid table's overflow
// path (exact result through the all-triangles fallback, reported, then
// grown), and the stepper running detection in every substep.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "tests/cpu/physics_scenes.h"
#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/body_contact_detection.h"
#include "core/sim/state_setup.h"
#include "gpu/solvers/body_contact_detection_gpu.h"
#include "gpu/solvers/device_state.h"
#include "gpu/solvers/gpu_stepper.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

// Normals are unit vectors and weights lie in [0, 1]; both sides evaluate the
// same float expressions (shaders/cl/common/body_contact.clh), so they differ
// only by the rounding of OpenCL's builtins (a few ulp, 2.5 ulp division):
// far below 1e-5.
constexpr float kTol = 1e-5f;

using phystest::buildBodies;
using phystest::stackedBoxes;

// The device pieces of one detection: state, detector, a profiler.
struct DeviceDetection {
  const SimModel* model = nullptr;
  DeviceState state;
  BodyContactDetectorGpu detector;
  Profiler profiler;
  StageId stage = 0;
};

std::unique_ptr<DeviceDetection> makeDeviceDetection(const ClContext& ctx, const SimModel& model, const State& state,
                                                     BodyContactGridSize size = {}) {
  auto device = createDeviceState(ctx, model, state);
  EXPECT_TRUE(device.ok()) << (device.ok() ? "" : device.error().message);
  auto detector = BodyContactDetectorGpu::create(ctx, {}, size);
  EXPECT_TRUE(detector.ok()) << (detector.ok() ? "" : detector.error().message);
  if (!device || !detector) return nullptr;
  auto d = std::unique_ptr<DeviceDetection>(
      new DeviceDetection{&model, std::move(*device), std::move(*detector), Profiler{}, 0});
  d->stage = d->profiler.addStage(Stage::BodyContacts);
  return d;
}

// Uploads y (state.xInertial), detects on the device, reads the contacts back.
BodyContacts detectOnDevice(const ClContext& ctx, DeviceDetection& d, const State& state,
                            const BodyContactParams& params, BodyContactDetectionStats* outStats = nullptr) {
  BodyContacts out;
  EXPECT_TRUE(uploadState(ctx, *d.model, d.state, state).ok());
  Status st = d.detector.enqueue(ctx, params, d.state, d.profiler, d.stage);
  EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message);
  Status read = downloadBodyContacts(ctx, d.state.bodyContacts, out);
  EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message);
  auto stats = d.detector.readStats(ctx, d.state.bodyContacts);
  EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().message);
  if (outStats && stats) *outStats = *stats;
  d.profiler.discard();
  return out;
}

std::vector<uint32_t> itemsOf(const BodyContacts& c, uint32_t v) {
  const auto first = c.vertexItems.begin() + ptrdiff_t(size_t(v) * kMaxContactsPerVertex);
  // Unsorted: the device keeps the CPU's order (ascending items, the K smallest
  // when a vertex has more), so the solvers sum a vertex's contacts alike.
  return std::vector<uint32_t>(first, first + c.vertexCount[v]);
}

void expectSameSlots(const BodyContacts& cpu, const BodyContacts& gpu) {
  ASSERT_EQ(gpu.ids.size(), cpu.ids.size());
  EXPECT_EQ(gpu.active, cpu.active);
  EXPECT_EQ(gpu.overflow, cpu.overflow);
  for (size_t s = 0; s < cpu.ids.size(); ++s) {
    ASSERT_EQ(gpu.ids[s], cpu.ids[s]) << "slot " << s;
    if (cpu.ids[s].x == kNoContact) continue;
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(gpu.normal[s][k], cpu.normal[s][k], kTol) << "slot " << s << " normal " << k;
      EXPECT_NEAR(gpu.weights[s][k], cpu.weights[s][k], kTol) << "slot " << s << " weight " << k;
    }
  }
}

// Same slots, and the same items in the same order under every vertex.
void expectSameContacts(const BodyContacts& cpu, const BodyContacts& gpu) {
  expectSameSlots(cpu, gpu);
  ASSERT_EQ(gpu.vertexCount.size(), cpu.vertexCount.size());
  for (uint32_t v = 0; v < cpu.vertexCount.size(); ++v) {
    ASSERT_EQ(gpu.vertexCount[v], cpu.vertexCount[v]) << "vertex " << v;
    EXPECT_EQ(itemsOf(gpu, v), itemsOf(cpu, v)) << "vertex " << v;
  }
}

BodyContacts detectOnCpu(const SimModel& model, const BodyContactParams& params, State state) {
  detectBodyContacts(model, params, state);
  return state.bodyContacts;
}

// Detects on the CPU and on the device (default table) and expects the same
// contacts; returns the CPU's for the caller's own checks.
BodyContacts expectDeviceMatchesCpu(const ClContext& ctx, const SimModel& model, const State& state,
                                    const BodyContactParams& params, BodyContactDetectionStats* stats = nullptr) {
  const BodyContacts cpu = detectOnCpu(model, params, state);
  auto d = makeDeviceDetection(ctx, model, state);
  EXPECT_TRUE(d);
  if (d) expectSameContacts(cpu, detectOnDevice(ctx, *d, state, params, stats));
  return cpu;
}

TEST(BodyContactDetectionGpu, StackedBoxesMatchTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = stackedBoxes(0.01f);
  const State state = makeState(model);
  BodyContactParams params;
  params.searchRadius = 0.02f;
  const BodyContacts cpu = expectDeviceMatchesCpu(ctx, model, state, params);
  ASSERT_EQ(cpu.active, 18u);  // 3 x 3 facing vertices on each box
}

TEST(BodyContactDetectionGpu, OverlappingSpheresMatchTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  // Off the cell origin and of different resolution: contacts at every orientation.
  const SimModel model = buildBodies(
      {makeSphereTetMesh({0.013f, 0.27f, -0.031f}, 0.3f, 8), makeSphereTetMesh({0.51f, 0.33f, 0.07f}, 0.22f, 6)});
  const State state = makeState(model);
  BodyContactParams params;
  params.searchRadius = 0.04f;
  BodyContactDetectionStats stats;
  const BodyContacts cpu = expectDeviceMatchesCpu(ctx, model, state, params, &stats);
  ASSERT_GT(cpu.active, 10u);
  EXPECT_EQ(stats.fallbackSubsteps, 0u) << stats.message;  // the default table holds this scene
  EXPECT_EQ(stats.active, cpu.active);
}

TEST(BodyContactDetectionGpu, SelfCollisionOfAFoldedSlabMatchesTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = buildBodies({makeBoxTetMesh({0, 0, 0}, {2, 0.1f, 0.5f}, {8, 1, 2})});
  State state = makeState(model);
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::vec3 r = model.restPositions[i];
    if (r.x > 1.2f) state.xInertial[i] = glm::vec4(r.x - 1.2f, 0.11f + (0.1f - r.y), r.z, state.x[i].w);
  }
  BodyContactParams params;
  params.searchRadius = 0.02f;
  params.selfCollision = true;
  const BodyContacts cpu = expectDeviceMatchesCpu(ctx, model, state, params);
  ASSERT_GT(cpu.active, 0u);
}

TEST(BodyContactDetectionGpu, SeparatedBodiesClearEveryListOnTheSameBuffers) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = stackedBoxes(0.005f);
  State state = makeState(model);
  const BodyContactParams params;
  auto d = makeDeviceDetection(ctx, model, state);
  ASSERT_TRUE(d);
  const BodyContacts touching = detectOnDevice(ctx, *d, state, params);
  expectSameContacts(detectOnCpu(model, params, state), touching);
  ASSERT_GT(touching.active, 0u);
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.vertexBody[i] == 1) state.xInertial[i].y += 1.0f;
  const BodyContacts apart = detectOnDevice(ctx, *d, state, params);
  EXPECT_EQ(apart.active, 0u);
  EXPECT_EQ(apart.overflow, 0u);
  for (const glm::uvec4& id : apart.ids) EXPECT_EQ(id.x, kNoContact);
  for (uint32_t v = 0; v < model.vertexCount(); ++v) EXPECT_EQ(apart.vertexCount[v], 0u);
}

// Four spheres of 8 cells across, each overlapping its neighbours, offset from
// the grid origin.
SimModel fourSpheres() {
  std::vector<TetMesh> meshes;
  for (int i = 0; i < 4; ++i) {
    const glm::vec3 c(0.017f + 0.37f * float(i % 2), 0.21f + 0.36f * float(i / 2), -0.013f + 0.05f * float(i));
    meshes.push_back(makeSphereTetMesh(c, 0.2f, 8));
  }
  return buildBodies(std::move(meshes));
}

TEST(BodyContactDetectionGpu, FourOverlappingSpheresMatchTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = fourSpheres();
  const State state = makeState(model);
  BodyContactParams params;
  params.searchRadius = 0.03f;
  const BodyContacts cpu = expectDeviceMatchesCpu(ctx, model, state, params);
  ASSERT_GT(cpu.active, 40u);
}

TEST(BodyContactDetectionGpu, JitteredInterpenetratingSpheresMatchTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  // Deformed, non-planar surfaces pushed into each other: every vertex of the
  // prediction moved by up to 8 mm (fixed seed), bodies 1 and 3 shifted 2 cm
  // towards the others, so contacts sit at every orientation and depth.
  const SimModel model = fourSpheres();
  State state = makeState(model);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> jitter(-0.008f, 0.008f);
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    glm::vec4& y = state.xInertial[i];
    y += glm::vec4(jitter(rng), jitter(rng), jitter(rng), 0.0f);
    if (model.vertexBody[i] % 2 == 1) y.x -= 0.02f;
  }
  BodyContactParams params;
  params.searchRadius = 0.03f;
  const BodyContacts cpu = expectDeviceMatchesCpu(ctx, model, state, params);
  ASSERT_GT(cpu.active, 100u);
}

TEST(BodyContactDetectionGpu, TinyTableOverflowsIsReportedStaysExactAndGrows) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = fourSpheres();
  const State state = makeState(model);
  BodyContactParams params;
  params.searchRadius = 0.03f;
  const BodyContacts cpu = detectOnCpu(model, params, state);
  // 64 entries cannot hold one entry per triangle; 16 buckets put many cells in each.
  auto d = makeDeviceDetection(ctx, model, state, BodyContactGridSize{64, 16});
  ASSERT_TRUE(d);
  BodyContactDetectionStats first;
  expectSameContacts(cpu, detectOnDevice(ctx, *d, state, params, &first));
  EXPECT_EQ(first.fallbackSubsteps, 1u);
  EXPECT_GT(first.peakEntries, 64u);
  EXPECT_TRUE(first.grew);
  EXPECT_GE(first.entryCapacity, first.peakEntries);
  EXPECT_EQ(first.tableSize, 16u);  // fixed by the test
  EXPECT_NE(first.message.find("testing every triangle"), std::string::npos) << first.message;
  // Grown: the grid serves the next detection, through 16 crowded buckets.
  BodyContactDetectionStats second;
  expectSameContacts(cpu, detectOnDevice(ctx, *d, state, params, &second));
  EXPECT_EQ(second.fallbackSubsteps, 0u) << second.message;
  EXPECT_TRUE(second.message.empty());
  EXPECT_LE(second.peakEntries, second.entryCapacity);
}

TEST(BodyContactDetectionGpu, PerVertexOverflowKeepsTheSameItemsAsTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  // A fine box (81 bottom vertices) on a coarse one (top face: 2 triangles):
  // the coarse top corners are in far more than K contacts. The CPU keeps the
  // first K by slot; the device must keep the same ones, in the same order,
  // although on a GPU the slots arrive in any order.
  const SimModel model = buildBodies({makeBoxTetMesh({0, 0, 0}, {1, 0.5f, 1}, {1, 1, 1}),
                                      makeBoxTetMesh({0, 0.505f, 0}, {1, 0.2f, 1}, {8, 1, 8})});
  const State state = makeState(model);
  const BodyContactParams params;
  const BodyContacts cpu = detectOnCpu(model, params, state);
  ASSERT_GT(cpu.overflow, 0u);
  auto d = makeDeviceDetection(ctx, model, state);
  ASSERT_TRUE(d);
  const BodyContacts gpu = detectOnDevice(ctx, *d, state, params);
  expectSameContacts(cpu, gpu);
  uint32_t fullLists = 0;
  for (uint32_t v = 0; v < model.vertexCount(); ++v) fullLists += cpu.vertexCount[v] == kMaxContactsPerVertex;
  EXPECT_GT(fullLists, 0u);
}

// The stepper's substep loop with a solver that takes the prediction as is
// (x = y), so the final device state is known without a real solver.
class InertialGpuSolver final : public GpuSolver {
 public:
  SolverKind kind() const override { return SolverKind::Pbd; }
  Status reset(const ClContext&, const SimModel&, DeviceState&) override { return Ok{}; }
  cl_int enqueueSubstep(const ClContext& ctx, const SolverSettings&, float, DeviceState& state,
                        Profiler& profiler) override {
    return ctx.queue.enqueueCopyBuffer(state.xInertial.buffer(), state.x.buffer(), 0, 0, state.x.bytes(), nullptr,
                                       profiler.record(profiler.addStage(Stage::Init, "init guess")));
  }
  void setAttachment(const Attachment&) override {}
  std::string pollKernels() override { return {}; }
};

TEST(BodyContactDetectionGpu, StepperDetectsInEverySubstepAndClearsWhenToggledOff) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  // The upper box falls at 1 m/s from a gap of 0.025 m, no gravity: the first
  // substep's prediction is beyond r = 0.02 m, the last one's is within it, so
  // contacts after one frame prove detection ran after a later predict.
  const float gap = 0.025f;
  const SimModel model = stackedBoxes(gap);
  State state = makeState(model);
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.vertexBody[i] == 1) state.v[i] = glm::vec4(0.0f, -1.0f, 0.0f, 0.0f);
  SolverSettings settings;
  settings.step.gravity = glm::vec3(0.0f);
  settings.step.velocityDamping = 0.0f;
  settings.step.dt = 1.0f / 60.0f;
  settings.step.substeps = 4;
  settings.bodyContacts.searchRadius = 0.02f;
  {
    State first = state;  // the first substep's prediction finds nothing
    const float h = settings.step.dt / float(settings.step.substeps);
    for (size_t i = 0; i < first.x.size(); ++i) first.xInertial[i] = first.x[i] + h * first.v[i];
    ASSERT_EQ(detectOnCpu(model, settings.bodyContacts, first).active, 0u);
  }
  auto device = createDeviceState(ctx, model, state);
  ASSERT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok()) << stepper.error().message;
  InertialGpuSolver solver;
  Profiler profiler;
  ASSERT_TRUE(stepper->enqueueStep(ctx, model, settings, solver, *device, profiler).ok());

  State after;
  ASSERT_TRUE(downloadState(ctx, *device, after).ok());
  BodyContacts gpu;
  ASSERT_TRUE(downloadBodyContacts(ctx, device->bodyContacts, gpu).ok());
  const BodyContacts cpu = detectOnCpu(model, settings.bodyContacts, after);  // the last substep's y
  ASSERT_EQ(cpu.active, 18u);
  expectSameContacts(cpu, gpu);
  const StepStats stats = profiler.resolve();
  ASSERT_NE(stats.find("body contacts"), nullptr);
  EXPECT_GT(stats.find("body contacts")->launches, 0u);
  EXPECT_EQ(stats.find("body contacts")->launches % uint32_t(settings.step.substeps), 0u);
  auto read = stepper->readBodyContactStats(ctx, *device);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->active, 18u);

  // Off: nothing is launched for contacts and the last ones are cleared.
  settings.step.constraints.bodyContacts = false;
  ASSERT_TRUE(stepper->enqueueStep(ctx, model, settings, solver, *device, profiler).ok());
  BodyContacts off;
  ASSERT_TRUE(downloadBodyContacts(ctx, device->bodyContacts, off).ok());
  EXPECT_EQ(off.active, 0u);
  for (const glm::uvec4& id : off.ids) EXPECT_EQ(id.x, kNoContact);
  for (uint32_t v = 0; v < model.vertexCount(); ++v) EXPECT_EQ(off.vertexCount[v], 0u);
  const StepStats offStats = profiler.resolve();
  EXPECT_EQ(offStats.find("body contacts")->launches, 0u);
}

TEST(BodyContactDetectionGpu, StepperSkipsASingleBodyWithoutSelfCollisionLikeTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const SimModel model = buildBodies({makeBoxTetMesh({0, 0, 0}, {1, 0.5f, 1}, {2, 1, 2})});
  const State state = makeState(model);
  auto device = createDeviceState(ctx, model, state);
  ASSERT_TRUE(device.ok());
  auto stepper = GpuStepper::create(ctx);
  ASSERT_TRUE(stepper.ok());
  InertialGpuSolver solver;
  Profiler profiler;
  SolverSettings settings;
  ASSERT_TRUE(settings.step.constraints.bodyContacts);
  ASSERT_TRUE(stepper->enqueueStep(ctx, model, settings, solver, *device, profiler).ok());
  EXPECT_EQ(profiler.resolve().find("body contacts")->launches, 0u);
  BodyContacts gpu;
  ASSERT_TRUE(downloadBodyContacts(ctx, device->bodyContacts, gpu).ok());
  EXPECT_EQ(gpu.active, 0u);
}

}  // namespace
}  // namespace tetlab
