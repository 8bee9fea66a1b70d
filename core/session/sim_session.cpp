#include "core/session/sim_session.h"
#include "core/sim/anchor_spring_hook.h"
#include "core/sim/anchor_spring_resolution.h"

#include <chrono>
#include <cstdio>
#include <cmath>

#include "core/cpu/xpbd_solver.h"
#include "core/scene/enum_names.h"
#include "core/sim/energy.h"
#include "core/sim/state_setup.h"
#include "core/sim/step_error.h"
#include "gpu/solvers/opencl_simulator.h"

namespace tetlab {

namespace {

// A snapshot must hold the whole state (v, xPrev), which on OpenCL is only on
// the host right after a full read-back.
static_assert(SimSession::kDiagnosticsEvery == kDeviceVerdictEvery, "the window measures a device's frames as run does");
static_assert(SimSession::kSnapshotEvery % SimSession::kDiagnosticsEvery == 0,
              "snapshots must fall on OpenCL full read-back frames");

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

SimSession::~SimSession() = default;

Result<std::unique_ptr<SimSession>> SimSession::create(SceneDesc desc, BuiltScene built) {
  const SimModel& built0 = built.scene.model;
  if (built0.vertexCount() == 0 || (built0.tetCount() == 0 && !built0.hasCloth() && !built0.hasStrands()))
    return Error{"scene '" + desc.name + "' has no tets, cloth triangles or strands to simulate"};
  std::unique_ptr<SimSession> s(new SimSession());
  s->desc_ = std::move(desc);
  s->shared_ = std::make_shared<SharedScene>();
  s->shared_->built = std::move(built);
  s->settings_ = s->built().scene.settings;
  s->mouse_ = s->desc_.mouse;
  s->state_ = makeInitialState(s->built());
  s->materialsSeen_ = s->model().materials.revision();
  s->cpu_ = std::make_unique<CpuSimulator>(s->model(), s->state_, s->settings_.solver);
  s->noticeXpbdSubsteps();
  if (const std::string w = springResolutionWarning(s->state_.springs); !w.empty()) s->notice(w);

  const SimModel& m = s->model();
  double mass = 0.0;
  for (uint32_t i = 0; i < m.vertexCount(); ++i) mass += m.mass[i];
  const double g = glm::length(s->settings_.step.gravity);
  const EnergyReport e0 = computeEnergy(m, s->settings_, s->state_);
  s->energy0_ = e0.dynamicTotal();
  s->gravity0_ = s->settings_.step.gravity;
  s->energyScale_ = sceneEnergyScale(m, s->settings_.step, e0);
  s->elasticCapacity_ = elasticCapacity(m);
  s->autoMaxForce_ = float(kAutoMouseWeightMultiple * mass * (g > 0.0 ? g : 9.81));
  s->autoStiffness_ = s->autoMaxForce_ / kAutoMouseCapStretch;
  s->applyMouseSettings();
  s->snapshot_ = s->state_;
  return s;
}

std::unique_ptr<SimSession> SimSession::createLane(const SimSession& primary) {
  std::unique_ptr<SimSession> s(new SimSession());
  s->desc_ = primary.desc_;
  s->shared_ = primary.shared_;
  s->massesSeen_ = primary.massesSeen_;
  s->materialsSeen_ = primary.materialsSeen_;
  s->settings_ = primary.settings_;
  s->xpbdAutoRaise_ = primary.xpbdAutoRaise_;
  s->mouse_ = primary.mouse_;
  s->state_ = primary.state_;
  s->state_.mouse.active = false;
  s->cpu_ = std::make_unique<CpuSimulator>(s->model(), s->state_, s->settings_.solver);
  s->kernelSource_ = primary.kernelSource_;
  s->slowMotion = primary.slowMotion;
  s->paused_ = primary.paused_;
  s->frame_ = primary.frame_;
  s->energy0_ = primary.energy0_;
  s->gravity0_ = primary.gravity0_;
  s->energyScale_ = primary.energyScale_;
  s->elasticCapacity_ = primary.elasticCapacity_;
  s->forced_ = primary.forced_;
  s->autoMaxForce_ = primary.autoMaxForce_;
  s->autoStiffness_ = primary.autoStiffness_;
  s->applyMouseSettings();
  s->snapshot_ = primary.snapshot_;
  s->snapshotFrame_ = primary.snapshotFrame_;
  return s;
}

XpbdSubstepPlan SimSession::xpbdPlan() const { return planXpbdSubsteps(model(), settings_, xpbdAutoRaise_); }

void SimSession::noticeXpbdSubsteps() {
  const std::string text = xpbdPlan().notice();
  if (!text.empty()) notice(text + " (the solver panel shows both; untick \"raise to the shear limit\" to see the instability)");
}

void SimSession::notice(std::string text) { notices_.push_back(std::move(text)); }

std::vector<std::string> SimSession::takeNotices() {
  std::vector<std::string> out;
  out.swap(notices_);
  return out;
}

void SimSession::applyMouseSettings() {
  state_.mouse.stiffness = mouse_.stiffness > 0.0f ? mouse_.stiffness : autoStiffness_;
  state_.mouse.maxForce = mouse_.maxForce > 0.0f ? mouse_.maxForce : autoMaxForce_;
}

// ---- stepping ----

void SimSession::advance(int steps) {
  if (blownUp()) return;
  if (paused_) {
    if (!singleStep_) return;
    steps = 1;
  }
  singleStep_ = false;
  for (int i = 0; i < steps && !blownUp(); ++i) stepFrame();
}

Simulator& SimSession::active() {
  if (backend_ == Backend::OpenCl && gpu_) return *gpu_;
  return *cpu_;
}

bool SimSession::deviceEnergyActive() const {
  return backend_ == Backend::OpenCl && gpu_ && gpu_->computesEnergy();
}

void SimSession::syncSharedModel() {
  const uint64_t materials = model().materials.revision();
  if (materials != materialsSeen_) {
    forced_ = true;  // E, nu or density edited from another lane: the energy may change by itself
    materialsSeen_ = materials;
  }
  if (massesSeen_ != shared_->massRevision) {
    massesSeen_ = shared_->massRevision;
    applyMasses();
  }
}

void SimSession::stepFrame() {
  syncSharedModel();
  SolverSettings s = settings_;
  s.step.substeps = substepsUsed();  // XPBD's raise is computed at the full dt: slow motion keeps it
  s.step.dt = settings_.step.dt * std::clamp(slowMotion, 1e-3f, 1.0f);
  applyMouseSettings();
  Simulator& sim = active();
  sim.setAttachment(state_.mouse);  // stiffness and force cap may have changed (mouse())
  moveFollowers(sim);
  moveAnimatedPins(state_.time + double(s.step.dt));
  updateSpheres(sim);
  const auto start = std::chrono::steady_clock::now();
  stepActive(sim, s);
  checkDragBreak();
  lastStepMs_ = msSince(start);
  totalStepMs_ += lastStepMs_;
  ++frame_;
  afterStep();
}

void SimSession::moveFollowers(Simulator& sim) {
  for (const PinFollower& f : built().scene.followers) {
    const std::optional<ColliderFrame> frame = colliderFrame(settings_.colliders, f.collider);
    if (!frame) continue;  // the collider was removed: its pins stay where they are
    followerTargets(f, *frame, followTargets_);
    if (Status st = movePinsTo(f.vertices, followTargets_, state_, sim, followIds_, followPositions_); !st)
      notice("moving the pins that follow a collider failed: " + st.error().message);
  }
}

void SimSession::moveAnimatedPins(double time) {
  const std::vector<AnimatedPins>& all = animatedPins();
  if (all.empty()) return;
  const std::vector<PinChange> due = pinAnimator_.dueChanges(all, time);
  if (!due.empty()) {
    // Let go (mass back, where they are, with the keyed motion's velocity) or held again where they are.
    if (backend_ == Backend::OpenCl) (void)pullFromDevice();
    pinAnimator_.apply(due, all, model(), state_, time);
    sphereRigStale_ = true;
    pushToCpu();
    if (backend_ == Backend::OpenCl) (void)pushToDevice();
  }
  if (Status st = pinAnimator_.move(all, time, state_, active()); !st)
    notice("moving the keyed pins failed: " + st.error().message);
}

void SimSession::updateSpheres(Simulator& sim) {
  const SphereSettings& settings = settings_.spheres;
  if (!settings.any()) {
    if (spheresSent_ && !sim.setSpheres(SphereTargets{})) notice("switching the motion/separation spheres off failed");
    spheresSent_ = haveSphereTargets_ = false;
    return;
  }
  if (sphereRigStale_) {
    sphereRig_ = buildSphereRig(model(), built().scene.followers, state_.x, built().scene.settings.colliders);
    sphereRigStale_ = false;
    haveSphereTargets_ = false;
  }
  SphereTargets t;
  sphereTargets(sphereRig_, settings, settings_.colliders, built().scene.followers, t.motionTarget, t.separationTarget);
  // The frame blends from last frame's spheres to this frame's (a first frame: no motion).
  t.motionStart = haveSphereTargets_ ? std::move(sphereMotion_) : t.motionTarget;
  t.separationStart = haveSphereTargets_ ? std::move(sphereSeparation_) : t.separationTarget;
  t.stiffness = settings.stiffness;
  if (Status st = sim.setSpheres(t); !st) notice("motion/separation spheres: " + st.error().message);
  sphereMotion_ = std::move(t.motionTarget);
  sphereSeparation_ = std::move(t.separationTarget);
  haveSphereTargets_ = spheresSent_ = true;
}

void SimSession::stepActive(Simulator& sim, const SolverSettings& s) {
  const bool onDevice = !sim.stateOnHost();
  const char* where = onDevice ? "OpenCL" : "the CPU reference";
  if (Status st = sim.step(s, diag_); !st) {
    diagFresh_ = violationFresh_ = false;
    markBlownUp(std::string(where) + " step failed: " + st.error().message);
    return;
  }
  syncSprings(sim);
  // The CPU reference measured everything inside the step (energy and max
  // violation included); a device measures no hard-constraint violation.
  diagFresh_ = stepErrorFresh_ = sim.stateOnHost();
  violationFresh_ = sim.measuresViolation();
  // The step's post-processing: nothing to read on the CPU; on a device the
  // bad vertex, the body-contact counts (this read grows the contact grid
  // after an overflow), the stage times and the residual curve, one sync.
  const Status read = sim.readDiagnostics(diag_);
  if (onDevice && gpu_) gpuStats_ = gpu_->lastTimings();
  if (!read) {
    markBlownUp(std::string(where) + " read-back failed: " + read.error().message);
    return;
  }
  if (!diag_.finite) {
    // Show the rolled-back state. The CPU reference kept the time of the
    // substeps before the bad one; a device's frame did not happen.
    if (onDevice) {
      (void)pullFromDevice();
      markBlownUp("the simulation blew up on OpenCL: " + diag_.problem);
    } else {
      (void)sim.readState(state_);
      state_.time = sim.time();
      markBlownUp("the simulation blew up: " + diag_.problem);
    }
    return;
  }
  state_.time = sim.time();
  const double time = state_.time;
  // Energy every frame where the backend computes it after the step (a
  // device: three reductions on the same in-order queue and one read of a few
  // partial sums, not the state).
  if (!diagFresh_ && sim.computesEnergy()) {
    const auto start = std::chrono::steady_clock::now();
    Result<EnergyReport> energy = sim.readEnergy(s);
    if (energy) {
      diag_.energy = *energy;
      diag_.stages[Stage::Energy] = msSince(start);
      diagFresh_ = true;
    } else {
      notice("energy on OpenCL failed (" + energy.error().message + "): the energy plots now update every " +
             std::to_string(kDiagnosticsEvery) + " frames from a full read-back");
    }
  }
  if (sim.stateOnHost() || (frame_ + 1) % kDiagnosticsEvery == 0) {
    const Attachment mouse = state_.mouse;
    if (Status st = sim.readState(state_); !st) {
      markBlownUp(std::string(where) + " read-back failed: " + st.error().message);
      return;
    }
    state_.mouse = mouse;
    state_.time = time;
    // The common measure of the frame just read (every kDiagnosticsEvery frames on a device).
    if (!sim.stateOnHost()) {
      measureReadBackStepError(model(), s, state_, diag_);
      stepErrorFresh_ = true;
    }
    if (!diagFresh_) {
      const auto start = std::chrono::steady_clock::now();
      diag_.energy = computeEnergy(model(), s, state_);
      diag_.stages[Stage::Energy] = msSince(start);
      diagFresh_ = true;
    }
  } else if (hostPositionsEveryFrame) {
    if (Status st = sim.readPositions(state_.x); !st)
      markBlownUp(std::string(where) + " read-back failed: " + st.error().message);
  }
}

void SimSession::enableDeviceEnergy() {
  if (!gpu_) return;
  if (Status s = gpu_->enableDeviceEnergy(); !s)
    notice("energy on OpenCL is unavailable (" + s.error().message + "): the energy plots update every " +
           std::to_string(kDiagnosticsEvery) + " frames from a full read-back");
}

void SimSession::afterStep() {
  series_.stepMs.push(float(lastStepMs_));
  const bool measuredNow = !blownUp() && stepErrorFresh_ && diag_.stepError.measured;
  series_.stepError.push(measuredNow ? diag_.stepError.relative() : NAN);
  if (blownUp()) return;
  if (stepErrorFresh_) verdict_.add(diag_.stepError);
  if (!diagFresh_) return;
  // XPBD's compliant constraints count by the energy their forces carry
  // (EnergyReport::dynamicTotal): the energy the step trades with.
  const double total = diag_.energy.dynamicTotal();
  series_.totalEnergy.push(float(total));
  series_.kinetic.push(float(diag_.energy.kinetic));
  series_.elastic.push(float(total - diag_.energy.kinetic - diag_.energy.potential));
  if (violationFresh_) series_.maxViolation.push(diag_.maxViolation);
  if (!diag_.residualHistory.empty()) series_.residual.push(diag_.residual);
  if (!diag_.warning.empty() && diag_.warning != lastWarning_) notice("warning: " + diag_.warning);
  if (state_.mouse.active || settings_.step.gravity != gravity0_ || windDoesWork(settings_.wind, model()) ||
      fieldsDoWork(settings_.forceFields) || !animatedPins().empty())  // keyed pins move the bodies
    forced_ = true;
  convergence_ = checkConvergence(settings_.solver, settings_.step, substepsUsed(), diag_.residual);
  xpbdShare_ = checkXpbdForceShare(diag_.energy, energyScale_);
  if (xpbdShare_.underConverged) ++xpbdSoftFrames_;
  // Keep the largest rise since the reset: a swing that gained energy shows after it passes.
  const double checked = checkedEnergy(diag_.energy, settings_.solver);
  const EnergyRiseCheck rise = checkEnergyRise(!forced_, checked, energy0_, energyScale_);
  if (!rise.applies || !energyRise_.applies || rise.rise > energyRise_.rise) energyRise_ = rise;
  const PbdSoftness soft = checkPbdSoftness(settings_.solver, !forced_, diag_.energy, energy0_, energyScale_);
  if (!soft.applies || !pbdSoftness_.applies || soft.excess > pbdSoftness_.excess) pbdSoftness_ = soft;
  lastWarning_ = diag_.warning;
  // The capacity follows live material edits (a sum over the elements: microseconds).
  if (forced_) elasticCapacity_ = elasticCapacity(model());
  const ExplosionCheck explosion = checkExplosion(checked, energy0_, energyScale_, forced_, elasticCapacity_);
  if (explosion.exploded) {
    const std::string message = explosionMessage(explosion, settings_.solver, checked, energy0_, energyScale_);
    // OpenCL: the host copy may be frames old; show the state that exploded.
    if (backend_ == Backend::OpenCl) (void)pullFromDevice();
    markBlownUp(message);
    return;
  }
  if (frame_ % kSnapshotEvery == 0) {
    snapshot_ = state_;
    snapshotFrame_ = frame_;
  }
}

void SimSession::markBlownUp(std::string message) {
  blowUp_ = std::move(message);
  paused_ = true;
  notice(blowUp_);
}

void SimSession::restoreLastGood() {
  if (!snapshot_) return;
  const Attachment mouse = state_.mouse;
  state_ = *snapshot_;
  state_.mouse = mouse;
  state_.mouse.active = false;
  blowUp_.clear();
  paused_ = true;
  pushToCpu();
  if (backend_ == Backend::OpenCl && gpu_)
    if (Status s = pushToDevice(); !s) notice("restoring on OpenCL failed: " + s.error().message);
  notice("restored the state of frame " + std::to_string(snapshotFrame_) + " (paused: press space to continue)");
}

void SimSession::reset() {
  // Keep the pins the user made: the current pinned set on a fresh initial state.
  std::vector<uint32_t> pinned;
  for (uint32_t i = 0; i < state_.x.size(); ++i)
    if (state_.x[i].w == 0.0f) pinned.push_back(i);
  // Keyed pins let go by their schedule hold again (the schedule is part of the run, not an edit).
  for (size_t k = 0; k < animatedPins().size(); ++k)
    if (pinAnimator_.released(k) && animatedPins()[k].spring < 0)  // a compliant region's vertices stay free
      pinned.insert(pinned.end(), animatedPins()[k].vertices.begin(), animatedPins()[k].vertices.end());
  const Attachment mouse = state_.mouse;
  state_ = makeInitialState(built());
  sphereRigStale_ = true;
  pinAnimator_.reset();  // keyed pins let go hold again
  for (uint32_t i = 0; i < state_.x.size(); ++i) state_.x[i].w = 1.0f / model().mass[i];
  pinVertices(state_, pinned);
  state_.mouse = mouse;
  state_.mouse.active = false;
  pushToCpu();
  if (backend_ == Backend::OpenCl && gpu_)
    if (Status s = pushToDevice(); !s) notice("reset on OpenCL failed: " + s.error().message);
  blowUp_.clear();
  diag_ = {};
  frame_ = 0;
  verdict_ = {};
  stepErrorFresh_ = false;
  convergence_ = {};
  xpbdShare_ = {};
  xpbdSoftFrames_ = 0;
  energyRise_ = {};
  pbdSoftness_ = {};
  forced_ = false;
  // The start energy again: gravity may have been edited since the scene loaded.
  energy0_ = computeEnergy(model(), settings_, state_).dynamicTotal();
  gravity0_ = settings_.step.gravity;
  totalStepMs_ = 0.0;
  for (Series* s : {&series_.totalEnergy, &series_.kinetic, &series_.elastic, &series_.maxViolation,
                    &series_.residual, &series_.stepMs, &series_.stepError})
    s->clear();
  snapshot_ = state_;
  snapshotFrame_ = 0;
}

// ---- solver and backend ----

void SimSession::setSolver(SolverKind kind) {
  bool fellBack = false;
  if (backend_ == Backend::OpenCl && gpu_) {
    if (Status s = gpu_->setSolver(kind); !s) {
      gpuUnavailable_[size_t(kind)] = s.error().message;
      notice(std::string(solverDisplayName(kind)) + " is not available on OpenCL here (" + s.error().message +
             "): running it on the CPU reference instead");
      (void)pullFromDevice();
      backend_ = Backend::Cpu;
      fellBack = true;
    }
  }
  settings_.solver = kind;
  (void)cpu_->setSolver(kind);
  if (fellBack) pushToCpu();  // the device's x and v, as pulled
  noticeXpbdSubsteps();
}

Status SimSession::setBackend(Backend backend, const ClContext* context) {
  if (backend == backend_) return Ok{};
  if (backend == Backend::Cpu) {
    Status s = pullFromDevice();
    backend_ = Backend::Cpu;
    pushToCpu();
    return s;
  }
  if (!context) return Error{"no OpenCL device is available: staying on the CPU reference"};
  if (!gpuUnavailable_[size_t(settings_.solver)].empty())
    return Error{std::string(solverDisplayName(settings_.solver)) + " is not available on OpenCL here (" +
                 gpuUnavailable_[size_t(settings_.solver)] + "): staying on the CPU reference"};
  if (!gpu_ || clContext_ != context) {
    gpu_.reset();
    Result<std::unique_ptr<OpenClSimulator>> sim =
        OpenClSimulator::create(model(), state_, settings_.solver, *context, kernelSource_);
    if (!sim) {
      gpuUnavailable_[size_t(settings_.solver)] = sim.error().message;
      return Error{"cannot run " + std::string(solverDisplayName(settings_.solver)) + " on OpenCL: " +
                   sim.error().message + " (staying on the CPU reference)"};
    }
    gpu_ = std::move(*sim);
    gpu_->setStageTiming(stageTiming_);
    clContext_ = context;
    enableDeviceEnergy();
  } else {
    if (Status s = gpu_->setSolver(settings_.solver); !s) {
      gpuUnavailable_[size_t(settings_.solver)] = s.error().message;
      return Error{"cannot run " + std::string(solverDisplayName(settings_.solver)) + " on OpenCL: " +
                   s.error().message + " (staying on the CPU reference)"};
    }
    if (Status s = pushToDevice(); !s) return s;
  }
  backend_ = Backend::OpenCl;
  return Ok{};
}

void SimSession::setStageTiming(bool on) {
  stageTiming_ = on;
  if (gpu_) gpu_->setStageTiming(on);
}

Status SimSession::dropOpenCl() {
  Status s = setBackend(Backend::Cpu, nullptr);
  gpu_.reset();
  clContext_ = nullptr;
  gpuUnavailable_ = {};
  return s;
}

std::string SimSession::pollKernels() {
  if (!gpu_ || backend_ != Backend::OpenCl) return "";
  return gpu_->pollKernels();  // the device energy's kernels too
}

Status SimSession::pullFromDevice() {
  if (!gpu_) return Ok{};
  const Attachment mouse = state_.mouse;
  const double time = state_.time;
  Status s = gpu_->downloadState(state_);
  state_.mouse = mouse;
  state_.time = time;
  return s;
}

void SimSession::pushToCpu() { (void)cpu_->writeState(state_); }

Status SimSession::syncPositions() {
  if (backend_ != Backend::OpenCl || !gpu_) return Ok{};
  return gpu_->downloadPositions(state_.x);
}

Status SimSession::pushToDevice() {
  if (!gpu_) return Ok{};
  return gpu_->uploadState(state_);
}

VbdStats SimSession::vbdStats() const {
  if (backend_ == Backend::Cpu && cpu_) return vbdStatsOf(cpu_->cpuSolver());
  return {};
}

// ---- edits ----

void SimSession::setMaterial(uint32_t body, const Material& material) {
  SimModel& m = shared_->built.scene.model;
  if (body >= m.materials.size()) return;
  const Material& old = m.materials[body];
  // A cloth's thickness scales its mass per area (rho h) and its membrane stiffness (E h).
  const bool thicknessChanged = (m.isCloth(body) || m.isStrand(body)) && old.thickness != material.thickness;
  const bool densityChanged = old.density != material.density || thicknessChanged;
  const bool elasticChanged =
      old.youngsModulus != material.youngsModulus || old.poissonRatio != material.poissonRatio || thicknessChanged ||
      old.bendingStiffness != material.bendingStiffness;
  // An unchanged material keeps the revision, so nothing derived is re-made (the panel calls this per edit).
  if (!densityChanged && !elasticChanged && old.damping == material.damping) return;
  // A new E, nu or density changes the energy under the bodies (damping only removes it).
  if (elasticChanged || densityChanged) forced_ = true;
  m.materials.set(body, material);
  materialsSeen_ = m.materials.revision();
  if (!densityChanged) return;
  recomputeLumpedMass(m, shared_->built.tetDensityScale);
  massesSeen_ = ++shared_->massRevision;
  applyMasses();
}

void SimSession::applyMasses() {
  const SimModel& m = model();
  if (backend_ == Backend::OpenCl) (void)pullFromDevice();
  for (uint32_t i = 0; i < m.vertexCount(); ++i)
    if (state_.x[i].w > 0.0f) state_.x[i].w = 1.0f / m.mass[i];
  pushToCpu();
  if (backend_ == Backend::OpenCl) {
    (void)pushToDevice();
    if (Status s = gpu_->massesChanged(); !s) notice("updating the masses on OpenCL failed: " + s.error().message);
  }
}

void SimSession::togglePin(uint32_t vertex) {
  if (vertex >= state_.x.size()) return;
  if (backend_ == Backend::OpenCl) (void)pullFromDevice();
  const uint32_t ids[] = {vertex};
  if (state_.x[vertex].w == 0.0f)
    unpinVertices(model(), state_, ids);
  else
    pinVertices(state_, ids);
  // Pins change tethers and AVBD's pin rows: re-initialise the solver (x and v are kept).
  sphereRigStale_ = true;  // the spheres' radii follow the distance to the pins
  pushToCpu();
  if (backend_ == Backend::OpenCl) (void)pushToDevice();
}

void SimSession::syncSprings(const Simulator& sim) {
  if (state_.springs.empty()) return;
  if (!diag_.springsBroken) {
    state_.springs.frames = sim.springs().frames;
    return;
  }
  const AnchorSprings before = state_.springs;
  state_.springs = sim.springs();
  for (size_t s = 0; s < state_.springs.springs.size() && s < before.springs.size(); ++s) {
    const AnchorSpring& sp = state_.springs.springs[s];
    if (!sp.broken || before.springs[s].broken) continue;
    char text[256];
    std::snprintf(text, sizeof text, "spring '%s' broke at t = %.3f s (frame %lld): past its %s", sp.name.c_str(),
                  sp.brokenTime, static_cast<long long>(sp.brokenFrame) + 1,
                  sp.breakForce > 0.0f ? "breaking force" : "breaking strain");
    notice(text);
  }
}

void SimSession::editSpring(uint32_t s, const AnchorSpringEdit& edit) {
  if (s >= state_.springs.springs.size()) return;
  if (backend_ == Backend::OpenCl) (void)pullFromDevice();
  AnchorSprings& sp = state_.springs;
  AnchorSpring& spring = sp.springs[s];
  spring.stiffness = std::max(edit.stiffness, 1e-6f);
  spring.breakForce = std::max(edit.breakForce, 0.0f);
  spring.breakStrain = spring.restLength > 0.0f ? std::max(edit.breakStrain, 0.0f) : 0.0f;
  if (edit.breakNow && !spring.broken) {
    spring.broken = true;
    spring.brokenFrame = sp.frames;
    spring.brokenTime = state_.time;
  }
  refreshSpringStiffness(sp, s);  // 0 while broken or slack (a compliant region let go)
  // A reset keeps the edit (the scene's springs are what a reset starts from), not the break.
  AnchorSprings& initial = shared_->built.scene.springs;
  if (s < initial.springs.size()) {
    AnchorSpring& first = initial.springs[s];
    first.stiffness = spring.stiffness;
    first.breakForce = spring.breakForce;
    first.breakStrain = spring.breakStrain;
    refreshSpringStiffness(initial, s);
  }
  markExternalWork();
  pushToCpu();
  if (backend_ == Backend::OpenCl) (void)pushToDevice();
}

void SimSession::beginDrag(const std::vector<uint32_t>& vertices, const std::vector<float>& weights,
                           glm::vec3 target) {
  state_.mouse.vertices = vertices;
  state_.mouse.weights = weights;
  state_.mouse.target = target;
  state_.mouse.active = !vertices.empty() && vertices.size() == weights.size();
  applyMouseSettings();
  cpu_->setAttachment(state_.mouse);
  if (gpu_) gpu_->setAttachment(state_.mouse);
}

void SimSession::moveDrag(glm::vec3 target) {
  if (!state_.mouse.active) return;
  state_.mouse.target = target;
  cpu_->setAttachment(state_.mouse);
  if (gpu_) gpu_->setAttachment(state_.mouse);
}

void SimSession::endDrag() {
  state_.mouse.active = false;
  cpu_->setAttachment(state_.mouse);
  if (gpu_) gpu_->setAttachment(state_.mouse);
}

float SimSession::dragForce() const {
  const Attachment& a = state_.mouse;
  const float pull = a.stiffness * glm::length(a.target - dragPoint());
  return a.maxForce > 0.0f ? std::min(pull, a.maxForce) : pull;
}

void SimSession::checkDragBreak() {
  if (!state_.mouse.active || !(mouse_.breakForce > 0.0f) || blownUp()) return;
  Simulator& sim = active();
  // A device run reads the positions back only while the window needs them.
  if (!sim.stateOnHost() && !hostPositionsEveryFrame)
    if (Status st = sim.readPositions(state_.x); !st) return;
  const float force = dragForce();
  if (force <= mouse_.breakForce) return;
  endDrag();
  dragBroke_ = true;
  char text[200];
  std::snprintf(text, sizeof text, "the mouse spring let go at t = %.3f s: it pulled %.4g N, past its %.4g N break force",
                state_.time, double(force), double(mouse_.breakForce));
  notice(text);
}

Result<uint32_t> SimSession::hookDrag() {
  const Attachment& drag = state_.mouse;
  if (!drag.active || drag.vertices.empty()) return Error{"nothing is dragged: grab a body first, then press H"};
  const SimModel& m = model();
  const uint32_t body = drag.vertices[0] < m.vertexCount() ? m.vertexBody[drag.vertices[0]] : 0u;
  if (body >= built().bodies.size() || body >= desc_.bodies.size()) return Error{"the dragged vertices have no body"};
  if (backend_ == Backend::OpenCl) (void)pullFromDevice();
  uint32_t hooks = 0;
  for (const AnchorSpring& sp : state_.springs.springs) hooks += sp.name.rfind("hook ", 0) == 0 ? 1u : 0u;
  const AnchorSpringSpec spec =
      hookSpecFromDrag(m, drag, mouse_.breakForce, "hook " + std::to_string(hooks + 1));
  const BodyRange& range = built().bodies[body];
  Result<AnchorSprings> one = buildAnchorSprings(m, {BodySprings{range.name, body, range.vertexBegin, range.vertexEnd, {spec}}});
  if (!one) return one.error();
  const uint32_t index = uint32_t(state_.springs.springs.size());
  appendAnchorSprings(state_.springs, *one, m.vertexCount());
  // A reset starts from the built scene's springs, a save from the description: both keep the hook.
  appendAnchorSprings(shared_->built.scene.springs, *one, m.vertexCount());
  desc_.bodies[body].springs.push_back(spec);
  endDrag();
  markExternalWork();
  pushToCpu();
  if (backend_ == Backend::OpenCl)
    if (Status st = pushToDevice(); !st) return st.error();
  char text[200];
  std::snprintf(text, sizeof text, "'%s' holds body '%s' at the cursor: %.4g N/m%s", spec.name.c_str(),
                range.name.c_str(), double(spec.stiffness),
                spec.breakForce > 0.0f ? (", breaks at " + std::to_string(int(spec.breakForce + 0.5f)) + " N").c_str() : "");
  notice(text);
  return index;
}

glm::vec3 SimSession::dragPoint() const {
  glm::vec3 p(0.0f);
  const Attachment& a = state_.mouse;
  for (size_t k = 0; k < a.vertices.size() && k < a.weights.size(); ++k)
    if (a.vertices[k] < state_.x.size()) p += a.weights[k] * glm::vec3(state_.x[a.vertices[k]]);
  return p;
}

SceneDesc SimSession::describe() const {
  SceneDesc d = desc_;
  d.settings = settings_;
  d.mouse = mouse_;
  for (size_t b = 0; b < d.bodies.size() && b < model().materials.size(); ++b) d.bodies[b].material = model().materials[b];
  // The keys as edited in the panel.
  for (const AnimatedPins& a : animatedPins())
    if (a.body < d.bodies.size() && a.region < d.bodies[a.body].pins.size())
      d.bodies[a.body].pins[a.region].animation = a.animation;
  // Springs as edited in the panel (built in body order, each body's in file order).
  std::vector<size_t> nextOfBody(d.bodies.size(), 0);
  for (const AnchorSpring& sp : state_.springs.springs) {
    if (sp.body >= d.bodies.size()) continue;
    if (sp.pinRegion >= 0) {  // a compliant pin region's spring: its region keeps the values
      if (size_t(sp.pinRegion) < d.bodies[sp.body].pins.size()) {
        d.bodies[sp.body].pins[size_t(sp.pinRegion)].stiffness = sp.stiffness;
        d.bodies[sp.body].pins[size_t(sp.pinRegion)].breakForce = sp.breakForce;
      }
      continue;
    }
    const size_t k = nextOfBody[sp.body]++;
    if (k >= d.bodies[sp.body].springs.size()) continue;
    AnchorSpringSpec& spec = d.bodies[sp.body].springs[k];
    spec.stiffness = sp.stiffness;
    spec.breakForce = sp.breakForce;
    spec.breakStrain = sp.breakStrain;
  }
  // Pins: the difference between the current pinned set and the regions' pins.
  std::vector<uint8_t> region(model().vertexCount(), 0);
  for (uint32_t v : built().regionPins) region[v] = 1;
  d.pinnedVertices.clear();
  d.unpinnedVertices.clear();
  for (uint32_t v = 0; v < model().vertexCount(); ++v) {
    const bool pinned = state_.x[v].w == 0.0f;
    if (pinned && !region[v]) d.pinnedVertices.push_back(v);
    if (!pinned && region[v]) d.unpinnedVertices.push_back(v);
  }
  return d;
}

}  // namespace tetlab
