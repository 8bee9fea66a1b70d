#include "gpu/solvers/vbd_family_gpu.h"

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/vbd_initial_guess.clh"

#include <algorithm>
#include <span>

#include "core/sim/held_bodies.h"
#include "gpu/cl/cl_error.h"
#include "gpu/cl/launch.h"
#include "gpu/solvers/vbd_schedule.h"

namespace tetlab {

namespace {

}  // namespace

clm::VbdMouse packMouse(const Attachment& mouse, uint32_t vertexCount) {
  clm::VbdMouse m{};
  const size_t most = VBD_MAX_MOUSE_VERTICES;
  m.vertices = uint32_t(std::min(mouse.vertices.size(), most));
  m.slots = uint32_t(std::min({mouse.vertices.size(), mouse.weights.size(), most}));
  bool inRange = mouse.vertices.size() <= most;
  for (uint32_t k = 0; k < m.vertices; ++k) {
    inRange = inRange && mouse.vertices[k] < vertexCount;
    m.ids[k] = mouse.vertices[k] < vertexCount ? mouse.vertices[k] : 0u;
  }
  for (uint32_t k = 0; k < m.slots; ++k) m.weights[k] = mouse.weights[k];
  if (!inRange) m.vertices = m.slots = 0;
  m.target[0] = mouse.target.x;
  m.target[1] = mouse.target.y;
  m.target[2] = mouse.target.z;
  m.stiffness = mouse.stiffness;
  m.maxForce = mouse.maxForce;
  m.active = mouse.active ? 1u : 0u;
  return m;
}

Status VbdFamilyInputs::reset(const ClContext& ctx, const SimModel& model) {
  uploaded_ = false;
  colliders.forget();
  colorOfVertex_.assign(model.vertexCount(), 0u);
  for (uint32_t c = 0; c < model.vertexColors.count(); ++c)
    for (uint32_t k = model.vertexColors.begin(c); k < model.vertexColors.end(c); ++k)
      colorOfVertex_[model.vertexColorOrder[k]] = c;
  auto offset = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, std::vector<glm::vec4>(2, glm::vec4(0.0f)),
                                                 CL_MEM_READ_WRITE, "mouseOffset");
  if (!offset) return offset.error();
  mouseOffset = std::move(*offset);

  // The packed model buffers (layout in the header).
  std::vector<uint32_t> topo;
  auto append = [](auto& to, const auto& from) {
    const uint32_t base = uint32_t(to.size());
    to.insert(to.end(), from.begin(), from.end());
    return base;
  };
  append(topo, model.vertexColorOrder);
  sections_.colorOfBase = append(topo, colorOfVertex_);
  sections_.tetBodyBase = append(topo, model.tetBody);
  sections_.vertexTetsOffsetsBase = append(topo, model.vertexTets.offsets);
  sections_.vertexTetsItemsBase = append(topo, model.vertexTets.items);
  sections_.vertexEdgesOffsetsBase = append(topo, model.vertexEdges.offsets);
  sections_.vertexEdgesItemsBase = append(topo, model.vertexEdges.items);
  sections_.colorStartsBase = append(topo, model.vertexColors.offsets);
  // uint4 / float4 sections start on a multiple of 4 (the kernels cast them).
  auto align4 = [](auto& v) { v.resize((v.size() + 3) / 4 * 4); };
  align4(topo);
  sections_.hingesBase = append(topo, std::span(reinterpret_cast<const uint32_t*>(model.hinges.data()),
                                                model.hinges.size() * 4));
  sections_.hingeBodyBase = append(topo, model.hingeBody);
  sections_.vertexHingesOffsetsBase = append(topo, model.vertexHinges.offsets);
  sections_.vertexHingesItemsBase = append(topo, model.vertexHinges.items);
  align4(topo);
  sections_.membranesBase = append(topo, std::span(reinterpret_cast<const uint32_t*>(model.membranes.data()),
                                                   model.membranes.size() * 4));
  sections_.vertexMembranesOffsetsBase = append(topo, model.vertexMembranes.offsets);
  sections_.vertexMembranesItemsBase = append(topo, model.vertexMembranes.items);
  sections_.vertexCount = model.vertexCount();
  if (topo.empty()) topo.push_back(0u);  // OpenCL forbids empty buffers
  std::vector<float> rest;
  append(rest, model.mass);
  sections_.restVolumeBase = append(rest, model.restVolume);
  sections_.restLengthBase = append(rest, model.restLength);
  align4(rest);
  sections_.hingeWeightsBase = append(rest, std::span(reinterpret_cast<const float*>(model.hingeWeights.data()),
                                                      model.hingeWeights.size() * 4));
  sections_.hingeRestBase = append(rest, std::span(reinterpret_cast<const float*>(model.hingeRest.data()),
                                                   model.hingeRest.size() * 4));
  align4(rest);
  sections_.membraneDmInvBase = append(rest, std::span(reinterpret_cast<const float*>(model.membraneDmInv.data()),
                                                       model.membraneDmInv.size() * 4));
  sections_.membraneAreaBase = append(rest, model.membraneArea);
  if (rest.empty()) rest.push_back(0.0f);
  auto t = DeviceBuffer<uint32_t>::fromHost(ctx.context, ctx.queue, topo, CL_MEM_READ_ONLY, "VBD topology");
  if (!t) return t.error();
  topology = std::move(*t);
  auto r = DeviceBuffer<float>::fromHost(ctx.context, ctx.queue, rest, CL_MEM_READ_ONLY, "VBD restData");
  if (!r) return r.error();
  restData = std::move(*r);
  return uploadMaterials(ctx, model, cache_.springs);
}

