// The two OpenCL PBD/XPBD schedules (gpu/solvers/pb_schedule.h) against the
// CPU reference, forced one at a time: one launch per colour and pass, and
// the whole step in one work-group (shaders/cl/pb_group.clh, with the predict
// and velocity update inside the kernel). Both run the same per-element
// functions in the same order, so each must meet the bound of
// position_based_parity_test.cpp (1e-4 of the body's size, same reasoning) on
// scenes covering every pass the group kernel walks: tet and edge colours,
// XPBD's multiplier reset, PBD Gauss-Seidel and Jacobi, tethers, the capped
// mouse attachment, and the colliders with friction.
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

constexpr double kMaxRelativeError = 1e-4;  // as position_based_parity_test.cpp


test::GpuFactory factoryOf(SolverKind kind) { return kind == SolverKind::Xpbd ? makeXpbdSolverGpu : makePbdSolverGpu; }

// body(settings, factory) for every forced schedule and both solvers, traced,
// with the base settings of the solver and the schedule set.
template <class Body>
void forEveryScheduleAndSolver(Body body) {
  for (GpuSchedule schedule : test::kForcedSchedules)
    for (SolverKind kind : {SolverKind::Xpbd, SolverKind::Pbd}) {
      SCOPED_TRACE(test::scheduleName(schedule));
      SCOPED_TRACE(kind == SolverKind::Xpbd ? "XPBD" : "PBD");
      SolverSettings s = baseSettings(kind);
      s.step.gpuSchedule = schedule;
      body(s, factoryOf(kind));
    }
}

TEST(PbScheduleParity, XpbdNeoHookeanBeamWithDampingOnEverySchedule) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (GpuSchedule schedule : test::kForcedSchedules) {
    SCOPED_TRACE(test::scheduleName(schedule));
    SolverSettings s = baseSettings(SolverKind::Xpbd);
    s.step.gpuSchedule = schedule;
    s.step.constraints.neoHookean = true;
    s.step.constraints.edges = true;
    Comparison c = runBoth(ctx, beam(2.0e5f, 0.3f, 0.01f), s, makeXpbdSolverGpu);
    EXPECT_PB_PARITY(c, 0.01, kMaxRelativeError);
  }
}

TEST(PbScheduleParity, TethersAndCappedMouseBothSolversOnEverySchedule) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  forEveryScheduleAndSolver([&](SolverSettings s, test::GpuFactory factory) {
    Scene scene = test::tetheredBeamDraggedWithACap(s);
    Comparison c = runBoth(ctx, scene, s, factory, 60);
    EXPECT_PB_PARITY(c, 0.01, kMaxRelativeError);
  });
}

// Both solvers: PBD's stiffness fraction uses the portable log1p/expm1
// (portable_math.clh), so it matches the CPU to the bit here too (with the
// libm's pair it differed by 1.1e-3 of the size on both schedules).
TEST(PbScheduleParity, DroppedBoxOnEveryColliderWithFrictionBothSolversOnEverySchedule) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  forEveryScheduleAndSolver([&](SolverSettings s, test::GpuFactory factory) {
    s.colliders.ground.height = 0.0f;
    test::addEveryColliderKind(s);
    s.positionBased.contactOffset = 0.002f;
    Comparison c = runBoth(ctx, droppedBox(), s, factory);
    EXPECT_PB_PARITY(c, 0.1, kMaxRelativeError);
  });
}

TEST(PbScheduleParity, PbdGaussSeidelAndJacobiBeamOnEverySchedule) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  for (GpuSchedule schedule : test::kForcedSchedules)
    for (PbdScheme scheme : {PbdScheme::GaussSeidel, PbdScheme::Jacobi}) {
      SCOPED_TRACE(test::scheduleName(schedule));
      SCOPED_TRACE(scheme == PbdScheme::Jacobi ? "Jacobi" : "Gauss-Seidel");
      SolverSettings s = baseSettings(SolverKind::Pbd);
      s.step.gpuSchedule = schedule;
      s.pbd.scheme = scheme;
      s.pbd.jacobiOmega = 1.5f;
      s.step.constraints.edges = true;  // with neoHookean: PBD's strain-based + volume set, plus edges
      Comparison c = runBoth(ctx, beam(), s, makePbdSolverGpu);
      EXPECT_PB_PARITY(c, 0.01, kMaxRelativeError);
    }
}

}  // namespace
}  // namespace tetlab
