#include "gpu/solvers/position_based_gpu.h"

#include <algorithm>

#include "gpu/cl/cl_error.h"
#include "gpu/cl/launch.h"
#include "gpu/solvers/pb_schedule.h"
#include "gpu/solvers/vbd_schedule.h"

namespace tetlab {

Result<std::unique_ptr<PositionBasedGpu>> PositionBasedGpu::create(const ClContext& ctx,
                                                                   const KernelSourceOptions& source,
                                                                   ProjectionMode mode) {
  const bool xpbd = mode == ProjectionMode::Xpbd;
  const std::string p = xpbd ? "xpbd_" : "pbd_";
  std::vector<std::string> names;
#define TETLAB_PB_KERNEL_NAME(e, name, inXpbd) \
  if (!xpbd || (inXpbd)) names.push_back(p + (name));
  TETLAB_PB_KERNELS(TETLAB_PB_KERNEL_NAME)
#undef TETLAB_PB_KERNEL_NAME
  auto program = KernelProgram::create(ctx, source, xpbd ? "cl/xpbd.cl" : "cl/pbd.cl", std::move(names));
  if (!program) return program.error();
  return std::unique_ptr<PositionBasedGpu>(new PositionBasedGpu(std::move(*program), mode, ctx.info));
}

Status PositionBasedGpu::reset(const ClContext& ctx, const SimModel& model, DeviceState& s) {
  model_ = &model;
  registeredWith_ = nullptr;
  bodiesStamp_.clear();
  colliders_.forget();
  const LambdaLayout layout = lambdaLayout(model);
  if (Status st = resetConstraintData(ctx, s, layout.size, 0, 0.0f); !st) return st;
  if (mode_ == ProjectionMode::Pbd) {
    auto td = DeviceBuffer<glm::vec4>::create(ctx.context, size_t(model.tetCount()) * 4, CL_MEM_READ_WRITE, "tetDelta");
    auto ed = DeviceBuffer<glm::vec4>::create(ctx.context, size_t(model.edgeCount()) * 2, CL_MEM_READ_WRITE, "edgeDelta");
    if (!td) return td.error();
    if (!ed) return ed.error();
    tetDelta_ = std::move(*td);
    edgeDelta_ = std::move(*ed);
  }
  // Sized for the model (one row per surface vertex); at least one element so
  // a model without a surface still gets valid buffers.
  auto row = DeviceBuffer<glm::vec4>::create(ctx.context, std::max<size_t>(1, model.surfaceVertices.size()),
                                             CL_MEM_READ_WRITE, "bodyContactRow");
  auto share = DeviceBuffer<float>::create(ctx.context, std::max<size_t>(1, model.vertexCount()), CL_MEM_READ_WRITE,
                                           "bodyContactShare");
  if (!row) return row.error();
  if (!share) return share.error();
  bodyContactRow_ = std::move(*row);
  bodyContactShare_ = std::move(*share);
  auto friction = DeviceBuffer<glm::vec4>::create(ctx.context, std::max<size_t>(1, model.vertexCount()),
                                                  CL_MEM_READ_WRITE, "contactFriction");
  if (!friction) return friction.error();
  contactFriction_ = std::move(*friction);
  if (Status st = packGroupInputs(ctx, model); !st) return st;
  return refreshPins(ctx, s);  // uploads the tethers and the group inputs
}

namespace {
// Appends `items` to `out` and returns where they start.
template <typename T>
uint32_t append(std::vector<T>& out, const std::vector<T>& items) {
  const uint32_t base = uint32_t(out.size());
  out.insert(out.end(), items.begin(), items.end());
  return base;
}
}  // namespace

// The one-group kernel's inputs as sections of two buffers (PbGroupParams's
// comment draws them); the tether sections are written by uploadTethers.
Status PositionBasedGpu::packGroupInputs(const ClContext& ctx, const SimModel& model) {
  clm::PbGroupParams& g = sections_;
  g = clm::PbGroupParams{};
  std::vector<uint32_t>& topo = groupTopologyHost_;
  std::vector<float>& rest = groupRestHost_;
  topo.clear();
  rest.clear();
  const uint32_t n = model.vertexCount();
  append(topo, model.tetColors.offsets);
  g.edgeColorStartsBase = append(topo, model.edgeColors.offsets);
  g.tetBodyBase = append(topo, model.tetBody);
  g.vertexBodyBase = append(topo, model.vertexBody);
  g.vertexTetsOffsetsBase = append(topo, model.vertexTets.offsets);
  g.vertexTetsItemsBase = append(topo, model.vertexTets.items);
  g.vertexEdgesOffsetsBase = append(topo, model.vertexEdges.offsets);
  g.vertexEdgesItemsBase = append(topo, model.vertexEdges.items);
  g.tetherAnchorBase = uint32_t(topo.size());
  topo.resize(topo.size() + n, 0u);
  append(rest, model.restVolume);
  g.restLengthBase = append(rest, model.restLength);
  g.edgeVolumeBase = append(rest, model.edgeVolume);
  g.tetherLengthBase = uint32_t(rest.size());
  rest.resize(rest.size() + n, 0.0f);
  topo.push_back(0u);  // never empty (OpenCL forbids empty buffers)
  rest.push_back(0.0f);
  g.tetColorCount = model.tetColors.count();
  g.edgeColorCount = model.edgeColors.count();
  g.vertexCount = n;
  g.tetCount = model.tetCount();
  g.edgeCount = model.edgeCount();
  g.lambdaCount = lambdaLayout(model).size;
  g.edgeDeltaBase = 4 * g.tetCount;
  g.frictionBase = g.edgeDeltaBase + 2 * g.edgeCount;
  g.rowBase = g.frictionBase + n;
  const size_t scratch = size_t(g.rowBase) + std::max<size_t>(1, model.surfaceVertices.size());
  auto b = DeviceBuffer<glm::vec4>::create(ctx.context, scratch, CL_MEM_READ_WRITE, "PB group scratch");
  if (!b) return b.error();
  groupScratch_ = std::move(*b);

  const auto largest = [](const ColorRanges& r) {
    uint32_t m = 0;
    for (uint32_t c = 0; c < r.count(); ++c) m = std::max(m, r.end(c) - r.begin(c));
    return m;
  };
  largestTetColor_ = largest(model.tetColors);
  largestEdgeColor_ = largest(model.edgeColors);
  size_t kernelMax = 0;
  if (program_.kernel(kStepGroup).getWorkGroupInfo(ctx.device, CL_KERNEL_WORK_GROUP_SIZE, &kernelMax) != CL_SUCCESS)
    kernelMax = 0;
  // No local arrays: 256 bounds the group as VBD's (VBD_GROUP_MAX).
  groupSize_ = vbdOneGroupSize(isGpu_ ? 256 : kPbCpuGroupSize, ctx.info.maxWorkGroupSize, kernelMax,
                              std::max({largestTetColor_, largestEdgeColor_, n}));
  return Ok{};
}

Status PositionBasedGpu::refreshPins(const ClContext& ctx, DeviceState& s) {
  // Tethers depend only on which vertices are pinned (w == 0): read x once.
  State pins;
  if (Status st = downloadPositions(ctx, s, pins.x); !st) return st;
  std::vector<uint32_t> anchor;
  std::vector<float> length;
  buildTethers(*model_, pins, 0.0f, anchor, length);
  haveTethers_ = !anchor.empty();
  tetherSlack_ = 0.0f;
  pinnedX_ = std::move(pins.x);
  return uploadTethers(ctx, anchor, length);
}

Status PositionBasedGpu::uploadTethers(const ClContext& ctx, const std::vector<uint32_t>& anchor,
                                       const std::vector<float>& length) {
  auto a = DeviceBuffer<uint32_t>::fromHost(ctx.context, ctx.queue, anchor, CL_MEM_READ_ONLY, "tetherAnchor");
  if (!a) return a.error();
  auto l = DeviceBuffer<float>::fromHost(ctx.context, ctx.queue, length, CL_MEM_READ_ONLY, "tetherLength");
  if (!l) return l.error();
  tetherAnchor_ = std::move(*a);
  tetherLength_ = std::move(*l);
  // The same tethers in the group kernel's sections (one per vertex, or none).
  if (anchor.size() == sections_.vertexCount) {
    std::copy(anchor.begin(), anchor.end(), groupTopologyHost_.begin() + sections_.tetherAnchorBase);
    std::copy(length.begin(), length.end(), groupRestHost_.begin() + sections_.tetherLengthBase);
  }
  auto topo = DeviceBuffer<uint32_t>::fromHost(ctx.context, ctx.queue, groupTopologyHost_, CL_MEM_READ_ONLY,
                                               "PB group topology");
  if (!topo) return topo.error();
  auto rest = DeviceBuffer<float>::fromHost(ctx.context, ctx.queue, groupRestHost_, CL_MEM_READ_ONLY,
                                            "PB group rest data");
  if (!rest) return rest.error();
  groupTopology_ = std::move(*topo);
  groupRest_ = std::move(*rest);
  return Ok{};
}

Status PositionBasedGpu::uploadIfChanged(const ClContext& ctx, const SolverSettings& settings) {
  // Body constants (materials editable in the UI).
  const SpringChoice edgeSprings = springChoice(settings.step.constraints);
  if (!bodiesStamp_.current(model_->materials) || bodiesSprings_ != edgeSprings) {
    // A blocking upload waits for queued work: acceptable for a material
    // edit, never the steady state.
    packBodies(*model_, edgeSprings, scratch_);
    auto b = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, scratch_, CL_MEM_READ_ONLY, "bodies");
    if (!b) return b.error();
    bodies_ = std::move(*b);
    bodiesStamp_.take(model_->materials);
    bodiesSprings_ = edgeSprings;
  }
  // Colliders (the UI can move them).
  if (Status st = colliders_.refresh(ctx, settings.colliders); !st) return st;
  // Tethers with a new slack: rebuilt from the pinned set read at reset/refreshPins.
  const float slack = settings.positionBased.tetherSlack;
  if (families_.tethers && slack != tetherSlack_) {
    State pins;
    pins.x = pinnedX_;
    std::vector<uint32_t> anchor;
    std::vector<float> length;
    buildTethers(*model_, pins, slack, anchor, length);
    tetherSlack_ = slack;
    if (Status st = uploadTethers(ctx, anchor, length); !st) return st;
  }
  return Ok{};
}