Status VbdFamilyInputs::uploadMaterials(const ClContext& ctx, const SimModel& model, SpringChoice edgeSprings) {
  cache_.refresh(model, edgeSprings);
  auto b = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, cache_.bodies, CL_MEM_READ_ONLY, "VBD bodies");
  if (!b) return b.error();
  auto k = DeviceBuffer<float>::fromHost(ctx.context, ctx.queue, cache_.edgeStiffness, CL_MEM_READ_ONLY,
                                         "VBD edgeStiffness");
  if (!k) return k.error();
  bodies = std::move(*b);
  edgeStiffness = std::move(*k);
  uploaded_ = true;
  return Ok{};
}

Status VbdFamilyInputs::refresh(const ClContext& ctx, const SimModel& model, const Colliders& c, SpringChoice edgeSprings) {
  if (!uploaded_ || !cache_.current(model, edgeSprings))
    if (Status st = uploadMaterials(ctx, model, edgeSprings); !st) return st;
  return colliders.refresh(ctx, c);
}

Status VbdResidualRecorder::reset(const ClContext& ctx, uint32_t vertexCount) {
  auto r = DeviceBuffer<float>::create(ctx.context, std::max<uint32_t>(vertexCount, 1u), CL_MEM_READ_WRITE,
                                       "residual per vertex");
  if (!r) return r.error();
  residual = std::move(*r);
  vertexCount_ = vertexCount;
  recorded_ = 0;
  on_ = false;
  return Ok{};
}

cl_int VbdResidualRecorder::begin(const ClContext& ctx, int iterations) {
  if (!on_) return CL_SUCCESS;
  if (cl_int e = prepareHistory(ctx, iterations); e != CL_SUCCESS) return e;
  return residual.fill(ctx.queue, -1.0f);
}

cl_int VbdResidualRecorder::prepareHistory(const ClContext& ctx, int iterations) {
  if (history_.size() < size_t(iterations)) {
    auto h = DeviceBuffer<float>::create(ctx.context, size_t(iterations), CL_MEM_READ_WRITE, "residual history");
    if (!h) return CL_OUT_OF_RESOURCES;
    history_ = std::move(*h);
  }
  recorded_ = iterations;
  return CL_SUCCESS;
}

cl_int VbdResidualRecorder::reduce(const ClContext& ctx, cl::Kernel& rms, int it, Profiler& profiler,
                                   StageId stage) {
  if (!on_) return CL_SUCCESS;
  cl_int e = setKernelArgs(rms, vertexCount_, residual, history_, uint32_t(it));
  // One work-group of VBD_RESIDUAL_GROUP (64) items: the kernel's __local arrays.
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, rms, 64, 64, profiler.record(stage));
  return e;
}

Result<std::vector<float>> VbdResidualRecorder::read(const ClContext& ctx) const {
  std::vector<float> out(static_cast<size_t>(recorded_));
  if (recorded_ > 0)
    if (cl_int e = history_.download(ctx.queue, out); e != CL_SUCCESS) return clError("reading the residual", e);
  return out;
}

cl_int resetVertexHistory(const ClContext& ctx, const DeviceState& s, const DeviceBuffer<glm::vec4>& history) {
  std::vector<glm::vec4> words(s.vertexCount, glm::vec4(0.0f, 0.0f, 0.0f, VBD_HISTORY_NONE));
  for (size_t i = 0; i < words.size() && i < s.heldVertices.size(); ++i)
    words[i].w = clm::vbd_history_start(int(s.heldVertices[i]), i < s.pivotVertices.size() ? s.pivotVertices[i] : kNoPivot);
  if (words.empty()) return CL_SUCCESS;
  return history.upload(ctx.queue, std::span<const glm::vec4>(words));
}

OneGroupFit oneGroupFit(const ClContext& ctx, const cl::Kernel& groupKernel, const SimModel& model) {
  OneGroupFit fit;
  for (uint32_t c = 0; c < model.vertexColors.count(); ++c)
    fit.largestColor = std::max(fit.largestColor, model.vertexColors.end(c) - model.vertexColors.begin(c));
  size_t kernelMax = 0;
  if (groupKernel.getWorkGroupInfo(ctx.device, CL_KERNEL_WORK_GROUP_SIZE, &kernelMax) != CL_SUCCESS) kernelMax = 0;
  fit.groupSize = vbdOneGroupSize(VBD_GROUP_MAX, ctx.info.maxWorkGroupSize, kernelMax, fit.largestColor);
  return fit;
}

bool VbdFamilyInputs::needsMouseSnapshot(const clm::VbdMouse& mouse, uint32_t color) const {
  uint32_t first = 0;
  bool seen = false;
  for (uint32_t k = 0; k < mouse.slots; ++k) {
    const uint32_t v = mouse.ids[k];
    if (v >= colorOfVertex_.size() || colorOfVertex_[v] != color) continue;
    if (seen && v != first) return true;
    first = v;
    seen = true;
  }
  return false;
}

}  // namespace tetlab
