// makeCpuSolver: the one switch from SolverKind to a CPU reference solver.
#include "core/cpu/avbd_solver.h"
#include "core/cpu/pbd_solver.h"
#include "core/cpu/vbd_solver.h"
#include "core/cpu/xpbd_solver.h"
#include "core/sim/solver.h"

namespace tetlab {

std::unique_ptr<Solver> makeCpuSolver(SolverKind kind) {
  switch (kind) {
    case SolverKind::Pbd:
      return makePbdSolver();
    case SolverKind::Xpbd:
      return makeXpbdSolver();
    case SolverKind::Vbd:
      return makeVbdSolver();
    case SolverKind::Avbd:
      return makeAvbdSolver();
  }
  return makeXpbdSolver();
}

}  // namespace tetlab