void PositionBasedGpu::registerStages(Profiler& profiler, const DeviceState& s) {
  stageInit_ = profiler.addStage(Stage::Init, "init guess");
  stageTetColor_.clear();
  for (uint32_t c = 0; c < s.tetColors.count(); ++c)
    stageTetColor_.push_back(profiler.addStage(Stage::Solve, "solve tets c" + std::to_string(c)));
  stageEdgeColor_.clear();
  for (uint32_t c = 0; c < s.edgeColors.count(); ++c)
    stageEdgeColor_.push_back(profiler.addStage(Stage::Solve, "solve edges c" + std::to_string(c)));
  stageJacobi_ = profiler.addStage(Stage::Solve, "jacobi");
  stageHinges_ = profiler.addStage(Stage::Solve, "solve hinges");
  stageMembranes_ = profiler.addStage(Stage::Solve, "solve membranes");
  stageTethers_ = profiler.addStage(Stage::Solve, "tethers");
  stageAttachment_ = profiler.addStage(Stage::Solve, "attachment");
  stageSprings_ = profiler.addStage(Stage::Solve, "anchor springs");
  stageBodyContacts_ = profiler.addStage(Stage::Solve, "body contact solve");  // "body contacts" is the detection
  stageContacts_ = profiler.addStage(Stage::Collisions);
  stageGroup_ = profiler.addStage(Stage::Solve, "pb.group");
  registeredWith_ = &profiler;
}

