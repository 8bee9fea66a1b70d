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
#include "pb_parity_util.h"

namespace tetlab {
namespace {

using test::baseSettings;
using test::beam;
using test::Comparison;
using test::droppedBox;
using test::makePbdSolverGpu;
using test::makeXpbdSolverGpu;
using test::runBoth;
using test::Scene;

constexpr double kMaxRelativeError = 1e-4;
#define EXPECT_PARITY(cmp, minMove) EXPECT_PB_PARITY(cmp, minMove, kMaxRelativeError)

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

// The strain constraints along turned material axes, each stretching toward
// its own rest-length scale (the deformer's anisotropy, issue 15 item 2).
TEST(XpbdGpuParity, StrainBasedBeamAlongTurnedAxesWithRestScales) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  SolverSettings s = baseSettings(SolverKind::Xpbd);
  s.step.constraints.neoHookean = false;
  s.step.constraints.tetVolume = true;
  s.step.constraints.strainBased = true;
  s.positionBased.stretchScale = glm::vec3(0.3f, 1.0f, 1.0f);
  s.positionBased.restScale = glm::vec3(1.1f, 1.0f, 0.95f);
  s.positionBased.materialAxis = glm::vec3(1.0f, 0.5f, 0.2f);
  Comparison c = runBoth(ctx, beam(), s, makeXpbdSolverGpu);
  EXPECT_PARITY(c, 0.01);
}

TEST(PositionBasedGpuParity, TethersAndCappedMouseAttachmentBothSolvers) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (SolverKind kind : {SolverKind::Xpbd, SolverKind::Pbd}) {
    SCOPED_TRACE(kind == SolverKind::Xpbd ? "XPBD" : "PBD");
    SolverSettings s = baseSettings(kind);
    Scene scene = test::tetheredBeamDraggedWithACap(s);
    Comparison c = runBoth(ctx, scene, s, kind == SolverKind::Xpbd ? makeXpbdSolverGpu : makePbdSolverGpu, 60);
    EXPECT_PARITY(c, 0.01);
  }
}

TEST(PositionBasedGpuParity, ContactsWithGroundAndEveryColliderKindOnBothSolvers) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (SolverKind kind : {SolverKind::Xpbd, SolverKind::Pbd}) {
    SCOPED_TRACE(kind == SolverKind::Xpbd ? "XPBD" : "PBD");
    SolverSettings s = baseSettings(kind);
    s.colliders.ground.height = 0.0f;
    test::addEveryColliderKind(s);
    s.positionBased.contactOffset = 0.002f;
    Comparison c = runBoth(ctx, droppedBox(), s, kind == SolverKind::Xpbd ? makeXpbdSolverGpu : makePbdSolverGpu);
    EXPECT_PARITY(c, 0.1);
  }
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
