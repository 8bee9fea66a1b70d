// AVBD on the device: the enqueue script of one substep, stage for stage the
// CPU's AvbdSolver::solveSubstep + AvbdConstraints (core/cpu/avbd_*):
//
//   avbd_begin_edges | avbd_begin_mouse | avbd_begin_vertices |  "avbd.begin"  (Eq. 18, 19, contacts at x^t)
//   avbd_begin_body_contacts
//   avbd_init_guess                                             "avbd.init"   (VBD Sec. 3.7)
//   for iteration:
//     for colour c: [vbd_snapshot_color]                           "avbd.snapshot" (body contacts on)
//                   [avbd_mouse_offset] avbd_solve_vertices_color  "avbd.solve.c<c>"   (primal, Eq. 4-6)
//     avbd_dual_edges | avbd_dual_mouse | avbd_dual_vertices |     "avbd.dual"         (Eq. 11, 12, 16)
//     [avbd_dual_body_contacts]
//     [vbd_residual_rms] (last substep of a step)                 "avbd.residual"
//   or, on small models (gpu/solvers/vbd_schedule.h), every iteration above in
//   one launch: avbd_solve_group (avbd_group.clh)                  "avbd.group"
//   and, without body-contact detection between substeps (GpuStepper fuses
//   the step), the whole step in that launch: predict, begin, initial guess,
//   iterations and velocity of every substep
//
// lambda/penalty use the CPU's row layout (AvbdLayout), so a test can compare
// them row by row. What the CPU keeps per substep in AvbdConstraints (edge and
// pin stabilisation offsets, pin targets, the frames of each vertex's K contact rows, each
// body-contact slot's last ids and offset) is solver-private device data here.
// Body contacts read DeviceState::bodyContacts as filled for the substep; with
// the toggle off only the (cheap) begin kernel runs, clearing their rows. The only host-side state is whether the
// mouse drag is the same as last substep (fresh or warm-started mouse rows),
// which the host knows without reading anything back.
#include "gpu/solvers/avbd_solver_gpu.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "core/cpu/avbd_constraints.h"
#include "core/sim/body_contacts.h"
#include "gpu/cl/cl_error.h"
#include "gpu/cl/kernel_program.h"
#include "gpu/cl/launch.h"
#include "gpu/solvers/device_tethers.h"
#include "gpu/solvers/vbd_family_gpu.h"
#include "gpu/solvers/vbd_schedule.h"

namespace tetlab {

namespace {

// The kernels of cl/avbd.cl: the enum and the name list from one table.
#define TL_AVBD_KERNELS(X)                          \
  X(kReset, "avbd_reset_vertices")                  \
  X(kBeginEdges, "avbd_begin_edges")                \
  X(kBeginMouse, "avbd_begin_mouse")                \
  X(kBeginVertices, "avbd_begin_vertices")          \
  X(kInitGuess, "avbd_init_guess")                  \
  X(kMouseOffset, "avbd_mouse_offset")              \
  X(kSolve, "avbd_solve_vertices_color")            \
  X(kDualEdges, "avbd_dual_edges")                  \
  X(kDualMouse, "avbd_dual_mouse")                  \
  X(kDualVertices, "avbd_dual_vertices")            \
  X(kBeginBodyContacts, "avbd_begin_body_contacts") \
  X(kDualBodyContacts, "avbd_dual_body_contacts")   \
  X(kSnapshot, "vbd_snapshot_color")                \
  X(kResidualRms, "vbd_residual_rms")               \
  X(kTethers, "vbd_tethers")                        \
  X(kSolveGroup, "avbd_solve_group")
TL_KERNEL_TABLE(TL_AVBD_KERNELS)

class AvbdSolverGpu final : public GpuSolver {
 public:
  AvbdSolverGpu(KernelProgram program, const ClDeviceInfo& device)
      : program_(std::move(program)), isGpu_(device.isGpu), computeUnits_(device.computeUnits) {}

