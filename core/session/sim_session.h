#pragma once
// One loaded scene being simulated: the model, the host state, the active
// solver on whichever backend, and everything the UI shows about it. GL-free,
// its own library (tetlab_session, README.md here), so the window, the tests
// and the tools drive it without a window.
//
//   App frame:  session.advance()  ->  sim.step(settings, diag)            (Simulator: CPU reference or OpenCL)
//                                      -> sim.readDiagnostics(diag)        (bad vertex, residual, contacts,
//                                                                           stage times; nothing on the CPU)
//                                      -> [sim.readEnergy]                 (a device's energy reductions: a few
//                                                                           partial sums read back)
//                                      -> positions into state.x           (full state every kDiagnosticsEvery
//                                                                           frames when the state is on a device)
//               -> plots, blow-up check, snapshot every kSnapshotEvery healthy frames
//
// Both backends run through the same code above (core/sim/simulator.h); what
// differs is read from the simulator's capabilities, not from the backend's
// name. The session builds the OpenCL simulator itself from the app's context
// (setBackend) and so links tetlab_gpu: the app and the tests choose a device
// as a ClContext and the per-launch timings (StepStats) and device buffers
// (the render embedding) are OpenCL's. A factory taking the place of that
// would make the session depend on the interface alone; that is left for when
// a second device backend exists.
//
// Live edits: settings() is read at the next step; a solver switch keeps x and
// v (CPU: a fresh solver reset on the state; OpenCL: solver-private data only);
// a backend switch copies x and v across once. A solver without OpenCL
// kernels falls back to the CPU reference with a notice saying so.
//
// Blow-up: a non-finite state (the step rolls back the bad substep) or a total
// energy further from the start than checkExplosion allows (core/sim/
// convergence.h: kExplosionFactor times the scene's energy scale, plus the
// bodies' elastic capacity while something forces them) pauses the run;
// restoreLastGood() goes back to the last snapshot.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/cpu/vbd_solver.h"
#include "core/cpu/xpbd_solver.h"
#include "core/sim/convergence.h"
#include "core/sim/convergence_verdict.h"
#include "core/result.h"
#include "core/scene/scene_build.h"
#include "core/scene/scene_desc.h"
#include "core/sim/diagnostics.h"
#include "core/sim/pin_animator.h"
#include "core/session/series.h"
#include "core/sim/simulator.h"
#include "core/sim/sphere_constraints.h"
#include "core/sim/solver.h"
#include "gpu/cl/cl_context.h"
#include "gpu/cl/kernel_source.h"
#include "gpu/cl/profiler.h"

namespace tetlab {

class OpenClSimulator;

struct SessionSeries {
  Series totalEnergy;   // [J]
  Series kinetic;       // [J]
  Series elastic;       // [J]
  Series maxViolation;  // [m]
  Series residual;      // last iteration's residual of each step
  Series stepMs;        // wall time of the step [ms]
  Series stepError;     // step error / scale of each frame [-]; NaN where not measured (a device between read-backs)
};

class SimSession {
 public:
  // OpenCL: full state read-back every N frames (host copy of v and xPrev for
  // snapshots; energy too when the device energy kernels are unavailable).
  static constexpr int kDiagnosticsEvery = 10;
  static constexpr int kSnapshotEvery = 30;      // frames between "last good state" snapshots

  // `desc` is what built `built` (kept for saving). Fails on an empty model.
  static Result<std::unique_ptr<SimSession>> create(SceneDesc desc, BuiltScene built);
  // Another session on the same model (a compare lane, core/session/compare_session.h):
  // it shares `primary`'s model and rest data, which are never copied, and starts from
  // a copy of its state (pins, positions, velocities, time), settings and snapshot.
  // A material edited through either changes both models' materials (they are one):
  // each session refreshes its masses at its next step when a density changed.
  static std::unique_ptr<SimSession> createLane(const SimSession& primary);
  ~SimSession();
  SimSession(const SimSession&) = delete;
  SimSession& operator=(const SimSession&) = delete;

  // ---- stepping ----
  // Once per app frame: steps `steps` frames when running, one when a single
  // step was requested, none when paused or blown up.
  void advance(int steps = 1);
  bool paused() const { return paused_; }
  void setPaused(bool paused) { paused_ = paused; }
  void requestSingleStep() { singleStep_ = true; }
  // A single step asked of this session, handed to whoever steps it instead
  // (compare mode steps the lanes together); clears the request.
  bool takeSingleStep() { return std::exchange(singleStep_, false); }
  // Each frame advances slowMotion * dt of simulated time (1 = real time) [-], in (0, 1].
  float slowMotion = 1.0f;

