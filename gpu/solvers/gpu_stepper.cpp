#include "gpu/solvers/gpu_stepper.h"

#include <cmath>

#include "gpu/cl/cl_error.h"
#include "gpu/cl/launch.h"
#include "core/sim/force_fields.h"
#include "core/sim/sphere_constraints.h"
#include "core/sim/stepper.h"

namespace tetlab {

namespace {
constexpr uint32_t kAllFinite = 0xffffffffu;  // STEP_ALL_FINITE in step_common.cl
}

Result<GpuStepper> GpuStepper::create(const ClContext& ctx, const KernelSourceOptions& source) {
  auto program = KernelProgram::create(ctx, source, "cl/step_common.cl",
                                       {"step_predict", "step_velocity", "step_rollback", "step_wind",
                                        "step_wind_apply", "step_spheres", "step_fields", "step_gather_springs"});
  if (!program) return program.error();
  const uint32_t init[2] = {kAllFinite, kAllFinite};
  auto status = DeviceBuffer<uint32_t>::fromHost(ctx.context, ctx.queue, init, CL_MEM_READ_WRITE, "step status");
  if (!status) return status.error();
  auto contacts = BodyContactDetectorGpu::create(ctx, source);
  if (!contacts) return contacts.error();
  auto damping = RayleighDampingGpu::create(ctx, source);
  if (!damping) return damping.error();
  return GpuStepper(std::move(*program), std::move(*status), std::move(*contacts), std::move(*damping));
}

Status GpuStepper::enqueueBodyContacts(const ClContext& ctx, const SolverSettings& settings, DeviceState& s,
                                       Profiler& profiler, StageId stage) {
  if (settings.step.constraints.bodyContacts &&
      bodyContactDetectionApplies(settings.bodyContacts, s.bodyCount, s.bodyContacts.slotCount)) {
    detectedInto_ = &s.bodyContacts;
    return contacts_.enqueue(ctx, settings.bodyContacts, s, profiler, stage);
  }
  if (detectedInto_ != &s.bodyContacts) return Ok{};
  detectedInto_ = nullptr;
  if (cl_int e = clearDeviceBodyContacts(ctx, s.bodyContacts); e != CL_SUCCESS)
    return clError("clearing the body contacts", e);
  return Ok{};
}

Status GpuStepper::uploadFields(const ClContext& ctx, const ForceFields& fields) {
  std::vector<glm::vec4> packed = packForceFields(fields);
  if (packed == fieldsPacked_) return Ok{};
  fieldCount_ = uint32_t(packed.size() / kForceFieldStride);
  if (!packed.empty()) {
    if (fields_.size() < packed.size()) {
      auto buffer = DeviceBuffer<glm::vec4>::create(ctx.context, packed.size(), CL_MEM_READ_ONLY, "force fields");
      if (!buffer) return buffer.error();
      fields_ = std::move(*buffer);
    }
    if (cl_int e = fields_.upload(ctx.queue, std::span<const glm::vec4>(packed)); e != CL_SUCCESS)
      return clError("uploading the force fields", e);
  }
  fieldsPacked_ = std::move(packed);
  return Ok{};
}

Status GpuStepper::enqueueStep(const ClContext& ctx, const SimModel& model, const SolverSettings& settings,
                               GpuSolver& solver, DeviceState& s, Profiler& profiler) {
  const int substeps = settings.step.substeps > 0 ? settings.step.substeps : 1;
  const float h = settings.step.dt / float(substeps);
  const glm::vec4 gravity(settings.step.gravity, 0.0f);
  const float damping = std::exp(-settings.step.velocityDamping * h);
  const StageId predictStage = profiler.addStage(Stage::Predict);
  const StageId contactsStage = profiler.addStage(Stage::BodyContacts);
  const StageId velocityStage = profiler.addStage(Stage::Velocity);
  const size_t local = program_.localSize();
  const uint32_t n = s.vertexCount;

  if (cl_int e = status_.fill(ctx.queue, kAllFinite, 0, 1); e != CL_SUCCESS) return clError("clearing step status", e);
  cl::Kernel& predict = program_.kernel(kPredict);
  cl::Kernel& velocity = program_.kernel(kVelocity);
  const bool detects = settings.step.constraints.bodyContacts &&
                       bodyContactDetectionApplies(settings.bodyContacts, s.bodyCount, s.bodyContacts.slotCount);
  // The wind kicks v before each predict: the fused steps predict inside, so it needs the substep loop.
  const bool wind = windActs(model, settings) && s.windDv.size() == n;
  // Strand diameters are live (a thickness edit): re-pack the wind's elements when the materials change.
  if (wind && model.hasStrands() && !windElements_.current(model.materials)) {
    if (cl_int e = s.clothTriangles.upload(ctx.queue, packWindElements(model)); e != CL_SUCCESS)
      return clError("uploading the wind's elements", e);
    windElements_.take(model.materials);
  }
  // The spheres act between a substep's solve and its velocity update: also the substep loop.
  const bool spheres = s.spheresActive && s.motionStart.size() == n;
  const float sphereK = sphereSubstepStiffness(s.sphereStiffness, h);
  // Force fields kick v before each predict, as the wind does: the substep loop too.
  if (Status st = uploadFields(ctx, settings.forceFields); !st) return st;
  const bool fields = fieldCount_ > 0;
  const bool fused = !detects && !wind && !spheres && !fields && solver.fusesStep(settings, s);
  if (fused) {
    // Clears contacts an earlier detection left (nothing is detected here).
    if (Status st = enqueueBodyContacts(ctx, settings, s, profiler, contactsStage); !st) return st;
    solver.recordResidual(true);
    const FusedStep step{h, uint32_t(substeps), damping, &status_};
    if (cl_int e = solver.enqueueStep(ctx, settings, step, s, profiler); e != CL_SUCCESS)
      return clError("enqueueing the solver's fused step", e);
    for (int sub = 0; sub < substeps; ++sub) time_ += double(h);
  }
  for (int sub = 0; sub < substeps && !fused; ++sub) {
    cl_int e = CL_SUCCESS;
    if (wind) {
      const glm::vec3 w = windVelocityAt(settings.wind, time_);
      const glm::vec4 air(w, settings.wind.fluidDensity), coeff(settings.wind.drag, settings.wind.lift, h, 0.0f);
      cl::Kernel& k = program_.kernel(kWind);
      e = setKernelArgs(k, n, s.x, s.v, s.clothTriangles, s.vertexClothOffsets, s.vertexClothItems, air, coeff,
                        s.windDv, status_);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, n, local, profiler.record(predictStage));
      cl::Kernel& apply = program_.kernel(kWindApply);
      if (e == CL_SUCCESS) e = setKernelArgs(apply, n, s.v, s.windDv, status_);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, apply, n, local, profiler.record(predictStage));
      if (e != CL_SUCCESS) return clError("enqueueing step_wind", e);
    }
    if (fields) {
      cl::Kernel& k = program_.kernel(kFields);
      e = setKernelArgs(k, n, s.x, s.v, fields_, fieldCount_, h, status_);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, n, local, profiler.record(predictStage));
      if (e != CL_SUCCESS) return clError("enqueueing step_fields", e);
    }
    e = setKernelArgs(predict, s.x, s.xPrev, s.xInertial, s.v, gravity, h, n, status_);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, predict, n, local, profiler.record(predictStage));
    if (e != CL_SUCCESS) return clError("enqueueing step_predict", e);

    if (Status st = enqueueBodyContacts(ctx, settings, s, profiler, contactsStage); !st) return st;

    solver.recordResidual(sub == substeps - 1);  // the curve the CPU stepper keeps: the last substep's
    if (e = solver.enqueueSubstep(ctx, settings, h, s, profiler); e != CL_SUCCESS)
      return clError("enqueueing the solver substep", e);
    if (spheres) {
      cl::Kernel& k = program_.kernel(kSpheres);
      const float t = float(sub + 1) / float(substeps);
      e = setKernelArgs(k, n, s.x, s.motionStart, s.motionTarget, s.separationStart, s.separationTarget, t, sphereK,
                        status_);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, n, local, profiler.record(velocityStage));
      if (e != CL_SUCCESS) return clError("enqueueing step_spheres", e);
    }

    e = setKernelArgs(velocity, s.x, s.xPrev, s.xInertial, s.v, gravity, h, damping, n, status_);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, velocity, n, local, profiler.record(velocityStage));
    if (e != CL_SUCCESS) return clError("enqueueing step_velocity", e);
    time_ += double(h);
  }
  if (Status st = damping_.enqueue(ctx, model, settings.step, s, profiler); !st) return st;
  cl::Kernel& rollback = program_.kernel(kRollback);
  cl_int e = setKernelArgs(rollback, s.x, s.xPrev, s.v, n, status_);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, rollback, n, local, profiler.record(velocityStage));
  if (e != CL_SUCCESS) return clError("enqueueing step_rollback", e);
  return Ok{};
}

