// VBD on the device: the enqueue script of one substep. It mirrors
// VbdSolver::solveSubstep (core/cpu/vbd_solver.cpp) stage for stage:
//
//   vbd_init_guess                                       "vbd.init"
//   for iteration n = 1..N:
//     for colour c:  [vbd_snapshot_color]                "vbd.snapshot" (body contacts on, colour 0)
//                    [vbd_mouse_offset]                  "vbd.mouse"
//                    vbd_solve_vertices_color            "vbd.solve.c<c>"
//     [vbd_residual_rms] (last substep of a step)        "vbd.residual"
//     [vbd_chebyshev with omega_n]                       "vbd.chebyshev"
//
// Solver-private device data (v^{t-1} for the adaptive guess, the two previous
// Chebyshev iterates, the per-vertex contact flag, the body-contact partner
// snapshot) lives in this class, not in
// DeviceState: a solver switch drops it with the solver. Nothing is read back.
// Body contacts read DeviceState::bodyContacts as filled for the substep (by
// the device detection, or uploaded by a test); with the toggle off nothing is
// launched for them and the term bit is clear.
#include "gpu/solvers/vbd_solver_gpu.h"

#include <algorithm>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "core/model/body_constants.h"
#include "core/model/cloth_membrane.h"
#include "core/sim/body_contacts.h"
#include "gpu/cl/cl_error.h"
#include "gpu/cl/kernel_program.h"
#include "gpu/cl/launch.h"
#include "gpu/solvers/device_tethers.h"
#include "gpu/solvers/vbd_family_gpu.h"
#include "gpu/solvers/vbd_schedule.h"

namespace tetlab {

namespace {

// The kernels of cl/vbd.cl: the enum and the name list from one table.
#define TL_VBD_KERNELS(X)                 \
  X(kInitGuess, "vbd_init_guess")         \
  X(kMouseOffset, "vbd_mouse_offset")     \
  X(kSolve, "vbd_solve_vertices_color")   \
  X(kChebyshev, "vbd_chebyshev")          \
  X(kSnapshot, "vbd_snapshot_color")      \
  X(kResidualRms, "vbd_residual_rms")     \
  X(kTethers, "vbd_tethers")              \
  X(kStepGroup, "vbd_step_group")
TL_KERNEL_TABLE(TL_VBD_KERNELS)

class VbdSolverGpu final : public GpuSolver {
 public:
  VbdSolverGpu(KernelProgram program, const ClDeviceInfo& device)
      : program_(std::move(program)), isGpu_(device.isGpu), computeUnits_(device.computeUnits) {}

  SolverKind kind() const override { return SolverKind::Vbd; }
  Status reset(const ClContext& ctx, const SimModel& model, DeviceState& state) override;
  cl_int enqueueSubstep(const ClContext& ctx, const SolverSettings& settings, float h, DeviceState& state,
                        Profiler& profiler) override;
  bool fusesStep(const SolverSettings& settings, const DeviceState& state) const override;
  const char* schedule() const override { return groupScheduleName(oneGroupRan_, integratedRan_); }
  cl_int enqueueStep(const ClContext& ctx, const SolverSettings& settings, const FusedStep& step,
                     DeviceState& state, Profiler& profiler) override;
  void setAttachment(const Attachment& mouse) override { mouse_ = mouse; }
  std::string pollKernels() override {
    program_.poll();
    return program_.lastError();
  }
  bool measuresResidual() const override { return true; }
  void recordResidual(bool on) override { residual_.record(on); }
  Result<std::vector<float>> readResidualHistory(const ClContext& ctx) override { return residual_.read(ctx); }

 private:
  void registerStages(Profiler& profiler, const DeviceState& s);
  bool oneGroup(const SolverSettings& settings, const DeviceState& s) const;
  bool tethersOn(const SolverSettings& settings) const { return settings.step.constraints.tethers && tethers_.any(); }
  uint32_t terms(const SolverSettings& settings, const clm::VbdMouse& mouse) const;
  clm::VbdStepParams stepParams(const SolverSettings& settings, float h, uint32_t terms, uint32_t contactSlots) const;
  cl_int enqueueGroup(const ClContext& ctx, const SolverSettings& settings, float h, uint32_t substeps,
                      const FusedStep* integrate, DeviceState& s, Profiler& profiler);
  cl_int enqueueColor(const ClContext& ctx, const SolverSettings& settings, float h, DeviceState& s,
                      const clm::VbdMouse& mouse, uint32_t terms, uint32_t c, Profiler& profiler);