bool PositionBasedGpu::oneGroup(const SolverSettings& settings, const DeviceState& s, bool substepOnly) const {
  if (s.springs.any()) return false;  // step_group has no anchor-spring pass: springs run per launch
  // The colours that will be projected: edge colours (fewer, larger) only when edge constraints run.
  const ProjectionFamilies f = projectionFamilies(mode_, settings.step.constraints, *model_);
  if (f.hinges || f.membranes) return false;  // step_group has no hinge or membrane pass: cloth runs per colour
  const bool edges = f.edges;
  const uint32_t largestColor = edges ? std::max(largestTetColor_, largestEdgeColor_) : largestTetColor_;
  return pbUsesOneGroup({settings.step.gpuSchedule, isGpu_, computeUnits_, largestColor, groupSize_,
                         substepOnly && mode_ == ProjectionMode::Pbd, mode_ == ProjectionMode::Pbd});
}

// Launch nothing when the toggle is off, or when detection cannot find any
// (one body without self collision: core/sim/body_contact_detection.cpp).
bool PositionBasedGpu::runsBodyContacts(const SolverSettings& settings, const DeviceState& s) const {
  const bool anyBodyContact = model_->materials.size() > 1 || settings.bodyContacts.selfCollision;
  return projectionFamilies(mode_, settings.step.constraints, *model_).bodyContacts && anyBodyContact &&
         s.bodyContacts.slotCount > 0;
}