  SolverKind kind() const override { return SolverKind::Avbd; }
  Status reset(const ClContext& ctx, const SimModel& model, DeviceState& state) override;
  cl_int enqueueSubstep(const ClContext& ctx, const SolverSettings& settings, float h, DeviceState& state,
                        Profiler& profiler) override;
  bool fusesStep(const SolverSettings& settings, const DeviceState& state) const override;
  cl_int enqueueStep(const ClContext& ctx, const SolverSettings& settings, const FusedStep& step,
                     DeviceState& state, Profiler& profiler) override;
  void setAttachment(const Attachment& mouse) override { mouse_ = mouse; }
  // A zero target (w = 0) is "none yet": avbd_begin_pin takes x^t as a fresh one.
  cl_int pinsMoved(const ClContext& ctx, std::span<const uint32_t> vertices) override {
    const glm::vec4 none(0.0f);
    for (uint32_t i : vertices)
      if (2 * size_t(i) >= vertexRows_.size()) return CL_INVALID_VALUE;
    for (uint32_t i : vertices)
      if (cl_int e = vertexRows_.upload(ctx.queue, std::span<const glm::vec4>(&none, 1), 2 * size_t(i));
          e != CL_SUCCESS)
        return e;
    return CL_SUCCESS;
  }
  std::string pollKernels() override {
    program_.poll();
    return program_.lastError();
  }
  const char* schedule() const override {
    return !oneGroupRan_ ? "per colour" : integratedRan_ ? "one work-group per step" : "iterations in one work-group";
  }
  bool measuresResidual() const override { return true; }
  void recordResidual(bool on) override { residual_.record(on); }
  Result<std::vector<float>> readResidualHistory(const ClContext& ctx) override { return residual_.read(ctx); }

 private:
  // The substep's constants (AvbdStepParams, built by the CPU's avbdStepParams)
  // plus the device-only bits: MOUSE, RESIDUAL.
  clm::AvbdStepParams constants(const SolverSettings& settings, float h, const clm::VbdMouse& mouse) const;
  void registerStages(Profiler& profiler, const DeviceState& s);
  cl_int enqueueBegin(const ClContext& ctx, const clm::AvbdStepParams& k, DeviceState& s, clm::VbdMouse mouse,
                      Profiler& profiler);
  cl_int enqueueBeginBodyContacts(const ClContext& ctx, const clm::AvbdStepParams& k, DeviceState& s,
                                  Profiler& profiler);
  cl_int enqueueColor(const ClContext& ctx, clm::AvbdStepParams k, DeviceState& s, const clm::VbdMouse& mouse,
                      uint32_t c, Profiler& profiler);
  cl_int enqueueDual(const ClContext& ctx, const SolverSettings& settings, const clm::AvbdStepParams& k,
                     DeviceState& s, const clm::VbdMouse& mouse, Profiler& profiler);
  // All iterations of the substep in one work-group (avbd_group.clh), or with
  // `integrate` the whole step of `substeps` substeps.
  cl_int enqueueGroup(const ClContext& ctx, const SolverSettings& settings, const clm::AvbdStepParams& k,
                      DeviceState& s, const clm::VbdMouse& mouse, uint32_t substeps, const FusedStep* integrate,
                      Profiler& profiler);
  bool oneGroup(const SolverSettings& settings, const DeviceState& s) const {
    // The one-group kernel has no tether pass and no anchor springs: they run per colour.
    if (tethersOn(settings) || s.springs.any()) return false;
    return vbdUsesOneGroup({settings.step.gpuSchedule, isGpu_, computeUnits_, fit_.largestColor, fit_.groupSize});
  }
  bool tethersOn(const SolverSettings& settings) const { return settings.step.constraints.tethers && tethers_.any(); }
  // Whether the mouse rows continue the last substep's drag (mouse.same), and remember this one.
  uint32_t continueDrag();

