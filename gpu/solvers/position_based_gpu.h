#pragma once
// Host script shared by the GPU PBD and XPBD solvers: one substep is
//
//   x = xInertial (copy)  [XPBD: lambda = 0]
//   for iteration:
//     Gauss-Seidel:  for tet colour: solve_tets  ;  for edge colour: solve_edges
//     Jacobi (PBD):  jacobi_tets ; jacobi_edges ; jacobi_apply (per-vertex gather)
//     tethers ; attachment (if the mouse is active)
//     body contacts (toggle on, model can have any): body_contact_rows ; _shares ; _apply
//     contacts (colliders)
//
// exactly the order of runProjectionIterations (core/cpu/constraints_projection.cpp).
// Per-substep constants come from the same host setup as the CPU's
// (core/cpu/constraints_setup.h: PbParams of shaders/cl/common/pb_layout.clh,
// packBodies), so both backends use the same body constants and stiffness
// mapping. Small inputs that change at run time (materials, colliders) are
// uploaded only when they change; PbParams and the mouse attachment
// (PbAttachment) travel by value as kernel arguments. Nothing is read back
// inside a substep. Created through makeGpuSolver (gpu/solvers/gpu_solver_factory.h).
//
// Small models take the one-group schedule instead (gpu/solvers/pb_schedule.h
// decides): step_group (shaders/cl/pb_group.clh) walks the same script, with
// the stepper's predict and velocity update, for every substep of a frame in
// one launch (fusesStep / enqueueStep), or one substep's projection when the
// stepper must detect body contacts between substeps. It takes its inputs
// packed into three solver-private buffers (PbGroupParams says where each
// section lies), so it has 17 arguments.
#include <memory>
#include <vector>

#include "core/cpu/constraints_setup.h"
#include "core/model/live_materials.h"
#include "gpu/solvers/device_colliders.h"
#include "gpu/solvers/gpu_solver.h"
#include "gpu/cl/kernel_program.h"

namespace tetlab {

// The kernels of pbd.cl / xpbd.cl: (enum, name after the "pbd_"/"xpbd_"
// prefix, 1 if xpbd.cl has it too). The Jacobi kernels are PBD's only and
// come last, so the enum indexes both programs.
#define TETLAB_PB_KERNELS(X)                       \
  X(kTets, "solve_tets", 1)                        \
  X(kEdges, "solve_edges", 1)                      \
  X(kHinges, "solve_hinges", 1)                    \
  X(kMembranes, "solve_membranes", 1)              \
  X(kTethers, "tethers", 1)                        \
  X(kAttachment, "attachment", 1)                  \
  X(kAnchorSprings, "anchor_springs", 1)           \
  X(kContacts, "contacts", 1)                      \
  X(kBodyContactRows, "body_contact_rows", 1)      \
  X(kBodyContactShares, "body_contact_shares", 1)  \
  X(kBodyContactApply, "body_contact_apply", 1)    \
  X(kStepGroup, "step_group", 1)                   \
  X(kJacobiTets, "jacobi_tets", 0)                 \
  X(kJacobiEdges, "jacobi_edges", 0)               \
  X(kJacobiApply, "jacobi_apply", 0)

class PositionBasedGpu final : public GpuSolver {
 public:
  static Result<std::unique_ptr<PositionBasedGpu>> create(const ClContext& ctx, const KernelSourceOptions& source,
                                                          ProjectionMode mode);

  SolverKind kind() const override { return mode_ == ProjectionMode::Xpbd ? SolverKind::Xpbd : SolverKind::Pbd; }
  Status reset(const ClContext& ctx, const SimModel& model, DeviceState& state) override;
  cl_int enqueueSubstep(const ClContext& ctx, const SolverSettings& settings, float h, DeviceState& state,
                        Profiler& profiler) override;
  bool fusesStep(const SolverSettings& settings, const DeviceState& state) const override;
  cl_int enqueueStep(const ClContext& ctx, const SolverSettings& settings, const FusedStep& step,
                     DeviceState& state, Profiler& profiler) override;
  std::string pollKernels() override;
  const char* schedule() const override { return groupScheduleName(oneGroupRan_, integratedRan_); }
  void setAttachment(const Attachment& mouse) override { mouse_ = mouse; }

  // Re-reads the pinned set (x.w == 0) from the device and rebuilds the
  // tethers; call after pinning/unpinning (setup-time read-back).
  Status refreshPins(const ClContext& ctx, DeviceState& state);