bool PositionBasedGpu::fusesStep(const SolverSettings& settings, const DeviceState& s) const {
  return model_ != nullptr && s.vertexCount > 0 && oneGroup(settings, s, false);
}

cl_int PositionBasedGpu::enqueueStep(const ClContext& ctx, const SolverSettings& settings, const FusedStep& step,
                                     DeviceState& s, Profiler& profiler) {
  if (model_ == nullptr) return CL_INVALID_OPERATION;  // reset() first
  if (registeredWith_ != &profiler) registerStages(profiler, s);
  params_ = makePbParams(*model_, settings, mode_, step.h);
  families_ = projectionFamilies(mode_, settings.step.constraints, *model_);
  if (!uploadIfChanged(ctx, settings)) return CL_OUT_OF_RESOURCES;
  return enqueueGroup(ctx, settings, step.h, step.substeps, &step, s, profiler);
}

// One launch of step_group: `substeps` substeps with the predict and velocity
// update inside when `integrate` is given (the fused step), else one
// substep's projection (the stepper predicts, detects body contacts and
// updates velocities around it). The passes are the launch conditions of
// enqueueSubstep / enqueueIteration.
cl_int PositionBasedGpu::enqueueGroup(const ClContext& ctx, const SolverSettings& settings, float h,
                                      uint32_t substeps, const FusedStep* integrate, DeviceState& s,
                                      Profiler& profiler) {
  oneGroupRan_ = true;
  integratedRan_ = integrate != nullptr;
  const ProjectionFamilies& f = families_;
  clm::PbGroupParams g = sections_;
  g.step = params_;
  const bool mouseOn = packAttachment(mouse_, g.mouse);
  g.gravity[0] = settings.step.gravity.x;
  g.gravity[1] = settings.step.gravity.y;
  g.gravity[2] = settings.step.gravity.z;
  g.damping = integrate ? integrate->damping : 1.0f;
  g.contactOffset = settings.positionBased.contactOffset;
  g.substeps = substeps;
  g.iterations = uint32_t(std::max(1, settings.step.iterations));
  g.colliderCount = colliders_.count();
  g.slotCount = s.bodyContacts.slotCount;
  const bool jacobi = mode_ == ProjectionMode::Pbd && settings.pbd.scheme == PbdScheme::Jacobi;
  g.passes = ((params_.families & PB_TET_FAMILIES) ? PB_PASS_TETS : 0u) | (f.edges ? PB_PASS_EDGES : 0u) |
             (jacobi ? PB_PASS_JACOBI : 0u) | (f.tethers && haveTethers_ ? PB_PASS_TETHERS : 0u) |
             (mouseOn ? PB_PASS_MOUSE : 0u) | (runsBodyContacts(settings, s) ? PB_PASS_BODY_CONTACTS : 0u) |
             (f.collisions ? PB_PASS_COLLISIONS : 0u) | (integrate ? PB_PASS_INTEGRATE : 0u) |
             (mode_ == ProjectionMode::Xpbd ? PB_PASS_RESET_LAMBDA : 0u);
  // The kernel needs a status buffer even when it does not integrate (it never touches it then).
  const DeviceBuffer<uint32_t>& status = integrate ? *integrate->status : groupTopology_;
  cl::Kernel& k = program_.kernel(kStepGroup);
  cl_int e = setKernelArgs(k, g, groupTopology_, groupRest_, s.x, s.v, s.xPrev, s.xInertial, s.tets, s.DmInv,
                           s.edges, bodies_, s.lambda, colliders_.records, groupScratch_, bodyContactShare_,
                           s.bodyContacts.arrays, status);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, groupSize_, groupSize_, profiler.record(stageGroup_));
  return e;
}