  KernelProgram program_;
  bool isGpu_ = false;
  uint32_t computeUnits_ = 0;
  OneGroupFit fit_;            // the schedule rule's inputs for this model
  bool oneGroupRan_ = false;   // the last substep's schedule (schedule()): one group,
  bool integratedRan_ = false; // and with predict, begin, initial guess and velocity inside (the whole step)
  const SimModel* model_ = nullptr;
  AvbdLayout layout_;
  VbdFamilyInputs inputs_;
  DeviceTethers tethers_;
  VbdResidualRecorder residual_;
  DeviceBuffer<glm::vec4> vLast_;  // r(x^t) of the mouse rows is inputs_.mouseOffset[1]
  // The per-vertex rows, one buffer: [0, 2 n) the pins, per vertex [2 i] target (w = known), [2 i + 1]
  // C*(x^t) (avbd_assembly.clh); from 2 n on, K AvbdContactFrame per vertex, held as 3 float4 each
  // (DeviceBuffer takes 4-, 8- and 16-byte elements; the kernels read them as AvbdContactFrame*,
  // 48 bytes = 3 float4; avbd_frames in avbd.cl).
  DeviceBuffer<glm::vec4> vertexRows_;
  // Stabilisation offset c0 per row, the layout of lambda: the edge rows [0, edgeCount) and the
  // body-contact rows from bodyRow on use it (the pins keep theirs in vertexRows_, the mouse in mouseOffset[1]).
  DeviceBuffer<float> c0_;
  DeviceBuffer<glm::uvec4> bodyPrevIds_;  // per body-contact slot: (p, a, b, c) of the last substep
  DeviceBuffer<glm::vec4> snapshot_;      // body contacts: x of the colour being solved at its start
  DeviceBuffer<uint32_t> noStatus_;       // empty: the group kernel's status argument when not integrating
  Attachment mouse_;
  uint32_t bodyContactSlots_ = 0;        // DeviceBodyContacts::slotCount (the packed arrays' sections)
  bool mouseActive_ = false;             // the last substep's drag, to notice a new one
  std::vector<uint32_t> mouseVertices_;

  StageId stageBegin_ = 0, stageInit_ = 0, stageMouse_ = 0, stageDual_ = 0, stageSnapshot_ = 0, stageResidual_ = 0;
  StageId stageGroup_ = 0, stageTethers_ = 0;
  std::vector<StageId> stageColor_;
  Profiler* registeredWith_ = nullptr;
};

template <class T>
Status allocate(const ClContext& ctx, DeviceBuffer<T>& out, size_t count, const T& value, const char* name) {
  auto b = DeviceBuffer<T>::create(ctx.context, count, CL_MEM_READ_WRITE, name);
  if (!b) return b.error();
  out = std::move(*b);
  return clCheck(out.fill(ctx.queue, value), std::string("initialising ") + name);
}

Status AvbdSolverGpu::reset(const ClContext& ctx, const SimModel& model, DeviceState& s) {
  model_ = &model;
  registeredWith_ = nullptr;
  const uint32_t n = model.vertexCount();
  layout_ = AvbdLayout::make(model);
  const uint32_t slots = std::max<uint32_t>(uint32_t(model.surfaceVertices.size()), 1u);  // no empty buffers
  // Eq. 10: lambda = 0, k = kStart for every row (the CPU resets with the default params too).
  if (Status st = resetConstraintData(ctx, s, layout_.size, layout_.size, AvbdParams{}.kStart); !st) return st;
  if (Status st = inputs_.reset(ctx, model); !st) return st;
  if (Status st = tethers_.reset(ctx, model, s); !st) return st;
  if (Status st = residual_.reset(ctx, n); !st) return st;
  const glm::vec4 zero(0.0f);
  const size_t contacts = size_t(layout_.contactsPerVertex) * n;  // one contact frame per contact row
  clm::AvbdContactFrame none{};
  none.collider = -1;
  static_assert(sizeof(clm::AvbdContactFrame) == 3 * sizeof(glm::vec4));
  const size_t pins = 2 * size_t(n);  // zero: no pin target yet
  std::vector<glm::vec4> rows(pins + 3 * std::max<size_t>(contacts, 1), zero);
  for (size_t c = 0; c < (rows.size() - pins) / 3; ++c) std::memcpy(&rows[pins + 3 * c], &none, sizeof(none));
  auto vertexRows = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, rows, CL_MEM_READ_WRITE, "AVBD vertexRows");
  if (!vertexRows) return vertexRows.error();
  vertexRows_ = std::move(*vertexRows);
  for (Status st : {allocate(ctx, vLast_, n, zero, "AVBD vLast"),
                    allocate(ctx, c0_, layout_.size, 0.0f, "AVBD c0"),
                    allocate(ctx, bodyPrevIds_, slots, glm::uvec4(kNoContact), "AVBD bodyPrevIds"),
                    allocate(ctx, snapshot_, n, zero, "AVBD snapshot")})
    if (!st) return st;
  // No v^{t-1} yet: the first guess assumes free fall, or inertia on a body its pins fix
  // (common/vbd_initial_guess.clh).
  cl_int e = resetVertexHistory(ctx, s, vLast_);
  // Pin targets: where each pinned vertex is now (AvbdConstraints::reset).
  cl::Kernel& k = program_.kernel(kReset);
  if (e == CL_SUCCESS) e = setKernelArgs(k, n, s.x, vertexRows_);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, n, program_.localSize());
  mouseActive_ = false;
  mouseVertices_.clear();
  fit_ = oneGroupFit(ctx, program_.kernel(kSolveGroup), model);
  return clCheck(e, "initialising the AVBD solver data");
}

