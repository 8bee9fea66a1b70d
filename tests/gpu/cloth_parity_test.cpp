// Cloth on OpenCL against the CPU reference, every solver: a sheet (its edge
// springs always on, body_constants.h) falls onto a soft box (edge springs
// off: the toggle gates the solids only) on the ground, with Rayleigh damping
// on both bodies, so the cloth's spring modulus E h / 2, the per-body spring
// gate, the cloth's lumped masses and the cloth-vertex / solid-face contacts
// all take part. Then a cloth-only scene (no tets at all on the device).
// The bound is the parity suites' 1e-4 of the bodies' size (position_based_parity_test.cpp).
#include "parity_every_solver.h"
#include "pb_parity_util.h"
#include "vbd_parity_util.h"

#include "core/scene/enum_names.h"

namespace tetlab {
namespace {

constexpr double kMaxRelativeError = 1e-4;

BodyDesc sheetBody(float y, glm::uvec2 cells) {
  const SurfaceMesh patch = makeClothPatch(glm::vec3(-0.15f, y, -0.15f), glm::vec2(0.3f), cells);
  BodyDesc body = clothBody(patch);
  body.material.youngsModulus = 1.0e6f;
  body.material.thickness = 1.0e-3f;
  body.material.density = 200.0f;
  body.material.damping = 0.002f;
  body.name = "sheet";
  return body;
}

test::ParityScene sheetOverBox() {
  std::vector<BodyDesc> bodies;
  Material box;
  box.youngsModulus = 5.0e4f;
  box.damping = 0.005f;
  bodies.push_back(
      BodyDesc{makeBoxTetMesh(glm::vec3(-0.08f, 0.0f, -0.08f), glm::vec3(0.16f), glm::uvec3(2)), box, "box"});
  bodies.push_back(sheetBody(0.2f, {8, 8}));
  auto model = buildSimModel(bodies);
  EXPECT_TRUE(model.ok()) << model.error().message;
  test::ParityScene s{std::move(*model), {}};
  s.state = makeState(s.model);
  return s;
}

// A 1 kg box dropped onto a sheet held at its four corners: the box's
// vertices meet the sheet's two-sided triangles (body_contact_sheet_side).
test::ParityScene boxOntoHeldSheet() {
  std::vector<BodyDesc> bodies;
  Material box;
  box.youngsModulus = 1.0e5f;
  bodies.push_back(
      BodyDesc{makeBoxTetMesh(glm::vec3(-0.05f, 0.52f, -0.05f), glm::vec3(0.1f), glm::uvec3(2)), box, "box"});
  BodyDesc sheet = sheetBody(0.5f, {8, 8});
  sheet.material.damping = 0.0f;
  bodies.push_back(std::move(sheet));
  auto model = buildSimModel(bodies);
  EXPECT_TRUE(model.ok()) << model.error().message;
  test::ParityScene s{std::move(*model), {}};
  s.state = makeState(s.model);
  pinVertices(s.model, s.state, [](glm::vec3 p) { return std::fabs(p.x) > 0.1499f && std::fabs(p.z) > 0.1499f; });
  return s;
}

test::ParityScene sheetPinnedAtTwoCorners() {
  test::ParityScene s = test::makeParityScene(sheetBody(0.5f, {6, 6}));
  pinVertices(s.model, s.state, [](glm::vec3 p) { return p.z < -0.1499f && std::fabs(p.x) > 0.1499f; });
  return s;
}

SolverSettings clothSettings(SolverKind kind) {
  SolverSettings s = kind == SolverKind::Pbd || kind == SolverKind::Xpbd ? test::baseSettings(kind)
                                                                         : test::vbdBaseSettings(kind);
  s.step.constraints.edges = false;
  s.step.constraints.bodyContacts = true;
  s.bodyContacts.searchRadius = 0.02f;
  s.bodyContacts.thickness = 0.003f;
  return s;
}

// Every solver on `scene` with clothSettings changed by `adjust` (parity_every_solver.h).
template <class Adjust>
void expectParityEverySolver(const ClContext& ctx, const test::ParityScene& scene, Adjust&& adjust, double minMove,
                             double maxMove = INFINITY) {
  test::expectParityEverySolver(ctx, scene, clothSettings, adjust, kMaxRelativeError, minMove, maxMove);
}

TEST(ClothGpuParity, SheetFallingOntoASoftBoxEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  expectParityEverySolver(ctx, sheetOverBox(), [](SolverSettings&) {}, 0.05);
}

TEST(ClothGpuParity, BoxDroppedOntoAHeldSheetEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  expectParityEverySolver(
      ctx, boxOntoHeldSheet(),
      [](SolverSettings& s) {
        s.colliders.ground.enabled = false;
        s.step.substeps = 10;  // at 5 x 3 PBD/XPBD let the sheet stretch until the box passed it (on both backends)
        s.step.iterations = 6;
        s.vbd.bodyContactStiffness = 30.0f;  // a heavy box on a light sheet (cloth_contact_test.cpp)
        s.avbd.primal.bodyContactStiffness = 30.0f;
      },
      0.03, 0.3);  // the box fell into the sheet, and the sheet caught it
}

TEST(ClothGpuParity, ClothOnlySheetHeldAtTwoCornersEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  expectParityEverySolver(ctx, sheetPinnedAtTwoCorners(), [](SolverSettings& s) { s.colliders.ground.enabled = false; },
                          0.05);
}

// Tethers (tether.clh) on every solver: PBD/XPBD project them per iteration,
// VBD/AVBD after the substep's solve (vbd_tethers; the one-group schedule
// steps aside while they are on).
TEST(ClothGpuParity, TetheredSheetHeldAtTwoCornersEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  test::ParityScene scene = sheetPinnedAtTwoCorners();
  Material soft = scene.model.materials[0];
  soft.youngsModulus = 2.0e4f;  // the tethers bind
  scene.model.materials.set(0, soft);
  expectParityEverySolver(
      ctx, scene,
      [](SolverSettings& s) {
        s.colliders.ground.enabled = false;
        s.step.constraints.tethers = true;
        s.positionBased.tetherSlack = 0.02f;
      },
      0.05);
}

// Wind with gusts (core/sim/wind.h) on every solver: the step_wind kernels
// take each vertex's change from the same velocities, as the CPU stepper does,
// and the fused one-kernel steps step aside for the kick before each predict.
// Cloth bending (cloth_bending.clh) on every solver, stiff enough to hold the
// sheet's shape against its weight: PBD/XPBD per hinge colour (also after
// the PBD Jacobi average), VBD/AVBD per vertex through the packed hinge
// sections, both schedules; the default scenes above run the plate's D too.
TEST(ClothGpuParity, StiffBendingSheetHeldAtTwoCornersEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  test::ParityScene scene = sheetPinnedAtTwoCorners();
  scene.model.materials.set(0, [] {
    Material m;
    m.youngsModulus = 1.0e6f;
    m.thickness = 1.0e-3f;
    m.density = 200.0f;
    m.damping = 0.002f;
    m.bendingStiffness = 2.0e-3f;
    return m;
  }());
  ASSERT_GT(scene.model.hingeCount(), 0u);
  expectParityEverySolver(ctx, scene, [](SolverSettings& s) { s.colliders.ground.enabled = false; }, 0.01);
  expectParityEverySolver(
      ctx, scene,
      [](SolverSettings& s) {
        s.colliders.ground.enabled = false;
        s.pbd.scheme = PbdScheme::Jacobi;
      },
      0.01);
}

// Strands: axial springs E A / L through the edge family and the rod's
// bending through the hinges (a strand hinge repeats its point with weight 0,
// which the position-based kernels must not store back), every solver.
TEST(ClothGpuParity, StrandsPinnedAtOneEndEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  std::vector<std::vector<glm::vec3>> lines;
  for (int s = 0; s < 3; ++s) {
    std::vector<glm::vec3> points;
    for (int k = 0; k <= 12; ++k)
      points.emplace_back(0.02f * float(k), 0.5f + 0.004f * float(k % 2), 0.05f * float(s));
    lines.push_back(points);
  }
  BodyDesc body = strandBody(lines);
  body.material.youngsModulus = 1.0e7f;
  body.material.density = 1000.0f;
  body.material.thickness = 0.005f;
  body.material.bendingStiffness = 2.0e-4f;  // the zigzag is their rest shape: soft enough to droop under gravity
  body.material.damping = 0.002f;
  body.name = "strands";
  test::ParityScene scene = test::makeParityScene(body);
  pinVertices(scene.model, scene.state, [](glm::vec3 p) { return p.x < 0.01f; });
  ASSERT_GT(scene.model.hingeCount(), 0u);
  expectParityEverySolver(ctx, scene, [](SolverSettings& s) { s.colliders.ground.enabled = false; }, 0.01);
  // In gusty wind: each segment's cross-flow drag (wind.clh), the strands' elements after no triangles.
  expectParityEverySolver(
      ctx, scene,
      [](SolverSettings& s) {
        s.colliders.ground.enabled = false;
        s.wind.enabled = true;
        s.wind.velocity = glm::vec3(0.0f, 1.0f, 6.0f);
        s.wind.gust = 0.5f;
        s.wind.gustPeriod = 0.3f;
      },
      0.01);
}

// Strands against a solid: a cord dropped across a soft box on the ground,
// its points meeting the box's surface triangles (every strand point is a
// body-contact slot), every solver.
TEST(ClothGpuParity, StrandDroppedAcrossABoxEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  std::vector<glm::vec3> points;
  for (int k = 0; k <= 16; ++k) points.emplace_back(-0.16f + 0.02f * float(k), 0.19f, 0.01f);
  BodyDesc cord = strandBody({points});
  cord.material.youngsModulus = 1.0e7f;
  cord.material.density = 1000.0f;
  cord.material.thickness = 0.005f;
  cord.material.bendingStiffness = 1.0e-6f;
  cord.name = "cord";
  Material box;
  box.youngsModulus = 5.0e4f;
  std::vector<BodyDesc> bodies{
      BodyDesc{makeBoxTetMesh(glm::vec3(-0.08f, 0.0f, -0.08f), glm::vec3(0.16f), glm::uvec3(2)), box, "box"}, cord};
  auto model = buildSimModel(bodies);
  ASSERT_TRUE(model.ok()) << model.error().message;
  test::ParityScene scene{std::move(*model), {}};
  scene.state = makeState(scene.model);
  expectParityEverySolver(ctx, scene, [](SolverSettings&) {}, 0.01);
}

// Motion and separation spheres (step_spheres after each substep's solve):
// every free particle inside a sphere around a place that slides 3 cm along x
// through the frame and outside one 1.5 cm below its rest place, which it falls onto, every solver.
TEST(ClothGpuParity, MotionAndSeparationSpheresEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  test::ParityScene scene = sheetPinnedAtTwoCorners();
  SphereTargets& t = scene.state.spheres;
  const glm::vec4 none(0.0f, 0.0f, 0.0f, -1.0f);
  for (uint32_t v = 0; v < scene.model.vertexCount(); ++v) {
    const glm::vec3 p = scene.model.restPositions[v];
    const bool free = scene.state.x[v].w != 0.0f;
    t.motionStart.push_back(free ? glm::vec4(p, 0.04f) : none);
    t.motionTarget.push_back(free ? glm::vec4(p + glm::vec3(0.03f, 0.0f, 0.0f), 0.05f) : none);
    t.separationStart.push_back(free ? glm::vec4(p - glm::vec3(0.005f, 0.035f, 0.0f), 0.02f) : none);
    t.separationTarget.push_back(t.separationStart.back());
  }
  t.stiffness = 0.8f;
  expectParityEverySolver(ctx, scene, [](SolverSettings& s) { s.colliders.ground.enabled = false; }, 0.01);
}

TEST(ClothGpuParity, SheetInGustyWindEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  expectParityEverySolver(
      ctx, sheetPinnedAtTwoCorners(),
      [](SolverSettings& s) {
        s.colliders.ground.enabled = false;
        s.wind.enabled = true;
        s.wind.velocity = glm::vec3(1.5f, 0.5f, 4.0f);
        s.wind.gust = 0.6f;
        s.wind.gustPeriod = 0.3f;
        s.wind.seed = 3;
      },
      0.05);
}

}  // namespace
}  // namespace tetlab
