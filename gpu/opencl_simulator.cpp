#include "gpu/opencl_simulator.h"

#include "gpu/cl_error.h"
#include "gpu/gpu_solver_factory.h"

namespace tetlab {

OpenClSimulator::OpenClSimulator(const SimModel& model, ClContext ctx, DeviceState device, GpuStepper stepper,
                                 KernelSourceOptions kernels)
    : model_(&model),
      ctx_(std::move(ctx)),
      device_(std::move(device)),
      stepper_(std::move(stepper)),
      kernels_(std::move(kernels)) {}

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

Status OpenClSimulator::step(const SolverSettings& settings) {
  if (settings.solver != active_ || !solvers_[size_t(active_)]) {
    if (Status s = setSolver(settings.solver); !s) return s;
  }
  return stepper_.enqueueStep(ctx_, settings, *solvers_[size_t(active_)], device_, profiler_);
}

void OpenClSimulator::setAttachment(const Attachment& mouse) {
  mouse_ = mouse;
  if (solvers_[size_t(active_)]) solvers_[size_t(active_)]->setAttachment(mouse_);
}

Status OpenClSimulator::uploadState(const State& state) {
  if (Status s = tetlab::uploadState(ctx_, device_, state); !s) return s;
  setAttachment(state.mouse);
  // Multipliers belong to the solver's constraint layout, which the host
  // state need not share: let the active solver re-initialise them.
  if (solvers_[size_t(active_)]) return solvers_[size_t(active_)]->reset(ctx_, *model_, device_);
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

Result<int64_t> OpenClSimulator::readBadVertex() {
  Result<int64_t> bad = stepper_.readBadVertex(ctx_);
  if (!bad) return bad;
  if (auto stats = readBodyContactStats(); !stats) return stats.error();
  return bad;
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

Status OpenClSimulator::finish() const {
  if (cl_int e = ctx_.queue.finish(); e != CL_SUCCESS) return clError("waiting for the OpenCL queue", e);
  return Ok{};
}

std::string OpenClSimulator::pollKernels() {
  std::string log = stepper_.pollKernels();
  if (solvers_[size_t(active_)]) {
    std::string solverLog = solvers_[size_t(active_)]->pollKernels();
    if (!solverLog.empty()) log += (log.empty() ? "" : "\n") + solverLog;
  }
  return log;
}

}  // namespace tetlab
