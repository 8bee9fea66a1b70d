#include "gpu/solvers/device_energy.h"

#include <algorithm>
#include <span>
#include <string>

#include "core/cpu/constraints_setup.h"
#include "core/model/body_constants.h"
#include "core/model/cloth_membrane.h"
#include "core/model/material.h"
#include "gpu/cl/cl_error.h"
#include "gpu/cl/launch.h"

namespace tetlab {

namespace {

constexpr const char* kKernelFile = "cl/energy.cl";

uint32_t floorPowerOfTwo(size_t n) {
  uint32_t p = 1;
  while (size_t(p) * 2 <= n && p < (1u << 30)) p *= 2;
  return p;
}

cl_int launchGroups(const cl::CommandQueue& queue, const cl::Kernel& kernel, uint32_t groups, uint32_t groupSize) {
  if (groups == 0) return CL_SUCCESS;
  return queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(size_t(groups) * groupSize),
                                    cl::NDRange(groupSize));
}

}  // namespace

Result<DeviceEnergy> DeviceEnergy::create(const ClContext& ctx, const SimModel& model,
                                          const KernelSourceOptions& kernels) {
  if (model.tetCount() > 0 && model.materials.empty())
    return Error{"device energy: the model has tets but no materials (build it with at least one body)"};
  // The tree needs a power-of-two group the device runs; the kernels fix it at
  // build time (reqd_work_group_size), so rebuild smaller if a kernel allows less.
  uint32_t groupSize = floorPowerOfTwo(ctx.info.maxWorkGroupSize ? std::min<size_t>(ctx.info.maxWorkGroupSize,
                                                                                    kPreferredGroupSize)
                                                                 : kPreferredGroupSize);
  for (;;) {
    if (groupSize < 2)
      return Error{"device energy: device '" + ctx.info.name +
                   "' runs work-groups of fewer than 2 work-items; use the CPU reference for energy"};
    auto program = KernelProgram::create(ctx, kernels, kKernelFile, {"energy_vertices", "energy_tets", "energy_edges",
                                                                            "energy_hinges", "energy_membranes"},
                                         "-DENERGY_GROUP_SIZE=" + std::to_string(groupSize));
    if (!program) return program.error();
    size_t allowed = groupSize;
    for (size_t k = 0; k < 5; ++k) {
      size_t kernelMax = 0;
      if (program->kernel(k).getWorkGroupInfo(ctx.device, CL_KERNEL_WORK_GROUP_SIZE, &kernelMax) == CL_SUCCESS &&
          kernelMax > 0)
        allowed = std::min(allowed, kernelMax);
    }
    if (allowed < groupSize) {
      groupSize = floorPowerOfTwo(allowed);
      continue;
    }
    DeviceEnergy energy(std::move(*program));
    energy.groupSize_ = groupSize;
    auto partials = DeviceBuffer<glm::vec4>::create(ctx.context, size_t(5) * kMaxGroups, CL_MEM_WRITE_ONLY,
                                                    "energy partials");
    if (!partials) return partials.error();
    energy.partials_ = std::move(*partials);
    energy.partialsHost_.reserve(size_t(5) * kMaxGroups);
    if (Status st = energy.uploadMaterials(ctx, model, SpringChoice{}); !st) return st.error();
    return energy;
  }
}

uint32_t DeviceEnergy::groupsFor(uint32_t count) const {
  const uint32_t needed = (count + groupSize_ - 1) / groupSize_;
  return std::min(needed, kMaxGroups);
}

uint32_t DeviceEnergy::itemsPerWorkItem(uint32_t count) const {
  const uint32_t threads = groupsFor(count) * groupSize_;
  return threads ? (count + threads - 1) / threads : 0;
}