void AvbdSolverGpu::registerStages(Profiler& profiler, const DeviceState& s) {
  stageBegin_ = profiler.addStage(Stage::Init, "avbd.begin");
  stageInit_ = profiler.addStage(Stage::Init, "avbd.init");
  stageMouse_ = profiler.addStage(Stage::Solve, "avbd.mouse");
  stageSnapshot_ = profiler.addStage(Stage::Solve, "avbd.snapshot");
  stageColor_.clear();
  for (uint32_t c = 0; c < s.vertexColors.count(); ++c)
    stageColor_.push_back(profiler.addStage(Stage::Solve, "avbd.solve.c" + std::to_string(c)));
  stageDual_ = profiler.addStage(Stage::Dual, "avbd.dual");
  stageResidual_ = profiler.addStage(Stage::Residual, "avbd.residual");
  stageGroup_ = profiler.addStage(Stage::Solve, "avbd.group");
  stageTethers_ = profiler.addStage(Stage::Solve, "avbd.tethers");
  registeredWith_ = &profiler;
}

clm::AvbdStepParams AvbdSolverGpu::constants(const SolverSettings& settings, float h,
                                             const clm::VbdMouse& mouse) const {
  clm::AvbdStepParams k = avbdStepParams(*model_, settings, layout_, h);
  if (mouse.active && mouse.slots > 0) k.terms |= VBD_TERM_MOUSE;
  if (residual_.recording()) k.terms |= VBD_TERM_RESIDUAL;
  inputs_.setSections(k, bodyContactSlots_);
  return k;
}

cl_int AvbdSolverGpu::enqueueSubstep(const ClContext& ctx, const SolverSettings& settings, float h, DeviceState& s,
                                     Profiler& profiler) {
  if (model_ == nullptr) return CL_INVALID_OPERATION;  // reset() first
  if (s.lambda.size() != layout_.size || s.penalty.size() != layout_.size) return CL_INVALID_OPERATION;
  if (registeredWith_ != &profiler) registerStages(profiler, s);
  if (!inputs_.refresh(ctx, *model_, settings.colliders, springChoice(settings.step.constraints))) return CL_OUT_OF_RESOURCES;
  const clm::VbdMouse mouse = packMouse(mouse_, s.vertexCount);
  bodyContactSlots_ = s.bodyContacts.slotCount;
  clm::AvbdStepParams k = constants(settings, h, mouse);
  if (s.springs.any()) k.terms |= VBD_TERM_ANCHOR_SPRINGS;
  const uint32_t n = s.vertexCount;

  cl_int e = enqueueBegin(ctx, k, s, mouse, profiler);
  if (e == CL_SUCCESS) {
    // VBD Sec. 3.7; a hard-pinned vertex starts where it is held (w = 0 is skipped).
    cl::Kernel& init = program_.kernel(kInitGuess);
    e = setKernelArgs(init, n, k, uint32_t(settings.avbd.primal.initialGuess), s.x, s.v, vLast_);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, init, n, program_.localSize(), profiler.record(stageInit_));
  }
  const bool group = oneGroup(settings, s);
  oneGroupRan_ = group;
  integratedRan_ = false;
  if (group) return e == CL_SUCCESS ? enqueueGroup(ctx, settings, k, s, mouse, 1u, nullptr, profiler) : e;
  const int iterations = std::max(settings.step.iterations, 1);
  if (e == CL_SUCCESS) e = residual_.begin(ctx, iterations);
  for (int it = 0; it < iterations && e == CL_SUCCESS; ++it) {
    for (uint32_t c = 0; c < s.vertexColors.count() && e == CL_SUCCESS; ++c)
      e = enqueueColor(ctx, k, s, mouse, c, profiler);
    if (e == CL_SUCCESS) e = residual_.reduce(ctx, program_.kernel(kResidualRms), it, profiler, stageResidual_);
    if (e == CL_SUCCESS) e = enqueueDual(ctx, settings, k, s, mouse, profiler);
  }
  if (e == CL_SUCCESS && tethersOn(settings)) {
    if (!tethers_.refresh(ctx, *model_, settings.positionBased.tetherSlack)) return CL_OUT_OF_RESOURCES;
    e = tethers_.enqueue(ctx.queue, program_.kernel(kTethers), s, program_.localSize(), profiler.record(stageTethers_));
  }
  return e;
}

