#include "gpu/solvers/rayleigh_damping_gpu.h"

#include <algorithm>
#include <cmath>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/rayleigh_damping.clh"

#include "core/model/body_constants.h"
#include "core/model/cloth_membrane.h"
#include "gpu/cl/cl_error.h"
#include "gpu/cl/launch.h"

namespace tetlab {
namespace {

static_assert(kRayleighGroupSize == RD_GROUP, "rd_scalars' work-group is RD_GROUP (common/rayleigh_damping.clh)");

cl_int launchGroups(const cl::CommandQueue& queue, const cl::Kernel& kernel, size_t groups, cl::Event* event) {
  if (groups == 0) return CL_SUCCESS;
  return queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * kRayleighGroupSize),
                                    cl::NDRange(kRayleighGroupSize), nullptr, event);
}

template <class T>
Status ensureSize(const ClContext& ctx, DeviceBuffer<T>& b, size_t count, const char* label) {
  count = std::max<size_t>(count, 1);
  if (b.size() == count) return Ok{};
  auto made = DeviceBuffer<T>::create(ctx.context, count, CL_MEM_READ_WRITE, label);
  if (!made) return made.error();
  b = std::move(*made);
  return Ok{};
}

template <class T>
Status upload(const ClContext& ctx, DeviceBuffer<T>& b, const std::vector<T>& host, const char* label) {
  if (Status s = ensureSize(ctx, b, host.size(), label); !s) return s;
  if (!host.empty())
    if (cl_int e = b.upload(ctx.queue, std::span<const T>(host)); e != CL_SUCCESS)
      return clError(std::string("uploading ") + label, e);
  return Ok{};
}

}  // namespace

Result<RayleighDampingGpu> RayleighDampingGpu::create(const ClContext& ctx, const KernelSourceOptions& source) {
  if (ctx.info.maxWorkGroupSize != 0 && ctx.info.maxWorkGroupSize < kRayleighGroupSize)
    return Error{"the damping pass needs work-groups of " + std::to_string(kRayleighGroupSize) + " items but " +
                 ctx.info.name + " allows " + std::to_string(ctx.info.maxWorkGroupSize) +
                 "; choose another OpenCL device"};
  auto program = KernelProgram::create(
      ctx, source, "cl/rayleigh_damping.cl",
      {"rd_tets", "rd_begin", "rd_product", "rd_update", "rd_scalars", "rd_direction", "rd_finish"});
  if (!program) return program.error();
  RayleighDampingGpu d(std::move(*program));
  auto scalars = DeviceBuffer<float>::create(ctx.context, RD_SCALAR_SLOTS, CL_MEM_READ_WRITE, "damping scalars");
  if (!scalars) return scalars.error();
  d.scalars_ = std::move(*scalars);
  return d;
}

Status RayleighDampingGpu::prepare(const ClContext& ctx, const SimModel& model, const DeviceState& s,
                                   SpringChoice edgeSprings) {
  if (!materialsStamp_.current(model.materials) || edgeSprings_ != edgeSprings) {
    std::vector<float> edgeStiffness;
    packEdgeStiffness(model, edgeSprings, edgeStiffness);
    if (Status st = upload(ctx, bodies_, hostBodies_, "damping bodies"); !st) return st;
    if (Status st = upload(ctx, edgeStiffness_, edgeStiffness, "damping edge stiffness"); !st) return st;
    materialsStamp_.take(model.materials);
    edgeSprings_ = edgeSprings;
  }
  const size_t n = s.vertexCount;
  for (DeviceBuffer<glm::vec4>* b : {&dv_, &r_, &p_, &q_})
    if (Status st = ensureSize(ctx, *b, n, "damping CG vector"); !st) return st;
  if (Status st = ensureSize(ctx, corner_, 4 * size_t(s.tetCount), "damping tet corners"); !st) return st;
  return ensureSize(ctx, terms_, n, "damping dot-product terms");
}