  KernelProgram program_;
  bool isGpu_ = false;
  uint32_t computeUnits_ = 0;
  const SimModel* model_ = nullptr;
  VbdFamilyInputs inputs_;
  VbdResidualRecorder residual_;
  DeviceTethers tethers_;
  // Three sections of n float4: v^{t-1} for the adaptive guess, then the two
  // previous Chebyshev iterates (vbd_init_guess_vertex in vbd.cl).
  DeviceBuffer<glm::vec4> vertexHistory_;
  DeviceBuffer<uint32_t> inContact_;
  DeviceBuffer<glm::vec4> snapshot_;  // body contacts: x of the colour being solved at its start
  Attachment mouse_;

  StageId stageInit_ = 0, stageMouse_ = 0, stageChebyshev_ = 0, stageSnapshot_ = 0, stageResidual_ = 0;
  StageId stageGroup_ = 0, stageTethers_ = 0;
  OneGroupFit fit_;            // the schedule rule's inputs for this model
  bool oneGroupRan_ = false;   // the last launch's schedule (schedule()): one group,
  bool integratedRan_ = false; // and with predict and velocity inside (the whole step)
  std::vector<StageId> stageColor_;
  Profiler* registeredWith_ = nullptr;
};

Status VbdSolverGpu::reset(const ClContext& ctx, const SimModel& model, DeviceState& s) {
  model_ = &model;
  registeredWith_ = nullptr;
  // VBD keeps no multipliers; drop another solver's so nothing stale survives a switch.
  if (Status st = resetConstraintData(ctx, s, 0, 0, 0.0f); !st) return st;
  if (Status st = inputs_.reset(ctx, model); !st) return st;
  if (Status st = tethers_.reset(ctx, model, s); !st) return st;
  if (Status st = residual_.reset(ctx, model.vertexCount()); !st) return st;
  const size_t n = std::max<size_t>(model.vertexCount(), 1);
  auto history = DeviceBuffer<glm::vec4>::create(ctx.context, 3 * n, CL_MEM_READ_WRITE, "VBD vertex history");
  if (!history) return history.error();
  vertexHistory_ = std::move(*history);
  auto snap = DeviceBuffer<glm::vec4>::create(ctx.context, n, CL_MEM_READ_WRITE, "VBD contact snapshot");
  if (!snap) return snap.error();
  snapshot_ = std::move(*snap);
  auto c = DeviceBuffer<uint32_t>::create(ctx.context, n, CL_MEM_READ_WRITE, "VBD inContact");
  if (!c) return c.error();
  inContact_ = std::move(*c);
  fit_ = oneGroupFit(ctx, program_.kernel(kStepGroup), model);
  // No v^{t-1} yet: the first guess assumes free fall, or inertia on a body its pins fix
  // (common/vbd_initial_guess.clh); the Chebyshev sections start at zero.
  cl_int e = vertexHistory_.fill(ctx.queue, glm::vec4(0.0f));
  if (e == CL_SUCCESS) e = resetVertexHistory(ctx, s, vertexHistory_);
  if (e == CL_SUCCESS) e = inContact_.fill(ctx.queue, 0u);
  return clCheck(e, "initialising the VBD solver data");
}

void VbdSolverGpu::registerStages(Profiler& profiler, const DeviceState& s) {
  stageInit_ = profiler.addStage(Stage::Init, "vbd.init");
  stageMouse_ = profiler.addStage(Stage::Solve, "vbd.mouse");
  stageSnapshot_ = profiler.addStage(Stage::Solve, "vbd.snapshot");
  stageColor_.clear();
  for (uint32_t c = 0; c < s.vertexColors.count(); ++c)
    stageColor_.push_back(profiler.addStage(Stage::Solve, "vbd.solve.c" + std::to_string(c)));
  stageChebyshev_ = profiler.addStage(Stage::Solve, "vbd.chebyshev");
  stageResidual_ = profiler.addStage(Stage::Residual, "vbd.residual");
  stageGroup_ = profiler.addStage(Stage::Solve, "vbd.group");
  stageTethers_ = profiler.addStage(Stage::Solve, "vbd.tethers");
  registeredWith_ = &profiler;
}

bool VbdSolverGpu::oneGroup(const SolverSettings& settings, const DeviceState& s) const {
  // The one-group kernel has no tether pass and no anchor springs: they run per colour.
  if (tethersOn(settings) || s.springs.any()) return false;
  return vbdUsesOneGroup({settings.step.gpuSchedule, isGpu_, computeUnits_, fit_.largestColor, fit_.groupSize});
}

uint32_t VbdSolverGpu::terms(const SolverSettings& settings, const clm::VbdMouse& mouse) const {
  const VbdParams& p = settings.vbd;
  const ConstraintToggles& on = settings.step.constraints;
  const bool mouseOn = mouse.active && mouse.slots > 0;
  const bool accelerated = chebyshevActive(p.accelerate, settings.step.iterations);
  return (on.neoHookean ? VBD_TERM_NEO_HOOKEAN : 0u) | (anyEdgeSprings(*model_, springChoice(on)) ? VBD_TERM_EDGES : 0u) |
         (on.collisions ? VBD_TERM_COLLISIONS : 0u) | (mouseOn ? VBD_TERM_MOUSE : 0u) |
         (accelerated ? VBD_TERM_ACCELERATE : 0u) | (on.bodyContacts ? VBD_TERM_BODY_CONTACTS : 0u) |
         (residual_.recording() ? VBD_TERM_RESIDUAL : 0u) | (clothBendingOn(*model_, on.bending) ? VBD_TERM_BENDING : 0u) |
         (clothMembraneOn(*model_, on.membrane) ? VBD_TERM_MEMBRANE : 0u);
}

clm::VbdStepParams VbdSolverGpu::stepParams(const SolverSettings& settings, float h, uint32_t terms,
                                            uint32_t contactSlots) const {
  const VbdParams& p = settings.vbd;
  clm::VbdStepParams sp{};
  sp.h = h;
  sp.contactStiffness = p.contactStiffness;
  sp.contactThickness = p.contactThickness;
  sp.frictionEpsilon = p.frictionEpsilon;
  sp.determinantThreshold = p.determinantThreshold;
  // VBD Sec. 3.5 on body contacts: (kappa / h^2, eps_v h), as VbdSolver::solveSubstep computes them.
  sp.bodyStiffnessOverH2 = p.bodyContactStiffness / (h * h);
  sp.bodyYEps = p.frictionEpsilon * h;
  sp.terms = terms;
  sp.safeguard = int(p.safeguard);
  sp.colliderCount = inputs_.colliders.count();
  inputs_.setSections(sp, contactSlots);
  return sp;
}

bool VbdSolverGpu::fusesStep(const SolverSettings& settings, const DeviceState& s) const {
  return model_ != nullptr && s.vertexCount > 0 && oneGroup(settings, s);
}

cl_int VbdSolverGpu::enqueueStep(const ClContext& ctx, const SolverSettings& settings, const FusedStep& step,
                                 DeviceState& s, Profiler& profiler) {
  if (model_ == nullptr) return CL_INVALID_OPERATION;  // reset() first
  if (registeredWith_ != &profiler) registerStages(profiler, s);
  if (!inputs_.refresh(ctx, *model_, settings.colliders, springChoice(settings.step.constraints))) return CL_OUT_OF_RESOURCES;
  return enqueueGroup(ctx, settings, step.h, step.substeps, &step, s, profiler);
}

// One launch of vbd_step_group: `substeps` substeps, with the predict and
// velocity update inside when `integrate` is given (the fused step), else the
// solve of one substep (the stepper predicts, detects body contacts and
// updates velocities around it).
cl_int VbdSolverGpu::enqueueGroup(const ClContext& ctx, const SolverSettings& settings, float h, uint32_t substeps,
                                  const FusedStep* integrate, DeviceState& s, Profiler& profiler) {
  const clm::VbdMouse mouse = packMouse(mouse_, s.vertexCount);
  clm::VbdGroupParams g{};
  g.step = stepParams(settings, h, terms(settings, mouse), s.bodyContacts.slotCount);
  g.mouse = mouse;
  g.gravity[0] = settings.step.gravity.x;
  g.gravity[1] = settings.step.gravity.y;
  g.gravity[2] = settings.step.gravity.z;
  g.gravityLength = glm::length(settings.step.gravity);
  g.damping = integrate ? integrate->damping : 1.0f;
  g.chebyshevRho = settings.vbd.chebyshevRho;
  g.substeps = substeps;
  g.iterations = uint32_t(std::max(settings.step.iterations, 1));
  g.initialGuess = uint32_t(settings.vbd.initialGuess);
  g.colorCount = s.vertexColors.count();
  g.colorStartsBase = inputs_.colorStartsBase();
  g.integrate = integrate ? 1u : 0u;
  // The curve the CPU stepper keeps: the last substep's (recordResidual for a single substep).
  g.recordSubstep = integrate ? substeps - 1 : (residual_.recording() ? 0u : substeps);
  cl_int e = CL_SUCCESS;
  if (g.recordSubstep < substeps) e = residual_.prepareHistory(ctx, int(g.iterations));
  if (e != CL_SUCCESS) return e;
  // The group kernel needs a status buffer even when it does not integrate (it never reads it then).
  const DeviceBuffer<uint32_t>& status = integrate ? *integrate->status : inContact_;
  oneGroupRan_ = true;
  integratedRan_ = integrate != nullptr;
  cl::Kernel& k = program_.kernel(kStepGroup);
  e = setKernelArgs(k, g, inputs_.topology, inputs_.restData, s.x, s.v, s.xPrev, s.xInertial, s.tets, s.DmInv, s.edges,
                    inputs_.bodies, inputs_.edgeStiffness, inputs_.colliders.records, inContact_, snapshot_,
                    s.bodyContacts.arrays, residual_.history(), vertexHistory_, status);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, fit_.groupSize, fit_.groupSize, profiler.record(stageGroup_));
  return e;
}

cl_int VbdSolverGpu::enqueueSubstep(const ClContext& ctx, const SolverSettings& settings, float h, DeviceState& s,
                                    Profiler& profiler) {
  if (model_ == nullptr) return CL_INVALID_OPERATION;  // reset() first
  if (registeredWith_ != &profiler) registerStages(profiler, s);
  if (!inputs_.refresh(ctx, *model_, settings.colliders, springChoice(settings.step.constraints))) return CL_OUT_OF_RESOURCES;
  if (oneGroup(settings, s)) return enqueueGroup(ctx, settings, h, 1u, nullptr, s, profiler);
  oneGroupRan_ = false;
  const VbdParams& p = settings.vbd;
  const clm::VbdMouse mouse = packMouse(mouse_, s.vertexCount);
  const uint32_t terms = this->terms(settings, mouse) | (s.springs.any() ? VBD_TERM_ANCHOR_SPRINGS : 0u);
  const size_t local = program_.localSize();
  const uint32_t n = s.vertexCount;

  // VBD Sec. 3.7: the initial guess (|g| from the host, as vbdInitialGuess computes it).
  const glm::vec4 gravity(settings.step.gravity, glm::length(settings.step.gravity));
  cl::Kernel& init = program_.kernel(kInitGuess);
  const uint32_t takeSnapshot = (terms & VBD_TERM_BODY_CONTACTS) ? 1u : 0u;
  cl_int e = setKernelArgs(init, n, s.x, s.v, vertexHistory_, gravity, h, uint32_t(p.initialGuess),
                           uint32_t((terms & VBD_TERM_ACCELERATE) ? 1u : 0u), snapshot_, takeSnapshot);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, init, n, local, profiler.record(stageInit_));