cl_int AvbdSolverGpu::enqueueBegin(const ClContext& ctx, const clm::AvbdStepParams& k, DeviceState& s,
                                   clm::VbdMouse mouse, Profiler& profiler) {
  const size_t local = program_.localSize();
  cl::Kernel& edges = program_.kernel(kBeginEdges);
  cl_int e = setKernelArgs(edges, s.edgeCount, k, s.x, s.xPrev, s.edges, s.restLength, s.mass, inputs_.edgeStiffness,
                           c0_, s.lambda, s.penalty);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, edges, s.edgeCount, local, profiler.record(stageBegin_));
  if (e != CL_SUCCESS) return e;

  mouse.same = continueDrag();
  cl::Kernel& m = program_.kernel(kBeginMouse);
  e = setKernelArgs(m, k, mouse, s.x, s.xPrev, s.mass, s.lambda, s.penalty, inputs_.mouseOffset);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, m, 1, 0, profiler.record(stageBegin_));
  if (e != CL_SUCCESS) return e;

  cl::Kernel& v = program_.kernel(kBeginVertices);
  e = setKernelArgs(v, s.vertexCount, k, s.x, s.xPrev, s.v, s.mass, vertexRows_, s.lambda, s.penalty,
                    inputs_.colliders.records);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, v, s.vertexCount, local, profiler.record(stageBegin_));
  return e == CL_SUCCESS ? enqueueBeginBodyContacts(ctx, k, s, profiler) : e;
}

// Body-contact rows at the start of a substep: warm-started from the
// detected contacts, or cleared (toggle off, nothing detected).
cl_int AvbdSolverGpu::enqueueBeginBodyContacts(const ClContext& ctx, const clm::AvbdStepParams& k, DeviceState& s,
                                               Profiler& profiler) {
  const DeviceBodyContacts& bc = s.bodyContacts;
  if (bc.slotCount == 0) return CL_SUCCESS;
  cl::Kernel& b = program_.kernel(kBeginBodyContacts);
  const uint32_t on = (k.terms & VBD_TERM_BODY_CONTACTS) ? 1u : 0u;
  cl_int e = setKernelArgs(b, bc.slotCount, on, k, bc.arrays, s.xPrev, bodyPrevIds_, c0_, s.lambda);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, b, bc.slotCount, program_.localSize(), profiler.record(stageBegin_));
  return e;
}

uint32_t AvbdSolverGpu::continueDrag() {
  // A new drag (or another vertex set) starts from fresh multipliers.
  const uint32_t same = mouse_.active && mouseActive_ && mouse_.vertices == mouseVertices_ ? 1u : 0u;
  mouseActive_ = mouse_.active;
  mouseVertices_ = mouse_.vertices;
  return same;
}

bool AvbdSolverGpu::fusesStep(const SolverSettings& settings, const DeviceState& s) const {
  return model_ != nullptr && s.vertexCount > 0 && oneGroup(settings, s);
}