Status RayleighDampingGpu::enqueue(const ClContext& ctx, const SimModel& model, const StepSettings& step,
                                   DeviceState& s, Profiler& profiler) {
  if (!materialsStamp_.current(model.materials)) anyDamped_ = packNeoHookeanBodies(model, hostBodies_);
  applied_ = anyDamped_ && s.vertexCount > 0 && step.dt > 0.0f;
  if (!applied_) return Ok{};
  if (Status st = prepare(ctx, model, s, springChoice(step.constraints)); !st) return st;

  const StageId stage = profiler.addStage(Stage::Damping);
  const cl::CommandQueue& queue = ctx.queue;
  const size_t local = program_.localSize();
  const uint32_t n = s.vertexCount, tetCount = s.tetCount;
  const uint32_t springs = anyEdgeSprings(model, springChoice(step.constraints)) ? 1u : 0u;
  const uint32_t membranes =
      clothMembraneOn(model, step.constraints.membrane) && s.membranes.size() == model.membraneCount() ? 1u : 0u;
  // An empty buffer cannot be an argument: a model without membranes passes x in their place (never read).
  const cl::Buffer& membraneIds = membranes ? s.membranes.buffer() : s.x.buffer();
  const cl::Buffer& membraneDmInv = membranes ? s.membraneDmInv.buffer() : s.x.buffer();
  const cl::Buffer& membraneArea = membranes ? s.membraneArea.buffer() : s.x.buffer();
  const cl::Buffer& membraneOffsets = membranes ? s.vertexMembranesOffsets.buffer() : s.x.buffer();
  const cl::Buffer& membraneItems = membranes ? s.vertexMembranesItems.buffer() : s.x.buffer();
  const uint32_t maxIterations = uint32_t(std::max(0, step.rayleigh.maxIterations));
  const float dt = step.dt, tolerance = step.rayleigh.tolerance;
  auto fail = [](const char* what, cl_int e) { return clError(std::string("enqueueing ") + what, e); };

  // Clears RD_DONE so rd_tets runs for the first product.
  if (cl_int e = scalars_.fill(queue, 0.0f); e != CL_SUCCESS) return fail("the damping scalars", e);
  cl::Kernel& tets = program_.kernel(kTets);
  auto enqueueTets = [&](const DeviceBuffer<glm::vec4>& d) {
    cl_int e = setKernelArgs(tets, tetCount, s.x, d, s.tets, s.DmInv, s.restVolume, s.tetBody, bodies_, corner_,
                             scalars_);
    return e == CL_SUCCESS ? launch1D(queue, tets, tetCount, local, profiler.record(stage)) : e;
  };
  cl::Kernel& scalars = program_.kernel(kScalars);
  auto enqueueScalars = [&](uint32_t mode) {
    cl_int e = setKernelArgs(scalars, terms_, n, mode, maxIterations, tolerance, scalars_);
    return e == CL_SUCCESS ? launchGroups(queue, scalars, 1, profiler.record(stage)) : e;
  };

  if (cl_int e = enqueueTets(s.v); e != CL_SUCCESS) return fail("rd_tets", e);
  cl::Kernel& begin = program_.kernel(kBegin);
  cl_int e = setKernelArgs(begin, n, s.x, s.v, corner_, s.vertexTetsOffsets, s.vertexTetsItems, springs, s.edges,
                           s.restLength, edgeStiffness_, s.vertexEdgesOffsets, s.vertexEdgesItems, s.vertexBody,
                           bodies_, membranes, membraneIds, membraneDmInv, membraneArea, membraneOffsets,
                           membraneItems, dt, r_, p_, dv_, terms_);
  if (e == CL_SUCCESS) e = launch1D(queue, begin, n, local, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("rd_begin", e);
  if (e = enqueueScalars(RD_SCALARS_BEGIN); e != CL_SUCCESS) return fail("rd_scalars", e);

  cl::Kernel& product = program_.kernel(kProduct);
  cl::Kernel& update = program_.kernel(kUpdate);
  cl::Kernel& direction = program_.kernel(kDirection);
  e = setKernelArgs(product, n, s.x, p_, s.mass, corner_, s.vertexTetsOffsets, s.vertexTetsItems, springs, s.edges,
                    s.restLength, edgeStiffness_, s.vertexEdgesOffsets, s.vertexEdgesItems, s.vertexBody, bodies_,
                    membranes, membraneIds, membraneDmInv, membraneArea, membraneOffsets, membraneItems, dt, q_,
                    terms_, scalars_);
  if (e == CL_SUCCESS) e = setKernelArgs(update, n, s.x, p_, q_, dv_, r_, terms_, scalars_);
  if (e == CL_SUCCESS) e = setKernelArgs(direction, n, s.x, r_, p_, scalars_);
  if (e != CL_SUCCESS) return fail("the damping kernels' arguments", e);
  for (uint32_t k = 0; k < maxIterations; ++k) {
    // rd_tets' arguments are reset per call (its d alternates between v and p).
    if (e = enqueueTets(p_); e != CL_SUCCESS) return fail("rd_tets", e);
    if (e = launch1D(queue, product, n, local, profiler.record(stage)); e != CL_SUCCESS) return fail("rd_product", e);
    if (e = enqueueScalars(RD_SCALARS_ALPHA); e != CL_SUCCESS) return fail("rd_scalars", e);
    if (e = launch1D(queue, update, n, local, profiler.record(stage)); e != CL_SUCCESS) return fail("rd_update", e);
    if (e = enqueueScalars(RD_SCALARS_BETA); e != CL_SUCCESS) return fail("rd_scalars", e);
    if (e = launch1D(queue, direction, n, local, profiler.record(stage)); e != CL_SUCCESS)
      return fail("rd_direction", e);
  }
  cl::Kernel& finish = program_.kernel(kFinish);
  e = setKernelArgs(finish, n, dv_, s.v);
  if (e == CL_SUCCESS) e = launch1D(queue, finish, n, local, profiler.record(stage));
  if (e != CL_SUCCESS) return fail("rd_finish", e);
  return Ok{};
}

Result<RayleighDampingReport> RayleighDampingGpu::readReport(const ClContext& ctx) const {
  RayleighDampingReport report;
  if (!applied_) return report;
  float host[RD_SCALAR_SLOTS] = {};
  if (cl_int e = scalars_.download(ctx.queue, std::span<float>(host, RD_SCALAR_SLOTS)); e != CL_SUCCESS)
    return clError("reading the damping scalars", e);
  report.applied = true;
  report.iterations = int(host[RD_ITERATIONS]);
  report.relativeResidual = host[RD_RZ0] > 0.0f ? std::sqrt(std::max(host[RD_RZ], 0.0f) / host[RD_RZ0]) : 0.0f;
  return report;
}

std::string RayleighDampingGpu::pollKernels() {
  program_.poll();
  return program_.lastError();
}

}  // namespace tetlab
