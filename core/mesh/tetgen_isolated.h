#pragma once
// TetGen in a child process. On some inputs TetGen 1.5 does not throw but
// aborts (a failed assertion on flat input) or segfaults (self-intersecting
// scans), which would take the whole app down. So we fork, run TetGen in the
// child, stream the tets back through a pipe, and turn a crash, a timeout or
// a cancel into an Error the pipeline answers with the volumetric fallback.
//
//   parent                                  child (fork)
//   ------                                  ------------
//   poll(result pipe, log pipe) <---------  callTetGen -> header + points + tets
//   cancel / timeout -> SIGKILL             stdout, stderr -> log pipe (printf, assert)
//   waitpid -> exit code / signal           _exit(0)
#include <atomic>
#include <string>

#include "core/mesh/tet_mesh.h"
#include "core/mesh/tetgen_call.h"
#include "core/result.h"

namespace tetlab {

// Test hook: make the child misbehave before it calls TetGen, to prove the
// parent survives each way a library call can fail.
enum class ChildFault { None, Segfault, Abort, ThrowInt, Hang, GarbageOutput };

struct IsolationOptions {
  double timeoutSeconds = 120.0;      // wall clock; the child is killed after this
  ChildFault fault = ChildFault::None;
};

// cancel may be null. Never throws; every failure is an Error whose message
// says what happened (TetGen's code, the signal, the timeout).
Result<TetMesh> runTetGenIsolated(const SurfaceMesh& surface, const TetGenSettings& settings,
                                  const IsolationOptions& options = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace tetlab