cl_int AvbdSolverGpu::enqueueStep(const ClContext& ctx, const SolverSettings& settings, const FusedStep& step,
                                  DeviceState& s, Profiler& profiler) {
  if (model_ == nullptr) return CL_INVALID_OPERATION;  // reset() first
  if (s.lambda.size() != layout_.size || s.penalty.size() != layout_.size) return CL_INVALID_OPERATION;
  if (registeredWith_ != &profiler) registerStages(profiler, s);
  if (!inputs_.refresh(ctx, *model_, settings.colliders, springChoice(settings.step.constraints))) return CL_OUT_OF_RESOURCES;
  clm::VbdMouse mouse = packMouse(mouse_, s.vertexCount);
  bodyContactSlots_ = s.bodyContacts.slotCount;
  const clm::AvbdStepParams k = constants(settings, step.h, mouse);
  mouse.same = continueDrag();  // the first substep's; the kernel continues the drag after it
  oneGroupRan_ = true;
  integratedRan_ = true;
  // The stepper fuses only without detection, and has cleared the contact
  // arrays: the body-contact rows' begin (which the kernel leaves out) then
  // only clears them, once for the step as per substep.
  const cl_int e = enqueueBeginBodyContacts(ctx, k, s, profiler);
  return e == CL_SUCCESS ? enqueueGroup(ctx, settings, k, s, mouse, step.substeps, &step, profiler) : e;
}

cl_int AvbdSolverGpu::enqueueColor(const ClContext& ctx, clm::AvbdStepParams k, DeviceState& s,
                                   const clm::VbdMouse& mouse, uint32_t c, Profiler& profiler) {
  const uint32_t begin = s.vertexColors.begin(c), count = s.vertexColors.end(c) - begin;
  if (count == 0) return CL_SUCCESS;
  const bool snapshot = (k.terms & VBD_TERM_MOUSE) && inputs_.needsMouseSnapshot(mouse, c);
  const bool bodyContacts = (k.terms & VBD_TERM_BODY_CONTACTS) && s.bodyContacts.slotCount > 0;
  cl_int e = CL_SUCCESS;
  if (bodyContacts) {
    // Same-colour partners of the body contacts are read as they were before this colour.
    cl::Kernel& copy = program_.kernel(kSnapshot);
    e = setKernelArgs(copy, begin, count, s.vertexColorOrder, s.x, snapshot_);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, copy, count, program_.localSize(), profiler.record(stageSnapshot_));
    if (e != CL_SUCCESS) return e;
  }
  if (snapshot) {
    cl::Kernel& m = program_.kernel(kMouseOffset);
    e = setKernelArgs(m, s.x, mouse, inputs_.mouseOffset);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, m, 1, 0, profiler.record(stageMouse_));
    if (e != CL_SUCCESS) return e;
  }
  if (!bodyContacts) k.terms &= ~VBD_TERM_BODY_CONTACTS;
  k.begin = begin;
  k.count = count;
  k.color = c;
  k.mouseFromOffset = snapshot ? 1u : 0u;
  cl::Kernel& solve = program_.kernel(kSolve);
  e = setKernelArgs(solve, k, mouse, inputs_.topology, inputs_.restData, s.x, s.xPrev, s.xInertial, s.v, s.tets,
                    s.DmInv, s.edges, inputs_.bodies, s.lambda, s.penalty, c0_, vertexRows_,
                    inputs_.mouseOffset, snapshot_, s.bodyContacts.arrays, residual_.residual, s.springs.topology,
                    s.springs.anchor, s.springs.stiffness);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, solve, count, program_.localSize(), profiler.record(stageColor_[c]));
  return e;
}