 private:
  enum Kernel : size_t {
#define TETLAB_PB_KERNEL_ENUM(e, name, xpbd) e,
    TETLAB_PB_KERNELS(TETLAB_PB_KERNEL_ENUM)
#undef TETLAB_PB_KERNEL_ENUM
  };
  PositionBasedGpu(KernelProgram program, ProjectionMode mode, const ClDeviceInfo& device)
      : program_(std::move(program)), mode_(mode), isGpu_(device.isGpu), computeUnits_(device.computeUnits) {}
  Status uploadIfChanged(const ClContext& ctx, const SolverSettings& settings);
  Status uploadTethers(const ClContext& ctx, const std::vector<uint32_t>& anchor, const std::vector<float>& length);
  cl_int enqueueIteration(const ClContext& ctx, const SolverSettings& settings, uint32_t iteration, DeviceState& s,
                          Profiler& profiler);
  cl_int enqueueBodyContacts(const ClContext& ctx, DeviceState& s, Profiler& profiler);
  bool oneGroup(const SolverSettings& settings, const DeviceState& s, bool substepOnly) const;
  bool runsBodyContacts(const SolverSettings& settings, const DeviceState& s) const;
  Status packGroupInputs(const ClContext& ctx, const SimModel& model);
  cl_int enqueueGroup(const ClContext& ctx, const SolverSettings& settings, float h, uint32_t substeps,
                      const FusedStep* integrate, DeviceState& s, Profiler& profiler);

  KernelProgram program_;
  ProjectionMode mode_;
  bool oneGroupRan_ = false;    // the last step's schedule (schedule()): one group,
  bool integratedRan_ = false;  // and with predict and velocity inside (the whole step)
  const SimModel* model_ = nullptr;
  clm::PbParams params_{};  // this substep's (makePbParams)
  ProjectionFamilies families_;

  MaterialsStamp bodiesStamp_;  // which materials bodies_ was packed from
  SpringChoice bodiesSprings_;  // the "edges" toggle bodies_ was packed with (edge spring modulus)
  DeviceBuffer<glm::vec4> bodies_;
  DeviceColliders colliders_;
  DeviceBuffer<uint32_t> tetherAnchor_;
  DeviceBuffer<float> tetherLength_;
  bool haveTethers_ = false;
  float tetherSlack_ = 0.0f;
  std::vector<glm::vec4> pinnedX_;  // x as read at the last reset/refreshPins (w = 0: pinned)
  std::vector<glm::vec4> scratch_;
  DeviceBuffer<glm::vec4> tetDelta_, edgeDelta_;  // PBD Jacobi
  // Body-contact pass scratch (ProjectionContext::bodyContactRow / bodyContactShare).
  DeviceBuffer<glm::vec4> bodyContactRow_;
  DeviceBuffer<float> bodyContactShare_;
  DeviceBuffer<glm::vec4> contactFriction_;  // (friction applied, accumulated normal correction) per vertex [m]
  Attachment mouse_;

  // One-group schedule (pb_group.clh): the packed inputs (PbGroupParams's sections).
  bool isGpu_ = false;
  uint32_t computeUnits_ = 0;
  uint32_t largestTetColor_ = 0;   // elements in the largest tet colour (the schedule rule)
  uint32_t largestEdgeColor_ = 0;  // and edge colour, counted when edge constraints run
  size_t groupSize_ = 0;       // the group kernel's work-group size (0: it cannot run)
  clm::PbGroupParams sections_{};  // section bases and counts, filled by packGroupInputs
  std::vector<uint32_t> groupTopologyHost_;  // kept to rewrite the tether section on a slack change
  std::vector<float> groupRestHost_;
  DeviceBuffer<uint32_t> groupTopology_;
  DeviceBuffer<float> groupRest_;
  DeviceBuffer<glm::vec4> groupScratch_;

  // Profiler stages, registered in reset().
  StageId stageInit_ = 0, stageEdges_ = 0, stageTethers_ = 0, stageAttachment_ = 0, stageSprings_ = 0, stageContacts_ = 0,
          stageJacobi_ = 0, stageHinges_ = 0, stageMembranes_ = 0, stageBodyContacts_ = 0, stageGroup_ = 0;
  std::vector<StageId> stageTetColor_, stageEdgeColor_;
  Profiler* registeredWith_ = nullptr;
  void registerStages(Profiler& profiler, const DeviceState& s);
};

}  // namespace tetlab