  // ---- solver and backend ----
  SolverSettings& settings() { return settings_; }
  const SolverSettings& settings() const { return settings_; }
  SolverKind solver() const { return settings_.solver; }
  void setSolver(SolverKind kind);
  // settings().step.substeps is what the user asked for, for every solver.
  // XPBD alone may run more: its Neo-Hookean shear is explicit
  // (core/cpu/xpbd_solver.h), so while xpbdAutoRaise is on it runs the
  // plan's `used` count; switching to another solver runs `asked` again.
  XpbdSubstepPlan xpbdPlan() const;
  int substepsUsed() const { return xpbdPlan().used; }
  bool xpbdAutoRaise() const { return xpbdAutoRaise_; }
  void setXpbdAutoRaise(bool on) { xpbdAutoRaise_ = on; }
  Backend backend() const { return backend_; }
  // OpenCL needs a context (the app owns it and outlives the session). On a
  // failure the session stays on (or returns to) the CPU and the error says why.
  Status setBackend(Backend backend, const ClContext* context);
  // Forgets the OpenCL simulator (another device was chosen): back on the CPU
  // reference with the device's x and v; the next setBackend builds a new one.
  Status dropOpenCl();
  // Kernels from a folder (rebuilt live when a file changes) instead of the embedded copy;
  // takes effect at the next switch to OpenCL.
  void setKernelSource(KernelSourceOptions source) { kernelSource_ = std::move(source); }
  // OpenCL: rebuilds edited kernels; the compiler log of a failed rebuild ("" when fine or
  // unchanged). The previous kernels keep running.
  std::string pollKernels();
  // Why a solver cannot run on OpenCL here ("" when it can or was not tried).
  // The OpenCL simulator while the OpenCL backend is active, else nullptr.
  OpenClSimulator* openCl() { return backend_ == Backend::OpenCl ? gpu_.get() : nullptr; }
  const std::string& openClUnavailable(SolverKind kind) const { return gpuUnavailable_[size_t(kind)]; }

  // ---- edits ----
  const Material& material(uint32_t body) const { return model().materials.at(body); }
  // E, nu and damping apply at the next substep; a density change recomputes the lumped masses.
  void setMaterial(uint32_t body, const Material& material);
  bool isPinned(uint32_t vertex) const { return vertex < state_.x.size() && state_.x[vertex].w == 0.0f; }
  // Pins the vertex where it is now, or gives it its mass back.
  void togglePin(uint32_t vertex);
  // Keyed pin regions (shared by compare lanes): edits apply from the next frame.
  std::vector<AnimatedPins>& animatedPins() { return shared_->built.scene.animatedPins; }
  const std::vector<AnimatedPins>& animatedPins() const { return shared_->built.scene.animatedPins; }
  // Anchor springs as stepped (which broke, State::springs; core/sim/anchor_springs.h).
  const AnchorSprings& springs() const { return state_.springs; }
  // A spring's stiffness and limits, live; breakNow breaks it at once. A reset makes it whole again.
  struct AnchorSpringEdit {
    float stiffness = 0.0f, breakForce = 0.0f, breakStrain = 0.0f;
    bool breakNow = false;
  };
  void editSpring(uint32_t spring, const AnchorSpringEdit& edit);
  // Mouse drag (State::mouse): weights over model vertices, target [m].
  void beginDrag(const std::vector<uint32_t>& vertices, const std::vector<float>& weights, glm::vec3 target);
  void moveDrag(glm::vec3 target);
  void endDrag();
  bool dragging() const { return state_.mouse.active; }
  glm::vec3 dragPoint() const;  // sum w_i x_i of the grabbed vertices
  // The force the drag pulls with: its stiffness times the stretch, at most its cap [N].
  float dragForce() const;
  // H while dragging: leaves an anchor spring where the drag holds the body
  // (core/sim/anchor_spring_hook.h), breaking at mouse().breakForce; a reset
  // keeps it and a save writes it. Ends the drag; returns the spring's index.
  Result<uint32_t> hookDrag();
  // True once after a frame in which the drag let go because it pulled past mouse().breakForce.
  bool takeDragBroke() { return std::exchange(dragBroke_, false); }
  MouseSpec& mouse() { return mouse_; }  // stiffness / force cap, applied at the next step
  float autoMouseMaxForce() const { return autoMaxForce_; }
  // Back to the initial state, keeping the current pins, settings and materials.
  void reset();
  // Work done on the bodies from outside the solver (a collider moved, a material
  // edited): their energy may now change without the solver at fault, so the
  // energy-rise flag stays off until the next reset. A mouse pull and a gravity
  // edit count as such work by themselves.
  void markExternalWork() { forced_ = true; }