// The same constants computeElasticEnergy derives per tet and per edge.
Status DeviceEnergy::uploadMaterials(const ClContext& ctx, const SimModel& model, SpringChoice edgeSprings) {
  bodiesHost_.clear();
  for (uint32_t b = 0; b < model.materials.size(); ++b) {
    const Material& material = model.materials[b];
    const NeoHookeanParameters nh = neoHookeanFromMaterial(material);
    const LameParameters lame = lameFromYoungPoisson(material.youngsModulus, material.poissonRatio);
    bodiesHost_.emplace_back(nh.mu, nh.lambda, lame.lambda, bodyBendingStiffness(model, b));
    const MembraneModuli membrane = model.isCloth(b) ? membraneModuli(material) : MembraneModuli{0.0f, 0.0f};
    bodiesHost_.emplace_back(material.youngsModulus, lame.mu, membrane.muH, membrane.lambdaH);
  }
  packEdgeStiffness(model, edgeSprings, stiffnessHost_);
  auto bodies = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, std::span<const glm::vec4>(bodiesHost_),
                                                  CL_MEM_READ_ONLY, "energyBodies");
  if (!bodies) return bodies.error();
  auto stiffness = DeviceBuffer<float>::fromHost(ctx.context, ctx.queue, std::span<const float>(stiffnessHost_),
                                                 CL_MEM_READ_ONLY, "energyEdgeStiffness");
  if (!stiffness) return stiffness.error();
  energyBodies_ = std::move(*bodies);
  energyEdgeStiffness_ = std::move(*stiffness);
  materialsStamp_.take(model.materials);
  edgeSprings_ = edgeSprings;
  return Ok{};
}