cl_int PositionBasedGpu::enqueueSubstep(const ClContext& ctx, const SolverSettings& settings, float h,
                                        DeviceState& s, Profiler& profiler) {
  if (model_ == nullptr) return CL_INVALID_OPERATION;  // reset() first
  if (registeredWith_ != &profiler) registerStages(profiler, s);
  params_ = makePbParams(*model_, settings, mode_, h);
  families_ = projectionFamilies(mode_, settings.step.constraints, *model_);
  if (!uploadIfChanged(ctx, settings)) return CL_OUT_OF_RESOURCES;
  if (oneGroup(settings, s, true)) return enqueueGroup(ctx, settings, h, 1u, nullptr, s, profiler);
  oneGroupRan_ = false;

  // XPBD Alg. 1 line 4-5 / PBD Alg. 1 line 5: start from the inertial prediction.
  cl_int e = ctx.queue.enqueueCopyBuffer(s.xInertial.buffer(), s.x.buffer(), 0, 0, s.x.bytes(), nullptr,
                                         profiler.record(stageInit_));
  if (e != CL_SUCCESS) return e;
  if (mode_ == ProjectionMode::Xpbd) {
    if ((e = s.lambda.fill(ctx.queue, 0.0f)) != CL_SUCCESS) return e;  // XPBD: lambda = 0 every substep
    if (s.springs.any() && (e = s.springs.lambda.fill(ctx.queue, 0.0f)) != CL_SUCCESS) return e;
  }
  for (int it = 0; it < std::max(1, settings.step.iterations); ++it)
    if ((e = enqueueIteration(ctx, settings, uint32_t(it), s, profiler)) != CL_SUCCESS) return e;
  return CL_SUCCESS;
}

cl_int PositionBasedGpu::enqueueIteration(const ClContext& ctx, const SolverSettings& settings, uint32_t iteration,
                                          DeviceState& s, Profiler& profiler) {
  const ProjectionFamilies& f = families_;
  const size_t local = program_.localSize();
  clm::PbParams p = params_;
  p.iteration = iteration;
  const bool anyTet = (p.families & PB_TET_FAMILIES) != 0;
  const bool jacobi = mode_ == ProjectionMode::Pbd && settings.pbd.scheme == PbdScheme::Jacobi;
  cl_int e = CL_SUCCESS;

  if (!jacobi) {
    if (anyTet) {
      cl::Kernel& k = program_.kernel(kTets);
      for (uint32_t c = 0; c < s.tetColors.count() && e == CL_SUCCESS; ++c) {
        const uint32_t begin = s.tetColors.begin(c), count = s.tetColors.end(c) - begin;
        e = setKernelArgs(k, begin, count, s.x, s.tets, s.DmInv, s.restVolume, s.tetBody, bodies_,
                          s.lambda, p);
        if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, count, local, profiler.record(stageTetColor_[c]));
      }
    }
    if (f.edges) {
      cl::Kernel& k = program_.kernel(kEdges);
      for (uint32_t c = 0; c < s.edgeColors.count() && e == CL_SUCCESS; ++c) {
        const uint32_t begin = s.edgeColors.begin(c), count = s.edgeColors.end(c) - begin;
        e = setKernelArgs(k, begin, count, s.x, s.edges, s.restLength, s.edgeVolume, s.vertexBody,
                          bodies_, s.lambda, p);
        if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, count, local, profiler.record(stageEdgeColor_[c]));
      }
    }
  } else {
    // Jacobi: every element reads the same x, so one launch each (no colours).
    if (anyTet) {
      cl::Kernel& k = program_.kernel(kJacobiTets);
      e = setKernelArgs(k, s.tetCount, s.x, s.tets, s.DmInv, s.restVolume, s.tetBody, bodies_, s.lambda, p,
                        tetDelta_);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, s.tetCount, local, profiler.record(stageJacobi_));
    }
    if (f.edges && e == CL_SUCCESS) {
      cl::Kernel& k = program_.kernel(kJacobiEdges);
      e = setKernelArgs(k, s.edgeCount, s.x, s.edges, s.restLength, s.edgeVolume, s.vertexBody, bodies_,
                        s.lambda, p, edgeDelta_);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, s.edgeCount, local, profiler.record(stageJacobi_));
    }
    if ((anyTet || f.edges) && e == CL_SUCCESS) {
      cl::Kernel& k = program_.kernel(kJacobiApply);
      e = setKernelArgs(k, s.vertexCount, s.x, tetDelta_, edgeDelta_, s.vertexTetsOffsets, s.vertexTetsItems,
                        s.vertexEdgesOffsets, s.vertexEdgesItems, p);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, s.vertexCount, local, profiler.record(stageJacobi_));
    }
  }
  if (e != CL_SUCCESS) return e;

  // Cloth membranes, then hinges: Gauss-Seidel by colour in both schemes (after
  // the Jacobi average), in the CPU reference's order.
  if (f.membranes) {
    cl::Kernel& k = program_.kernel(kMembranes);
    for (uint32_t c = 0; c < s.membraneColors.count() && e == CL_SUCCESS; ++c) {
      const uint32_t begin = s.membraneColors.begin(c), count = s.membraneColors.end(c) - begin;
      e = setKernelArgs(k, begin, count, s.x, s.membranes, s.membraneDmInv, s.membraneArea, bodies_, s.lambda, p);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, count, local, profiler.record(stageMembranes_));
    }
    if (e != CL_SUCCESS) return e;
  }
  if (f.hinges) {
    cl::Kernel& k = program_.kernel(kHinges);
    for (uint32_t c = 0; c < s.hingeColors.count() && e == CL_SUCCESS; ++c) {
      const uint32_t begin = s.hingeColors.begin(c), count = s.hingeColors.end(c) - begin;
      e = setKernelArgs(k, begin, count, s.x, s.hinges, s.hingeWeights, s.hingeRest, s.hingeBody, bodies_, s.lambda,
                        p);
      if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, count, local, profiler.record(stageHinges_));
    }
    if (e != CL_SUCCESS) return e;
  }

  if (f.tethers && haveTethers_) {
    cl::Kernel& k = program_.kernel(kTethers);
    e = setKernelArgs(k, s.vertexCount, s.x, tetherAnchor_, tetherLength_);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, s.vertexCount, local, profiler.record(stageTethers_));
    if (e != CL_SUCCESS) return e;
  }
  clm::PbAttachment mouse;
  if (packAttachment(mouse_, mouse)) {
    cl::Kernel& k = program_.kernel(kAttachment);
    e = setKernelArgs(k, s.x, s.lambda, p, mouse);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, 1, 0, profiler.record(stageAttachment_));
    if (e != CL_SUCCESS) return e;
  }
  if (s.springs.any()) {
    cl::Kernel& k = program_.kernel(kAnchorSprings);
    e = setKernelArgs(k, s.vertexCount, s.x, p, s.springs.topology, s.springs.anchor, s.springs.stiffness,
                      s.springs.lambda);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, s.vertexCount, local, profiler.record(stageSprings_));
    if (e != CL_SUCCESS) return e;
  }
  if (runsBodyContacts(settings, s))
    if ((e = enqueueBodyContacts(ctx, s, profiler)) != CL_SUCCESS) return e;
  if (f.collisions) {
    cl::Kernel& k = program_.kernel(kContacts);
    e = setKernelArgs(k, s.vertexCount, s.x, s.xPrev, colliders_.records, colliders_.count(),
                      settings.positionBased.contactOffset, contactFriction_, iteration);
    if (e == CL_SUCCESS) e = launch1D(ctx.queue, k, s.vertexCount, local, profiler.record(stageContacts_));
  }
  return e;
}