  // ---- blow-up ----
  bool blownUp() const { return !blowUp_.empty(); }
  const std::string& blowUpMessage() const { return blowUp_; }
  bool canRestore() const { return snapshot_.has_value(); }
  uint64_t snapshotFrame() const { return snapshotFrame_; }
  void restoreLastGood();

  // ---- reading ----
  const SimModel& model() const { return shared_->built.scene.model; }
  const BuiltScene& built() const { return shared_->built; }
  // Sessions sharing this one's model (itself included): 1 unless comparing.
  long modelShares() const { return shared_.use_count(); }
  // Host copy: on the CPU backend always current. On OpenCL: x every frame while
  // hostPositionsEveryFrame (the drawing needs it), else only every
  // kDiagnosticsEvery frames with the rest; syncPositions() refreshes x now
  // (picking). Edits always pull the device state first, so none is lost.
  const State& state() const { return state_; }
  bool hostPositionsEveryFrame = true;
  Status syncPositions();
  const StepDiagnostics& diagnostics() const { return diag_; }
  bool diagnosticsFresh() const { return diagFresh_; }  // the last frame refreshed energy/residual
  bool violationFresh() const { return violationFresh_; }  // the last frame measured diagnostics().maxViolation
  // The total energy at the start (or the last reset) [J], and whether work
  // from outside (mouse, edits, wind) has been done since (markExternalWork).
  double energyStart() const { return energy0_; }
  bool externallyForced() const { return forced_; }
  // OpenCL: the energy comes from the device every frame (false: the kernels
  // failed to build, and it comes from the periodic full read-back).
  bool deviceEnergyActive() const;
  const StepStats& gpuStats() const { return gpuStats_; }
  // Device stage times (profiling events) are taken only while a reader shows
  // them (the numbers panel); launches per step are counted either way.
  void setStageTiming(bool on);
  bool stageTiming() const { return stageTiming_; }
  VbdStats vbdStats() const;
  const SessionSeries& series() const { return series_; }
  uint64_t frame() const { return frame_; }
  double time() const { return state_.time; }
  double lastStepWallMs() const { return lastStepMs_; }
  // Mean wall time of a frame's step since the scene was loaded or reset [ms].
  double meanStepWallMs() const { return frame_ > 0 ? totalStepMs_ / double(frame_) : 0.0; }
  double energyScale() const { return energyScale_; }
  // The under-converged verdict since the reset: the common step error of
  // each measured frame (core/sim/convergence_verdict.h; every frame on the
  // CPU reference, every kDiagnosticsEvery-th on a device).
  const ConvergenceTally& verdict() const { return verdict_; }
  bool underConverged() const { return tetlab::underConverged(verdict_.last); }  // the latest measured frame
  // Secondary: VBD/AVBD's own residual against h^2 g (core/sim/convergence.h).
  const ConvergenceCheck& convergence() const { return convergence_; }
  // Does an unforced run (damped or not) gain energy (core/sim/convergence.h)?
  const EnergyRiseCheck& energyRise() const { return energyRise_; }
  // PBD: the largest excess of the shape's material energy over the start
  // since the reset, which the rise check does not count (checkPbdSoftness).
  const PbdSoftness& pbdSoftness() const { return pbdSoftness_; }
  // XPBD: the share of the deformation's force its multipliers carried in the
  // last measured frame, and how many frames fell below the tolerance since the reset.
  const XpbdForceShare& xpbdForceShare() const { return xpbdShare_; }
  uint64_t xpbdSoftFrames() const { return xpbdSoftFrames_; }
  // The scene as it is now (settings, materials, pins) for saving; camera left as in the desc.
  SceneDesc describe() const;
  const SceneDesc& desc() const { return desc_; }
  // Messages for the UI since the last call (fallbacks, warnings), oldest first.
  std::vector<std::string> takeNotices();