  const int iterations = std::max(settings.step.iterations, 1);
  if (e == CL_SUCCESS) e = residual_.begin(ctx, iterations);
  float omega = 1.0f;
  for (int it = 1; it <= iterations && e == CL_SUCCESS; ++it) {
    for (uint32_t c = 0; c < s.vertexColors.count() && e == CL_SUCCESS; ++c)
      e = enqueueColor(ctx, settings, h, s, mouse, terms, c, profiler);
    if (e == CL_SUCCESS) e = residual_.reduce(ctx, program_.kernel(kResidualRms), it - 1, profiler, stageResidual_);
    if ((terms & VBD_TERM_ACCELERATE) && e == CL_SUCCESS) {
      omega = chebyshevOmega(it, p.chebyshevRho, omega);  // VBD Sec. 3.8
      cl::Kernel& k = program_.kernel(kChebyshev);
      const uint32_t overRelax = chebyshevOverRelaxes(it, iterations) ? 1u : 0u;
      e = setKernelArgs(k, n, s.x, vertexHistory_, inContact_, omega, overRelax, snapshot_, takeSnapshot);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, n, local, profiler.record(stageChebyshev_));
    }
  }
  if (e == CL_SUCCESS && tethersOn(settings)) {
    if (!tethers_.refresh(ctx, *model_, settings.positionBased.tetherSlack)) return CL_OUT_OF_RESOURCES;
    e = tethers_.enqueue(ctx.queue, program_.kernel(kTethers), s, local, profiler.record(stageTethers_));
  }
  return e;
}