cl_int AvbdSolverGpu::enqueueDual(const ClContext& ctx, const SolverSettings& settings, const clm::AvbdStepParams& k,
                                  DeviceState& s, const clm::VbdMouse& mouse, Profiler& profiler) {
  const size_t local = program_.localSize();
  cl_int e = CL_SUCCESS;
  if (k.terms & VBD_TERM_EDGES) {
    cl::Kernel& edges = program_.kernel(kDualEdges);
    e = setKernelArgs(edges, s.edgeCount, k, s.x, s.edges, s.restLength, c0_, inputs_.edgeStiffness, s.lambda,
                      s.penalty);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, edges, s.edgeCount, local, profiler.record(stageDual_));
    if (e != CL_SUCCESS) return e;
  }
  if (mouse_.active) {
    cl::Kernel& m = program_.kernel(kDualMouse);
    e = setKernelArgs(m, k, mouse, s.x, s.lambda, s.penalty, inputs_.mouseOffset);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, m, 1, 0, profiler.record(stageDual_));
    if (e != CL_SUCCESS) return e;
  }
  cl::Kernel& v = program_.kernel(kDualVertices);
  e = setKernelArgs(v, s.vertexCount, k, s.x, s.xPrev, vertexRows_, s.lambda, s.penalty);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, v, s.vertexCount, local, profiler.record(stageDual_));
  const DeviceBodyContacts& bc = s.bodyContacts;
  if (e != CL_SUCCESS || !(k.terms & VBD_TERM_BODY_CONTACTS) || bc.slotCount == 0) return e;
  cl::Kernel& b = program_.kernel(kDualBodyContacts);
  e = setKernelArgs(b, bc.slotCount, k, bc.arrays, s.x, c0_, s.lambda);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, b, bc.slotCount, local, profiler.record(stageDual_));
  return e;
}

cl_int AvbdSolverGpu::enqueueGroup(const ClContext& ctx, const SolverSettings& settings,
                                   const clm::AvbdStepParams& k, DeviceState& s, const clm::VbdMouse& mouse,
                                   uint32_t substeps, const FusedStep* integrate, Profiler& profiler) {
  const bool bodyContacts = (k.terms & VBD_TERM_BODY_CONTACTS) && s.bodyContacts.slotCount > 0;
  clm::AvbdGroupParams g{};
  g.step = k;
  if (!bodyContacts) g.step.terms &= ~VBD_TERM_BODY_CONTACTS;
  g.mouse = mouse;
  g.iterations = uint32_t(std::max(settings.step.iterations, 1));
  g.colorCount = s.vertexColors.count();
  g.colorStartsBase = inputs_.colorStartsBase();
  // The curve the CPU stepper keeps: the last substep's (recordResidual for a single substep).
  g.recordSubstep = integrate ? substeps - 1 : (residual_.recording() ? 0u : substeps);
  g.dualEdges = (k.terms & VBD_TERM_EDGES) ? 1u : 0u;
  g.dualMouse = mouse_.active ? 1u : 0u;
  g.bodySlots = bodyContacts ? s.bodyContacts.slotCount : 0u;
  g.edgeCount = s.edgeCount;
  g.substeps = substeps;
  g.integrate = integrate ? 1u : 0u;
  g.initialGuess = uint32_t(settings.avbd.primal.initialGuess);
  g.damping = integrate ? integrate->damping : 1.0f;
  cl_int e = g.recordSubstep < substeps ? residual_.prepareHistory(ctx, int(g.iterations)) : CL_SUCCESS;
  // Without integrate the kernel never reads the status buffer: an empty one passes NULL.
  const DeviceBuffer<uint32_t>& status = integrate ? *integrate->status : noStatus_;
  cl::Kernel& kernel = program_.kernel(kSolveGroup);
  if (e == CL_SUCCESS)
    e = setKernelArgs(kernel, g, inputs_.topology, inputs_.restData, s.x, s.xPrev, s.xInertial, s.v, s.tets, s.DmInv,
                      s.edges, inputs_.bodies, inputs_.edgeStiffness, s.lambda, s.penalty, c0_, vertexRows_,
                      inputs_.mouseOffset, snapshot_, s.bodyContacts.arrays, residual_.history(), s.mass,
                      inputs_.colliders.records, vLast_, status);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, kernel, fit_.groupSize, fit_.groupSize, profiler.record(stageGroup_));
  return e;
}

}  // namespace

Result<std::unique_ptr<GpuSolver>> makeAvbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source) {
  auto program = KernelProgram::create(ctx, source, "cl/avbd.cl", kernelNames());
  if (!program) return program.error();
  return std::unique_ptr<GpuSolver>(new AvbdSolverGpu(std::move(*program), ctx.info));
}

}  // namespace tetlab
