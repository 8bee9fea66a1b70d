#include "gpu/solvers/opencl_simulator.h"

#include "gpu/cl/cl_error.h"
#include "gpu/solvers/gpu_solver_factory.h"

namespace tetlab {

OpenClSimulator::OpenClSimulator(const SimModel& model, ClContext ctx, DeviceState device, GpuStepper stepper,
                                 KernelSourceOptions kernels)
    : model_(&model),
      ctx_(std::move(ctx)),
      device_(std::move(device)),
      stepper_(std::move(stepper)),
      kernels_(std::move(kernels)) {
  profiler_.setEnabled(false);  // stage timing only when a reader asks (setStageTiming)
}

Result<std::unique_ptr<OpenClSimulator>> OpenClSimulator::create(const SimModel& model, const State& state,
                                                                 SolverKind kind,
                                                                 const OpenClSimulatorOptions& options) {
  auto ctx = createClContext(options.context);
  if (!ctx) return ctx.error();
  return create(model, state, kind, *ctx, options.kernels);
}

Result<std::unique_ptr<OpenClSimulator>> OpenClSimulator::create(const SimModel& model, const State& state,
                                                                 SolverKind kind, const ClContext& ctx,
                                                                 const KernelSourceOptions& kernels) {
  auto device = createDeviceState(ctx, model, state);
  if (!device) return device.error();
  auto stepper = GpuStepper::create(ctx, kernels);
  if (!stepper) return stepper.error();
  std::unique_ptr<OpenClSimulator> sim(
      new OpenClSimulator(model, ctx, std::move(*device), std::move(*stepper), kernels));
  sim->mouse_ = state.mouse;
  sim->springs_ = state.springs;
  sim->timeOffset_ = state.time - sim->stepper_.time();
  if (Status s = sim->setSolver(kind); !s) return s.error();
  return sim;
}

Status OpenClSimulator::setSolver(SolverKind kind) {
  std::unique_ptr<GpuSolver>& slot = solvers_[size_t(kind)];
  if (!slot) {
    auto made = makeGpuSolver(kind, ctx_, kernels_);
    if (!made) return made.error();
    slot = std::move(*made);
  }
  if (Status s = slot->reset(ctx_, *model_, device_); !s) return s;
  slot->setAttachment(mouse_);
  active_ = kind;
  return Ok{};
}

Status OpenClSimulator::step(const SolverSettings& settings, StepDiagnostics& out) {
  // Counted on the host as the step enqueues: no sync.
  const uint32_t before = profiler_.launches();
  Status st = step(settings);
  out.springsBroken = springsBroken_;
  out.launches = profiler_.launches() - before;
  out.schedule = solvers_[size_t(active_)] ? solvers_[size_t(active_)]->schedule() : "";
  return st;
}

Status OpenClSimulator::step(const SolverSettings& settings) {
  if (settings.solver != active_ || !solvers_[size_t(active_)]) {
    if (Status s = setSolver(settings.solver); !s) return s;
  }
  springsBroken_ = 0;
  Status st = stepper_.enqueueStep(ctx_, *model_, settings, *solvers_[size_t(active_)], device_, profiler_);
  // The end-of-frame break check (anchor_springs.h), the one read-back a
  // scene with springs costs per frame: its springs' vertices only.
  if (st && !springs_.empty()) {
    st = stepper_.readSpringPositions(ctx_, device_, springX_);
    if (st) springsBroken_ = breakOverloadedSprings(springs_, springX_, time());
    if (st && springsBroken_) st = updateSpringStiffness(ctx_, springs_, device_.springs);
  }
  return st;
}

void OpenClSimulator::setAttachment(const Attachment& mouse) {
  mouse_ = mouse;
  if (solvers_[size_t(active_)]) solvers_[size_t(active_)]->setAttachment(mouse_);
}

Status OpenClSimulator::uploadState(const State& state) {
  if (Status s = tetlab::uploadState(ctx_, *model_, device_, state); !s) return s;
  setAttachment(state.mouse);
  springs_ = state.springs;
  springX_.clear();
  timeOffset_ = state.time - stepper_.time();
  // Multipliers belong to the solver's constraint layout, which the host
  // state need not share: let the active solver re-initialise them.
  if (solvers_[size_t(active_)]) return solvers_[size_t(active_)]->reset(ctx_, *model_, device_);
  return Ok{};
}

Status OpenClSimulator::moveSpringAnchors(uint32_t spring, std::span<const glm::vec3> anchors) {
  if (spring >= springs_.springs.size()) return Error{"no anchor spring " + std::to_string(spring)};
  tetlab::moveSpringAnchors(springs_, spring, anchors);
  const AnchorSpring& s = springs_.springs[spring];
  if (device_.springs.count != springs_.subCount() || s.count == 0) return Ok{};
  const std::span<const glm::vec4> range(springs_.anchor.data() + s.first, s.count);
  return clCheck(device_.springs.anchor.upload(ctx_.queue, range, s.first), "moving the anchor springs' anchors");
}

Status OpenClSimulator::moveKinematic(std::span<const uint32_t> vertices, std::span<const glm::vec3> positions) {
  if (Status s = writeKinematicPositions(ctx_, device_, vertices, positions); !s) return s;
  if (GpuSolver* solver = solvers_[size_t(active_)].get())
    if (cl_int e = solver->pinsMoved(ctx_, vertices); e != CL_SUCCESS) return clError("moving the pin targets", e);
  return Ok{};
}

Status OpenClSimulator::uploadMasses() {
  if (cl_int e = device_.mass.upload(ctx_.queue, std::span<const float>(model_->mass)); e != CL_SUCCESS)
    return clError("uploading the lumped masses", e);
  return Ok{};
}

Status OpenClSimulator::downloadState(State& out) const { return tetlab::downloadState(ctx_, device_, out); }

Status OpenClSimulator::downloadPositions(std::vector<glm::vec4>& outX) const {
  return tetlab::downloadPositions(ctx_, device_, outX);
}

Result<int64_t> OpenClSimulator::readBadVertex() { return stepper_.readBadVertex(ctx_); }

Result<Simulator::BodyContactCounts> OpenClSimulator::readBodyContacts() {
  auto stats = readBodyContactStats();
  if (!stats) return stats.error();
  return BodyContactCounts{stats->active, stats->overflow};
}

Status OpenClSimulator::readDiagnostics(StepDiagnostics& out) {
  Result<int64_t> bad = readBadVertex();
  // The body-contact counts come with the same sync (a few bytes); this read
  // also grows the detection grid after an overflow.
  Result<BodyContactCounts> contacts = bad ? readBodyContacts() : Result<BodyContactCounts>(bad.error());
  lastTimings_ = takeTimings();
  if (!bad) return bad.error();
  if (!contacts) return contacts.error();
  out.finite = *bad < 0;
  out.badVertex = *bad;
  if (!out.finite) {
    out.problem = "non-finite position/velocity at vertex " + std::to_string(*bad) +
                  " (the step was rolled back). Try more substeps, a smaller dt, a softer material or another "
                  "Hessian safeguard";
    return Ok{};
  }
  out.problem.clear();
  out.residualHistory.clear();
  out.residual = 0.0f;
  // VBD and AVBD record the last substep's convergence curve on the device
  // (a few floats, read after the same sync); PBD and XPBD measure it on the CPU only.
  if (measuresResidual()) {
    Result<std::vector<float>> residual = readResidualHistory();
    if (!residual) return residual.error();
    out.residualHistory = std::move(*residual);
    if (!out.residualHistory.empty()) out.residual = out.residualHistory.back();
  }
  out.stepMs = lastTimings_.totalMs;
  out.bodyContacts = contacts->active;
  out.bodyContactOverflow = contacts->overflow;
  Result<RayleighDampingReport> damping = stepper_.readDampingReport(ctx_);
  if (!damping) return damping.error();
  out.dampingIterations = damping->iterations;
  out.dampingResidual = damping->relativeResidual;
  const double energyMs = out.stages[Stage::Energy];  // the energy is timed by whoever reads it
  out.stages = lastTimings_.byStage;
  out.stages[Stage::Energy] = energyMs;
  return Ok{};
}

Status OpenClSimulator::enableDeviceEnergy() {
  energy_.reset();
  Result<DeviceEnergy> energy = DeviceEnergy::create(ctx_, *model_, kernels_);
  if (!energy) return energy.error();
  energy_ = std::make_unique<DeviceEnergy>(std::move(*energy));
  return Ok{};
}

Result<EnergyReport> OpenClSimulator::readEnergy(const SolverSettings& settings) {
  if (!energy_) return Error{"the device energy kernels are not built"};
  Result<EnergyReport> energy = energy_->compute(ctx_, device_, *model_, settings);
  if (!energy) {
    energy_.reset();
    return energy;
  }
  // The anchor springs' share from the positions the break check read (anchor_springs.h).
  if (!springs_.empty()) {
    if (springX_.size() != springs_.subCount())
      if (Status s = stepper_.readSpringPositions(ctx_, device_, springX_); !s) return s.error();
    energy->elastic += anchorSpringEnergy(springs_, springX_);
  }
  return energy;
}

Result<BodyContactDetectionStats> OpenClSimulator::readBodyContactStats() {
  auto stats = stepper_.readBodyContactStats(ctx_, device_);
  if (stats) bodyContactStats_ = *stats;
  return stats;
}

Result<std::vector<float>> OpenClSimulator::readResidualHistory() {
  return solvers_[size_t(active_)]->readResidualHistory(ctx_);
}

bool OpenClSimulator::measuresResidual() const { return solvers_[size_t(active_)]->measuresResidual(); }

StepStats OpenClSimulator::takeTimings() { return profiler_.resolve(); }

Status OpenClSimulator::finish() {
  if (cl_int e = ctx_.queue.finish(); e != CL_SUCCESS) return clError("waiting for the OpenCL queue", e);
  return Ok{};
}

std::string OpenClSimulator::pollKernels() {
  std::string log = stepper_.pollKernels();
  if (solvers_[size_t(active_)]) {
    std::string solverLog = solvers_[size_t(active_)]->pollKernels();
    if (!solverLog.empty()) log += (log.empty() ? "" : "\n") + solverLog;
  }
  if (energy_ && energy_->poll() == HotProgram::PollResult::BuildFailed)
    log += (log.empty() ? "" : "\n") + energy_->lastError();
  return log;
}

}  // namespace tetlab