Result<int64_t> GpuStepper::readBadVertex(const ClContext& ctx) {
  uint32_t sticky = kAllFinite;
  if (cl_int e = status_.download(ctx.queue, std::span<uint32_t>(&sticky, 1), 1); e != CL_SUCCESS)
    return clError("reading the step status", e);
  if (cl_int e = status_.fill(ctx.queue, kAllFinite, 1, 1); e != CL_SUCCESS)
    return clError("clearing the step status", e);
  return sticky == kAllFinite ? int64_t(-1) : int64_t(sticky);
}

Status GpuStepper::readSpringPositions(const ClContext& ctx, DeviceState& state, std::vector<glm::vec4>& out) {
  DeviceSprings& sp = state.springs;
  out.resize(sp.count);
  if (sp.count == 0) return Ok{};
  cl::Kernel& k = program_.kernel(kGatherSprings);
  cl_int e = setKernelArgs(k, sp.count, sp.vertex, state.x, sp.gathered);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, sp.count, 0);
  if (e == CL_SUCCESS) e = sp.gathered.download(ctx.queue, std::span<glm::vec4>(out));
  return clCheck(e, "reading back the anchor springs' vertices");
}

Result<BodyContactDetectionStats> GpuStepper::readBodyContactStats(const ClContext& ctx, const DeviceState& state) {
  return contacts_.readStats(ctx, state.bodyContacts);
}

std::string GpuStepper::pollKernels() {
  program_.poll();
  contacts_.poll();
  std::string log = program_.lastError();
  if (!contacts_.lastError().empty()) log += (log.empty() ? "" : "\n") + contacts_.lastError();
  if (const std::string damping = damping_.pollKernels(); !damping.empty()) log += (log.empty() ? "" : "\n") + damping;
  return log;
}

}  // namespace tetlab
