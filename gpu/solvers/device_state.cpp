#include "gpu/solvers/device_state.h"

#include "core/sim/held_bodies.h"

#include "core/model/body_constants.h"
#include "core/sim/stepper.h"

namespace tetlab {

namespace {

template <class T>
Status makeBuffer(const ClContext& ctx, DeviceBuffer<T>& out, std::span<const T> data, const char* name,
                  cl_mem_flags flags = CL_MEM_READ_WRITE) {
  auto b = DeviceBuffer<T>::fromHost(ctx.context, ctx.queue, data, flags, name);
  if (!b) return b.error();
  out = std::move(*b);
  return Ok{};
}

template <class T>
Status uploadOrResize(const ClContext& ctx, DeviceBuffer<T>& buf, const std::vector<T>& data, const char* name) {
  if (buf.size() != data.size()) return makeBuffer<T>(ctx, buf, data, name);
  return clCheck(buf.upload(ctx.queue, data), std::string("uploading ") + name);
}

template <class T>
Status download(const ClContext& ctx, const DeviceBuffer<T>& buf, std::vector<T>& out, const char* name) {
  out.resize(buf.size());
  return clCheck(buf.download(ctx.queue, out), std::string("reading back ") + name);
}

Status checkState(const SimModel& model, const State& state) {
  const size_t n = model.vertexCount();
  if (state.x.size() != n || state.xPrev.size() != n || state.v.size() != n || state.xInertial.size() != n)
    return Error{"device state upload: State has " + std::to_string(state.x.size()) + " positions but the model has " +
                 std::to_string(n) + " vertices: create the State with makeState(model)"};
  return Ok{};
}

}  // namespace

size_t DeviceState::deviceBytes() const {
  return x.bytes() + xPrev.bytes() + v.bytes() + xInertial.bytes() + lambda.bytes() + penalty.bytes() + mass.bytes() +
         vertexBody.bytes() + tets.bytes() + DmInv.bytes() + restVolume.bytes() + tetBody.bytes() + edges.bytes() +
         restLength.bytes() + edgeVolume.bytes() + vertexColorOrder.bytes() + vertexTetsOffsets.bytes() +
         vertexTetsItems.bytes() + vertexEdgesOffsets.bytes() + vertexEdgesItems.bytes() + clothTriangles.bytes() +
         vertexClothOffsets.bytes() + vertexClothItems.bytes() + windDv.bytes() + hinges.bytes() +
         hingeWeights.bytes() + hingeRest.bytes() + hingeBody.bytes() + membranes.bytes() + membraneDmInv.bytes() +
         membraneArea.bytes() + vertexMembranesOffsets.bytes() + vertexMembranesItems.bytes();
}

Result<DeviceState> createDeviceState(const ClContext& ctx, const SimModel& model, const State& state) {
  if (Status st = checkState(model, state); !st) return st.error();
  DeviceState d;
  d.vertexCount = model.vertexCount();
  d.tetCount = model.tetCount();
  d.edgeCount = model.edgeCount();
  d.bodyCount = uint32_t(model.materials.size());
  d.tetColors = model.tetColors;
  d.edgeColors = model.edgeColors;
  d.hingeColors = model.hingeColors;
  d.membraneColors = model.membraneColors;
  d.vertexColors = model.vertexColors;

  std::vector<glm::vec4> dmInv;
  packDmInvColumns(model, dmInv);

  constexpr cl_mem_flags kRead = CL_MEM_READ_ONLY;
  Status st = Ok{};
  auto step = [&](Status s) {
    if (st && !s) st = std::move(s);
  };
  step(makeBuffer<glm::vec4>(ctx, d.x, state.x, "x"));
  step(makeBuffer<glm::vec4>(ctx, d.xPrev, state.xPrev, "xPrev"));
  step(makeBuffer<glm::vec4>(ctx, d.v, state.v, "v"));
  step(makeBuffer<glm::vec4>(ctx, d.xInertial, state.xInertial, "xInertial"));
  step(makeBuffer<float>(ctx, d.lambda, state.lambda, "lambda"));
  step(makeBuffer<float>(ctx, d.penalty, state.penalty, "penalty"));
  step(makeBuffer<float>(ctx, d.mass, model.mass, "mass", kRead));
  step(makeBuffer<uint32_t>(ctx, d.vertexBody, model.vertexBody, "vertexBody", kRead));
  step(makeBuffer<glm::uvec4>(ctx, d.tets, model.tets, "tets", kRead));
  step(makeBuffer<glm::vec4>(ctx, d.DmInv, dmInv, "DmInv", kRead));
  step(makeBuffer<float>(ctx, d.restVolume, model.restVolume, "restVolume", kRead));
  step(makeBuffer<uint32_t>(ctx, d.tetBody, model.tetBody, "tetBody", kRead));
  step(makeBuffer<glm::uvec2>(ctx, d.edges, model.edges, "edges", kRead));
  step(makeBuffer<float>(ctx, d.restLength, model.restLength, "restLength", kRead));
  step(makeBuffer<float>(ctx, d.edgeVolume, model.edgeVolume, "edgeVolume", kRead));
  step(makeBuffer<uint32_t>(ctx, d.vertexColorOrder, model.vertexColorOrder, "vertexColorOrder", kRead));
  step(makeBuffer<uint32_t>(ctx, d.vertexTetsOffsets, model.vertexTets.offsets, "vertexTetsOffsets", kRead));
  step(makeBuffer<uint32_t>(ctx, d.vertexTetsItems, model.vertexTets.items, "vertexTetsItems", kRead));
  step(makeBuffer<uint32_t>(ctx, d.vertexEdgesOffsets, model.vertexEdges.offsets, "vertexEdgesOffsets", kRead));
  step(makeBuffer<uint32_t>(ctx, d.vertexEdgesItems, model.vertexEdges.items, "vertexEdgesItems", kRead));
  if (model.hasCloth() || model.hasStrands()) {
    const std::vector<glm::uvec4> cloth = packWindElements(model);
    const std::vector<glm::vec4> zero(model.vertexCount(), glm::vec4(0.0f));
    step(makeBuffer<glm::uvec4>(ctx, d.clothTriangles, cloth, "clothTriangles", kRead));
    step(makeBuffer<uint32_t>(ctx, d.vertexClothOffsets, model.vertexWindElements.offsets, "vertexClothOffsets",
                              kRead));
    step(makeBuffer<uint32_t>(ctx, d.vertexClothItems, model.vertexWindElements.items, "vertexClothItems", kRead));
    step(makeBuffer<glm::vec4>(ctx, d.windDv, zero, "windDv"));
  }
  if (model.hingeCount() > 0) {
    step(makeBuffer<glm::uvec4>(ctx, d.hinges, model.hinges, "hinges", kRead));
    step(makeBuffer<glm::vec4>(ctx, d.hingeWeights, model.hingeWeights, "hingeWeights", kRead));
    step(makeBuffer<glm::vec4>(ctx, d.hingeRest, model.hingeRest, "hingeRest", kRead));
    step(makeBuffer<uint32_t>(ctx, d.hingeBody, model.hingeBody, "hingeBody", kRead));
  }
  if (model.membraneCount() > 0) {
    step(makeBuffer<glm::uvec4>(ctx, d.membranes, model.membranes, "membranes", kRead));
    step(makeBuffer<glm::vec4>(ctx, d.membraneDmInv, model.membraneDmInv, "membraneDmInv", kRead));
    step(makeBuffer<float>(ctx, d.membraneArea, model.membraneArea, "membraneArea", kRead));
    step(makeBuffer<uint32_t>(ctx, d.vertexMembranesOffsets, model.vertexMembranes.offsets, "vertexMembranesOffsets",
                              kRead));
    step(makeBuffer<uint32_t>(ctx, d.vertexMembranesItems, model.vertexMembranes.items, "vertexMembranesItems",
                              kRead));
  }
  if (!st) return st.error();
  auto contacts = createDeviceBodyContacts(ctx, model);
  if (!contacts) return contacts.error();
  d.bodyContacts = std::move(*contacts);
  if (Status s = uploadSpheres(ctx, d, state.spheres); !s) return s.error();
  if (Status s = uploadSprings(ctx, uint32_t(model.vertexCount()), state.springs, d.springs); !s) return s.error();
  markHeldVertices(model, state.x, d.heldVertices, &d.pivotVertices);
  return d;
}

Status uploadState(const ClContext& ctx, const SimModel& model, DeviceState& device, const State& state) {
  const size_t n = device.vertexCount;
  if (state.x.size() != n || state.xPrev.size() != n || state.v.size() != n || state.xInertial.size() != n)
    return Error{"device state upload: State has " + std::to_string(state.x.size()) +
                 " positions but the device state has " + std::to_string(n) + " vertices"};
  for (auto s : {clCheck(device.x.upload(ctx.queue, state.x), "uploading x"),
                 clCheck(device.xPrev.upload(ctx.queue, state.xPrev), "uploading xPrev"),
                 clCheck(device.v.upload(ctx.queue, state.v), "uploading v"),
                 clCheck(device.xInertial.upload(ctx.queue, state.xInertial), "uploading xInertial"),
                 uploadOrResize<float>(ctx, device.lambda, state.lambda, "lambda"),
                 uploadOrResize<float>(ctx, device.penalty, state.penalty, "penalty")})
    if (!s) return s;
  markHeldVertices(model, state.x, device.heldVertices, &device.pivotVertices);
  if (Status s = uploadSprings(ctx, device.vertexCount, state.springs, device.springs); !s) return s;
  return uploadSpheres(ctx, device, state.spheres);
}

Status downloadState(const ClContext& ctx, const DeviceState& device, State& out) {
  for (auto s : {download(ctx, device.x, out.x, "x"), download(ctx, device.xPrev, out.xPrev, "xPrev"),
                 download(ctx, device.v, out.v, "v"), download(ctx, device.xInertial, out.xInertial, "xInertial"),
                 download(ctx, device.lambda, out.lambda, "lambda"),
                 download(ctx, device.penalty, out.penalty, "penalty")})
    if (!s) return s;
  return Ok{};
}

Status downloadPositions(const ClContext& ctx, const DeviceState& device, std::vector<glm::vec4>& outX) {
  return download(ctx, device.x, outX, "x");
}

Status uploadSpheres(const ClContext& ctx, DeviceState& device, const SphereTargets& spheres) {
  device.spheresActive = false;
  if (!spheres.active()) return Ok{};
  const size_t n = device.vertexCount;
  const std::vector<glm::vec4>* hosts[] = {&spheres.motionStart, &spheres.motionTarget, &spheres.separationStart,
                                           &spheres.separationTarget};
  DeviceBuffer<glm::vec4>* buffers[] = {&device.motionStart, &device.motionTarget, &device.separationStart,
                                        &device.separationTarget};
  for (size_t k = 0; k < 4; ++k) {
    if (hosts[k]->size() != n) return Error{"sphere targets sized for another model"};
    if (buffers[k]->size() != n) {
      auto b = DeviceBuffer<glm::vec4>::create(ctx.context, n, CL_MEM_READ_ONLY, "spheres");
      if (!b) return b.error();
      *buffers[k] = std::move(*b);
    }
    if (cl_int e = buffers[k]->upload(ctx.queue, std::span<const glm::vec4>(*hosts[k])); e != CL_SUCCESS)
      return clError("uploading the motion and separation spheres", e);
  }
  device.sphereStiffness = spheres.stiffness;
  device.spheresActive = true;
  return Ok{};
}

Status writeKinematicPositions(const ClContext& ctx, DeviceState& device, std::span<const uint32_t> vertices,
                               std::span<const glm::vec3> positions) {
  std::vector<glm::vec4> run;
  size_t k = 0;
  while (k < vertices.size() && k < positions.size()) {
    const uint32_t first = vertices[k];
    run.clear();
    while (k < vertices.size() && k < positions.size() && vertices[k] == first + run.size())
      run.push_back(glm::vec4(positions[k++], 0.0f));
    if (size_t(first) + run.size() > device.x.size()) return Error{"kinematic vertex out of range"};
    if (cl_int e = device.x.upload(ctx.queue, std::span<const glm::vec4>(run), first); e != CL_SUCCESS)
      return clError("writing pinned positions", e);
  }
  return Ok{};
}

Status resetConstraintData(const ClContext& ctx, DeviceState& device, size_t lambdaCount, size_t penaltyCount,
                           float penaltyValue) {
  if (device.lambda.size() != lambdaCount) {
    auto b = DeviceBuffer<float>::create(ctx.context, lambdaCount, CL_MEM_READ_WRITE, "lambda");
    if (!b) return b.error();
    device.lambda = std::move(*b);
  }
  if (device.penalty.size() != penaltyCount) {
    auto b = DeviceBuffer<float>::create(ctx.context, penaltyCount, CL_MEM_READ_WRITE, "penalty");
    if (!b) return b.error();
    device.penalty = std::move(*b);
  }
  if (Status s = clCheck(device.lambda.fill(ctx.queue, 0.0f), "clearing lambda"); !s) return s;
  return clCheck(device.penalty.fill(ctx.queue, penaltyValue), "filling penalty");
}

}  // namespace tetlab