cl_int PositionBasedGpu::enqueueBodyContacts(const ClContext& ctx, DeviceState& s, Profiler& profiler) {
  DeviceBodyContacts& c = s.bodyContacts;
  const size_t local = program_.localSize();
  cl::Kernel& rows = program_.kernel(kBodyContactRows);
  cl_int e = setKernelArgs(rows, c.slotCount, s.x, s.xPrev, c.arrays, bodyContactRow_);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, rows, c.slotCount, local, profiler.record(stageBodyContacts_));
  if (e != CL_SUCCESS) return e;
  cl::Kernel& shares = program_.kernel(kBodyContactShares);
  e = setKernelArgs(shares, s.vertexCount, c.slotCount, s.x, c.arrays, bodyContactRow_, bodyContactShare_);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, shares, s.vertexCount, local, profiler.record(stageBodyContacts_));
  if (e != CL_SUCCESS) return e;
  cl::Kernel& apply = program_.kernel(kBodyContactApply);
  e = setKernelArgs(apply, s.vertexCount, c.slotCount, s.x, c.arrays, bodyContactRow_, bodyContactShare_);
  if (e == CL_SUCCESS) e = launch1D(ctx.queue, apply, s.vertexCount, local, profiler.record(stageBodyContacts_));
  return e;
}

std::string PositionBasedGpu::pollKernels() {
  program_.poll();
  return program_.lastError();
}

}  // namespace tetlab
