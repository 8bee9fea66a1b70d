#pragma once
// The stages of a step, one vocabulary for both backends (Box2D's
// b2SolverStage idea): the CPU stepper times them with a wall clock, the
// OpenCL profiler sums each launch's device time under its stage, and the
// numbers panel and tetlab-bench report them by these names.
//
//   for substep:  Predict -> BodyContacts -> Init -> Solve (colours, per iteration) [-> Dual] -> Collisions
//                 -> Residual (device convergence curve) -> Velocity
//   then:         Damping (core/sim/rayleigh_damping.h) -> Energy
//
// The list is written once (TETLAB_STAGES); the enum and the name table are
// generated from it, so adding a stage is one line. A backend that has no
// launch for a stage (the CPU has no separate Init, Dual, Collisions or
// Residual: they run inside Solver::solveSubstep) reports 0 ms for it.
#include <array>
#include <cstddef>
#include <cstdint>

namespace tetlab {

// X(enumerator, display name)
#define TETLAB_STAGES(X)                                                                                     \
  X(Predict, "predict")             /* xPrev = x, inertial target x* = x + h v + h^2 g */                   \
  X(BodyContacts, "body contacts")  /* body-body contact detection */                                        \
  X(Init, "init")                   /* a solver's per-substep setup: initial guess, warm start */            \
  X(Solve, "solve")                 /* iterations: one launch per colour, Jacobi, tethers, contact rows */   \
  X(Dual, "dual")                   /* AVBD dual / penalty update */                                         \
  X(Collisions, "collisions")       /* ground and collider projection */                                     \
  X(Residual, "residual")           /* convergence curve measured on the device */                          \
  X(Velocity, "velocity")           /* velocity update, drag, NaN/inf check */                               \
  X(Damping, "damping")             /* Rayleigh material damping pass, once per frame */                     \
  X(Energy, "energy")               /* energy report */

enum class Stage : uint8_t {
#define TETLAB_STAGE_ENUM(id, name) id,
  TETLAB_STAGES(TETLAB_STAGE_ENUM)
#undef TETLAB_STAGE_ENUM
};

inline constexpr size_t kStageCount = 0
#define TETLAB_STAGE_COUNT(id, name) +1
    TETLAB_STAGES(TETLAB_STAGE_COUNT)
#undef TETLAB_STAGE_COUNT
    ;

inline constexpr std::array<const char*, kStageCount> kStageNames = {
#define TETLAB_STAGE_NAME(id, name) name,
    TETLAB_STAGES(TETLAB_STAGE_NAME)
#undef TETLAB_STAGE_NAME
};

// "predict", "body contacts", ...
constexpr const char* stageName(Stage stage) { return kStageNames[size_t(stage)]; }

// Every stage in step order, for loops over the table.
inline constexpr std::array<Stage, kStageCount> kAllStages = {
#define TETLAB_STAGE_LIST(id, name) Stage::id,
    TETLAB_STAGES(TETLAB_STAGE_LIST)
#undef TETLAB_STAGE_LIST
};

// Time of each stage of the last step, summed over its substeps [ms]
// (CPU: wall clock; OpenCL: device time from profiling events).
struct StageTimes {
  std::array<double, kStageCount> ms{};
  double& operator[](Stage stage) { return ms[size_t(stage)]; }
  double operator[](Stage stage) const { return ms[size_t(stage)]; }
  double total() const {
    double sum = 0.0;
    for (double t : ms) sum += t;
    return sum;
  }
};

}  // namespace tetlab