 private:
  SimSession() = default;
  void stepFrame();
  // One frame on the active simulator and the reads that follow it.
  void stepActive(Simulator& sim, const SolverSettings& s);
  // Pins that follow a collider to where it is now (core/sim/pin_followers.h).
  void moveFollowers(Simulator& sim);
  // Keyed pins to their pose at `time` (the end of the frame about to run), and
  // the ones whose release time has come let go (core/sim/pin_animation.h).
  void moveAnimatedPins(double time);
  // This frame's motion and separation spheres to the active backend (core/sim/sphere_constraints.h).
  void updateSpheres(Simulator& sim);
  // Builds the device energy kernels for gpu_ (a notice on failure: the host
  // energy from the periodic read-back is used then).
  void enableDeviceEnergy();
  void afterStep();
  // The simulator the frames run on: gpu_ on the OpenCL backend, else cpu_.
  Simulator& active();
  Status pullFromDevice();  // full state read (OpenCL), keeping the host's mouse and time
  Status pushToDevice();    // full state write (OpenCL)
  // The host state's x, xPrev, v, mouse and time into the CPU reference (its
  // solver data re-initialised): after every edit, as the CPU solver's reset was.
  void pushToCpu();
  void applyMouseSettings();
  // The simulator's springs into the host state after a step (a notice for each that broke).
  void syncSprings(const Simulator& sim);
  // The end-of-frame check of a breakable drag (MouseSpec::breakForce).
  void checkDragBreak();
  // A notice when XPBD becomes active and its plan raises the substeps.
  void noticeXpbdSubsteps();
  void notice(std::string text);
  void markBlownUp(std::string message);
  // A session sharing the model edited a material: take the masses it implies
  // and count the edit as outside work (the energy-rise flag stays off).
  void syncSharedModel();
  // The model's lumped masses into the state's unpinned inverse masses, on both backends.
  void applyMasses();

  // The model and what was built with it: shared by the compare lanes of one scene.
  // massRevision moves on whenever a density edit recomputed the lumped masses.
  struct SharedScene {
    BuiltScene built;
    uint64_t massRevision = 0;
  };

  SceneDesc desc_;
  std::shared_ptr<SharedScene> shared_;
  uint64_t massesSeen_ = 0, materialsSeen_ = 0;
  std::vector<glm::vec3> followTargets_, followPositions_;  // moveFollowers scratch
  std::vector<uint32_t> followIds_;
  PinAnimator pinAnimator_;  // keyed pins: moved before each frame, let go at their time (until a reset)
  SphereRig sphereRig_;
  bool sphereRigStale_ = true, haveSphereTargets_ = false, spheresSent_ = false;
  std::vector<glm::vec4> sphereMotion_, sphereSeparation_;  // last frame's targets
  SolverSettings settings_;
  bool xpbdAutoRaise_ = true;
  State state_;
  std::unique_ptr<CpuSimulator> cpu_;      // always there: the fallback and the OpenCL-less backend
  std::unique_ptr<OpenClSimulator> gpu_;   // built at the first switch to OpenCL
  const ClContext* clContext_ = nullptr;
  KernelSourceOptions kernelSource_;
  Backend backend_ = Backend::Cpu;
  std::array<std::string, 4> gpuUnavailable_;
  MouseSpec mouse_;
  bool dragBroke_ = false;
  float autoMaxForce_ = 0.0f, autoStiffness_ = 0.0f;

  StepDiagnostics diag_;
  bool diagFresh_ = false;
  bool violationFresh_ = false;  // diag_.maxViolation measured by the last frame (CPU reference only)
  StepStats gpuStats_;
  bool stageTiming_ = false;
  SessionSeries series_;
  std::string lastWarning_;
  double lastStepMs_ = 0.0;
  double totalStepMs_ = 0.0;
  uint64_t frame_ = 0;
  bool paused_ = false, singleStep_ = false;

  double energy0_ = 0.0, energyScale_ = 1.0;
  double elasticCapacity_ = 0.0;  // forced runs may add this much (checkExplosion)
  ConvergenceTally verdict_;
  bool stepErrorFresh_ = false;   // diag_.stepError was taken by the last frame
  ConvergenceCheck convergence_;
  XpbdForceShare xpbdShare_;
  uint64_t xpbdSoftFrames_ = 0;
  EnergyRiseCheck energyRise_;
  PbdSoftness pbdSoftness_;
  bool forced_ = false;  // external work since the last reset (markExternalWork): energy may rise
  glm::vec3 gravity0_{0.0f};  // gravity energy0_ was measured with
  std::string blowUp_;
  std::optional<State> snapshot_;
  uint64_t snapshotFrame_ = 0;
  std::vector<std::string> notices_;
};

}  // namespace tetlab