cl_int VbdSolverGpu::enqueueColor(const ClContext& ctx, const SolverSettings& settings, float h, DeviceState& s,
                                  const clm::VbdMouse& mouse, uint32_t terms, uint32_t c, Profiler& profiler) {
  const size_t local = program_.localSize();
  const uint32_t begin = s.vertexColors.begin(c), count = s.vertexColors.end(c) - begin;
  // Body contacts: this launch refreshes the partner snapshot of the next colour
  // (vbd.cl); the first colour copies its own in a launch before. The last
  // colour must not write the first's: it reads it (a partner of an earlier
  // colour is read from the snapshot, common/vbd_assembly.clh).
  const bool bodyContacts = (terms & VBD_TERM_BODY_CONTACTS) != 0;
  const uint32_t colors = s.vertexColors.count();
  const bool ownSnapshot = bodyContacts && c == 0;
  const uint32_t nextColor = c + 1;
  const glm::uvec2 next = bodyContacts && nextColor < colors
                              ? glm::uvec2(s.vertexColors.begin(nextColor),
                                           s.vertexColors.end(nextColor) - s.vertexColors.begin(nextColor))
                              : glm::uvec2(0u);
  if (count == 0 && next.y == 0) return CL_SUCCESS;
  const bool snapshot = (terms & VBD_TERM_MOUSE) && inputs_.needsMouseSnapshot(mouse, c);
  cl_int e = CL_SUCCESS;
  if (ownSnapshot) {
    cl::Kernel& k = program_.kernel(kSnapshot);
    e = setKernelArgs(k, begin, count, s.vertexColorOrder, s.x, snapshot_);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, count, local, profiler.record(stageSnapshot_));
    if (e != CL_SUCCESS) return e;
  }
  if (snapshot) {
    cl::Kernel& k = program_.kernel(kMouseOffset);
    e = setKernelArgs(k, s.x, mouse, inputs_.mouseOffset);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, 1, 0, profiler.record(stageMouse_));
    if (e != CL_SUCCESS) return e;
  }
  clm::VbdStepParams sp = stepParams(settings, h, terms, s.bodyContacts.slotCount);
  sp.begin = begin;
  sp.count = count;
  sp.color = c;
  sp.nextBegin = next.x;
  sp.nextCount = next.y;
  sp.mouseFromOffset = snapshot ? 1u : 0u;
  cl::Kernel& k = program_.kernel(kSolve);
  e = setKernelArgs(k, sp, mouse, inputs_.topology, inputs_.restData, s.x, s.xPrev, s.xInertial, s.tets, s.DmInv,
                    s.edges, inputs_.bodies, inputs_.edgeStiffness, inputs_.colliders.records, inputs_.mouseOffset,
                    inContact_, snapshot_, s.bodyContacts.arrays, residual_.residual, s.springs.topology,
                    s.springs.anchor, s.springs.stiffness);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, std::max(count, next.y), local, profiler.record(stageColor_[c]));
  return e;
}

}  // namespace

Result<std::unique_ptr<GpuSolver>> makeVbdSolverGpu(const ClContext& ctx, const KernelSourceOptions& source) {
  auto program = KernelProgram::create(ctx, source, "cl/vbd.cl", kernelNames());
  if (!program) return program.error();
  return std::unique_ptr<GpuSolver>(new VbdSolverGpu(std::move(*program), ctx.info));
}

}  // namespace tetlab
