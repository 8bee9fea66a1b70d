#pragma once
// OpenCL against the CPU reference on one scene for all four solvers, 60
// frames each (runBoth / runVbdBoth): the relative position error and how far
// the CPU run moved, so a parity test cannot pass on a scene that stood still.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "core/scene/enum_names.h"
#include "tests/gpu/pb_parity_util.h"
#include "tests/gpu/vbd_parity_util.h"

namespace tetlab::test {

inline double parityRelativeError(SolverKind kind, const ClContext& ctx, const ParityScene& scene, const SolverSettings& s,
                     double& moved) {
  switch (kind) {
    case SolverKind::Pbd:
    case SolverKind::Xpbd: {
      const Comparison c =
          runBoth(ctx, scene, s, kind == SolverKind::Pbd ? makePbdSolverGpu : makeXpbdSolverGpu, 60);
      std::printf("  %s: max |dx| %.3g m, relative %.3g, CPU moved %.3g m\n", solverName(kind), c.maxError,
                  c.relative(), c.maxDisplacement);
      moved = c.maxDisplacement;
      return c.relative();
    }
    case SolverKind::Vbd:
    case SolverKind::Avbd: {
      const VbdComparison c = runVbdBoth(ctx, scene, s, 60);
      std::printf("  %s: max |dx| %.3g m, relative %.3g, CPU moved %.3g m\n", solverName(kind), c.maxError,
                  c.relative(), c.maxDisplacement);
      EXPECT_TRUE(c.finite);
      moved = c.maxDisplacement;
      return c.relative();
    }
  }
  return 1.0;
}

// Every solver on `scene` with base(kind) changed by `adjust`: OpenCL within
// maxRelativeError of the CPU, and the CPU result moved between minMove and maxMove.
template <class Base, class Adjust>
void expectParityEverySolver(const ClContext& ctx, const ParityScene& scene, Base&& base, Adjust&& adjust,
                             double maxRelativeError, double minMove, double maxMove = INFINITY) {
  for (SolverKind kind : {SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd}) {
    SCOPED_TRACE(solverName(kind));
    SolverSettings s = base(kind);
    adjust(s);
    double moved = 0.0;
    EXPECT_LT(parityRelativeError(kind, ctx, scene, s, moved), maxRelativeError);
    EXPECT_GT(moved, minMove) << "the scene did not move: the test is vacuous";
    EXPECT_LT(moved, maxMove);
  }
}

}  // namespace tetlab::test