Result<EnergyReport> DeviceEnergy::compute(const ClContext& ctx, const DeviceState& device, const SimModel& model,
                                           const SolverSettings& settings) {
  if (device.vertexCount != model.vertexCount() || device.tetCount != model.tetCount() ||
      device.edgeCount != model.edgeCount())
    return Error{"device energy: the device state (" + std::to_string(device.vertexCount) + " vertices, " +
                 std::to_string(device.tetCount) + " tets) does not hold this model (" +
                 std::to_string(model.vertexCount()) + ", " + std::to_string(model.tetCount()) +
                 "); rebuild the OpenCL simulator after loading"};
  const ConstraintToggles& on = settings.step.constraints;
  if (!materialsStamp_.current(model.materials) || edgeSprings_ != springChoice(on))
    if (Status st = uploadMaterials(ctx, model, springChoice(on)); !st) return st.error();
  const bool springs = anyEdgeSprings(model, springChoice(on));
  const bool bending = clothBendingOn(model, on.bending) && device.hinges.size() == model.hingeCount();
  const uint32_t terms = (on.neoHookean ? kEnergyTermNeoHookean : 0u) | (on.tetVolume ? kEnergyTermTetVolume : 0u) |
                         (on.strainBased ? kEnergyTermStrain : 0u);
  const uint32_t vertexGroups = groupsFor(device.vertexCount);
  const uint32_t tetGroups = terms ? groupsFor(device.tetCount) : 0u;
  const uint32_t edgeGroups = springs ? groupsFor(device.edgeCount) : 0u;
  const uint32_t hingeGroups = bending ? groupsFor(model.hingeCount()) : 0u;
  const bool membranes = clothMembraneOn(model, on.membrane) && device.membranes.size() == model.membraneCount();
  const uint32_t membraneGroups = membranes ? groupsFor(model.membraneCount()) : 0u;
  const uint32_t tetOffset = vertexGroups, edgeOffset = vertexGroups + tetGroups, hingeOffset = edgeOffset + edgeGroups;
  const uint32_t membraneOffset = hingeOffset + hingeGroups;
  const cl::CommandQueue& queue = ctx.queue;
  // XPBD's multipliers of the last substep, when the device holds them in the
  // CPU's layout (core/sim/energy.cpp decides the same way).
  const LambdaLayout layout = lambdaLayout(model);
  const float h = settings.step.dt / float(std::max(settings.step.substeps, 1));
  EnergyProbe probe{};
  probe.measure = settings.solver == SolverKind::Xpbd && (springs || on.tetVolume || on.strainBased || bending || membranes) &&
                          device.lambda.size() == layout.size && h > 0.0f && settings.xpbd.complianceScale > 0.0f
                      ? 1u
                      : 0u;
  probe.invH2 = probe.measure ? 1.0f / (h * h) : 0.0f;
  probe.complianceScale = settings.xpbd.complianceScale;
  const DeviceBuffer<float>& lambda = probe.measure ? device.lambda : energyEdgeStiffness_;

  if (vertexGroups > 0) {
    cl::Kernel& k = program_.kernel(0);
    const glm::vec4 gravity(settings.step.gravity, 0.0f);
    if (cl_int err = setKernelArgs(k, device.vertexCount, device.x, device.v, device.mass, gravity, partials_, 0u);
        err != CL_SUCCESS)
      return clError("device energy: setting energy_vertices arguments", err);
    if (cl_int err = launchGroups(queue, k, vertexGroups, groupSize_); err != CL_SUCCESS)
      return clError("device energy: launching energy_vertices", err);
  }
  if (tetGroups > 0) {
    cl::Kernel& k = program_.kernel(1);
    const PositionBasedConstraintParams& pb = settings.positionBased;
    const glm::vec4 stretch(pb.stretchScale[0], pb.stretchScale[1], pb.stretchScale[2], 0.0f);
    const glm::vec4 shear(pb.shearScale[0], pb.shearScale[1], pb.shearScale[2], 0.0f);
    const glm::vec4 rest(pb.restScale, strainFrameIsIdentity(pb.materialAxis) ? 0.0f : 1.0f);
    const glm::mat3 R = strainMaterialFrame(pb.materialAxis);
    if (cl_int err = setKernelArgs(k, device.tetCount, device.x, device.tets, device.DmInv, device.restVolume,
                                   device.tetBody, energyBodies_, terms, stretch, shear, rest, glm::vec4(R[0], 0.0f),
                                   glm::vec4(R[1], 0.0f), glm::vec4(R[2], 0.0f), lambda, layout.tetVolume,
                                   layout.strain, probe, partials_, tetOffset);
        err != CL_SUCCESS)
      return clError("device energy: setting energy_tets arguments", err);
    if (cl_int err = launchGroups(queue, k, tetGroups, groupSize_); err != CL_SUCCESS)
      return clError("device energy: launching energy_tets", err);
  }
  if (edgeGroups > 0) {
    cl::Kernel& k = program_.kernel(2);
    if (cl_int err = setKernelArgs(k, device.edgeCount, device.x, device.edges, device.restLength,
                                   energyEdgeStiffness_, lambda, layout.edges, probe, partials_, edgeOffset);
        err != CL_SUCCESS)
      return clError("device energy: setting energy_edges arguments", err);
    if (cl_int err = launchGroups(queue, k, edgeGroups, groupSize_); err != CL_SUCCESS)
      return clError("device energy: launching energy_edges", err);
  }

  if (hingeGroups > 0) {
    cl::Kernel& k = program_.kernel(3);
    if (cl_int err = setKernelArgs(k, model.hingeCount(), device.x, device.hinges, device.hingeWeights,
                                   device.hingeRest, device.hingeBody, energyBodies_, lambda, layout.hinges, probe, partials_,
                                   hingeOffset);
        err != CL_SUCCESS)
      return clError("device energy: setting energy_hinges arguments", err);
    if (cl_int err = launchGroups(queue, k, hingeGroups, groupSize_); err != CL_SUCCESS)
      return clError("device energy: launching energy_hinges", err);
  }

  if (membraneGroups > 0) {
    cl::Kernel& k = program_.kernel(4);
    if (cl_int err = setKernelArgs(k, model.membraneCount(), device.x, device.membranes, device.membraneDmInv,
                                   device.membraneArea, energyBodies_, lambda, layout.membranes, probe, partials_,
                                   membraneOffset);
        err != CL_SUCCESS)
      return clError("device energy: setting energy_membranes arguments", err);
    if (cl_int err = launchGroups(queue, k, membraneGroups, groupSize_); err != CL_SUCCESS)
      return clError("device energy: launching energy_membranes", err);
  }

  partialsHost_.resize(size_t(membraneOffset) + membraneGroups);
  if (cl_int err = partials_.download(queue, std::span<glm::vec4>(partialsHost_)); err != CL_SUCCESS)
    return clError("device energy: reading the partial sums", err);
  EnergyReport report;
  for (size_t i = 0; i < partialsHost_.size(); ++i) {
    const glm::vec4& p = partialsHost_[i];
    if (i < tetOffset) {
      report.kinetic += double(p.x);
      report.potential += double(p.y);
    } else {
      report.elastic += double(p.x);
      report.compliantShape += double(p.y);
      report.compliantConverged += double(p.z);
      report.compliantCarried += double(p.w);
    }
  }
  report.compliantMeasured = probe.measure != 0u;
  return report;
}

}  // namespace tetlab
