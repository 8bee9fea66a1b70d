// `tetlab run`: builds the scene (app/commands/run_scene.h: a scene file, a preset or
// an OBJ through the mesh pipeline, with the overrides applied), then steps the
// chosen solver on the chosen backend, writing one CSV row per frame. Every
// failure is a message plus a non-zero exit code, never a crash.
#include "app/commands/run_command.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <cmath>
#include <limits>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/commands/resident_memory.h"
#include "app/commands/run_scene.h"
#include "core/sim/anchor_spring_resolution.h"
#include "core/cpu/xpbd_solver.h"
#include "core/sim/convergence.h"
#include "core/sim/convergence_verdict.h"
#include "core/sim/step_error.h"
#include "core/scene/enum_names.h"
#include "core/sim/energy.h"
#include "core/sim/pin_animator.h"
#include "core/sim/presets.h"
#include "core/sim/solver_settings.h"
#include "core/sim/simulator.h"
#include "core/sim/state_setup.h"
#include "gpu/solvers/opencl_simulator.h"
#include "core/sim/rayleigh_damping.h"

namespace tetlab {
namespace {

int fail(const std::string& message) {
  std::cerr << "tetlab run: " << message << "\n";
  return 1;
}

// A value the backend does not measure is NaN in the CSV (stepFrame), but
// "nan" in the summary line reads as a blow-up: it says so in words there.
std::string measuredOrNot(double value, const char* unit) {
  if (std::isnan(value)) return "not measured on this backend";
  char text[48];
  std::snprintf(text, sizeof text, "%.3g%s", value, unit);
  return text;
}

}  // namespace

Status validateRunArgs(const RunArgs& a) {
  if (int(!a.scene.empty()) + int(!a.mesh.empty()) + int(!a.preset.empty()) != 1)
    return Error{"give exactly one of --scene NAME|FILE.json, --mesh FILE.obj or --preset NAME"};
  if (!a.solver.empty() && !parseSolverName(a.solver)) return Error{"unknown solver '" + a.solver + "'; use pbd, xpbd, vbd or avbd"};
  if (a.backend != "cpu" && a.backend != "opencl")
    return Error{"unknown backend '" + a.backend + "'; use cpu or opencl"};
  if (a.frames < 1) return Error{"--frames must be at least 1"};
  if (Status s = validateOverrides(a.overrides); !s) return s;
  if (a.cellsThick < 1 || a.cellsThick > 64) return Error{"--cells-thick must be 1..64"};
  if (a.targetTets < 1) return Error{"--target-tets must be at least 1"};
  return Ok{};
}

namespace {

// One frame on either backend (core/sim/simulator.h), then the diagnostics
// the CSV needs. The CPU reference reports everything from the step; a device
// reads back what the step could not report (readDiagnostics) and the state
// only when a stats file is written (energies are then computed on the host
// from it). The residual is NaN where the backend does not measure it (PBD/XPBD
// on OpenCL); max violation is a CPU-reference measure, NaN elsewhere. The
// step time is the backend's own (CPU) or the wall time of step + finish.
Status stepFrame(Simulator& sim, const SimModel& model, const SolverSettings& settings, bool readState, State& state,
                 StepDiagnostics& diag) {
  const auto t0 = std::chrono::steady_clock::now();
  if (Status st = sim.step(settings, diag); !st) return st;
  if (Status st = sim.finish(); !st) return st;
  if (!sim.stateOnHost()) {
    const double wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (Status st = sim.readDiagnostics(diag); !st) return st;
    diag.stepMs = wallMs;
  }
  state.time = sim.time();
  if (!sim.measuresResidual()) diag.residual = std::numeric_limits<float>::quiet_NaN();
  if (!sim.measuresViolation()) diag.maxViolation = std::numeric_limits<float>::quiet_NaN();
  if (readState) {
    if (Status st = sim.readState(state); !st) return st;
    if (!sim.computesEnergy()) diag.energy = computeEnergy(model, settings, state);
    if (!sim.stateOnHost()) measureReadBackStepError(model, settings, state, diag);
  }
  return Ok{};
}

}  // namespace

int runRunCommand(const RunArgs& args) {
  if (Status s = validateRunArgs(args); !s) return fail(s.error().message);
  Result<RunScene> built = buildRunScene(args);
  if (!built) return fail(built.error().message);
  const Scene* scene = &built->scene;
  const std::string& note = built->note;
  SolverSettings settings = scene->settings;
  // XPBD's Neo-Hookean shear is explicit (xpbd_solver.h): unless the user
  // chose the substeps, take enough to stay inside its stability limit.
  const XpbdSubstepPlan plan = planXpbdSubsteps(scene->model, settings, !args.overrides.substeps);
  if (const std::string text = plan.notice(); !text.empty())
    std::cout << "tetlab run: " << text << (plan.raised() ? "; pass --substeps to override" : "") << "\n";
  settings.step.substeps = plan.used;

  std::ofstream csv;
  if (!args.stats.empty()) {
    csv.open(args.stats);
    if (!csv) return fail("cannot write the stats file '" + args.stats + "': check the folder exists and is writable");
    csv << kRunStatsHeader << "\n";
    csv.precision(9);
  }

  const SimModel& model = scene->model;
  State& state = built->state;
  std::unique_ptr<Simulator> sim;
  if (args.backend == "opencl") {
    auto env = readDeviceChoiceEnv();
    if (!env) return fail(env.error().message);
    OpenClSimulatorOptions options;
    options.context.choice = *env;
    auto made = OpenClSimulator::create(model, state, settings.solver, options);
    if (!made) return fail("OpenCL backend: " + made.error().message);
    std::cout << "tetlab run: OpenCL device " << describeDevice((*made)->context().info) << "\n";
    sim = std::move(*made);
  } else {
    sim = std::make_unique<CpuSimulator>(model, state, settings.solver);
  }
  std::cout << "tetlab run: " << scene->name << (note.empty() ? "" : " [" + note + "]") << ", "
            << model.vertexCount() << " vertices, " << model.tetCount() << " tets, solver "
            << solverName(settings.solver)
            << (settings.solver == SolverKind::Xpbd
                    ? std::string(" (") + xpbdElasticModelName(xpbdElasticModel(settings.step.constraints)) + ")"
                    : std::string())
            << ", " << args.frames << " frames of " << settings.step.dt << " s (" << settings.step.substeps << " substeps x "
            << settings.step.iterations << " iterations)\n";

  double totalMs = 0.0;
  std::string lastWarning;
  StepDiagnostics diag;
  // Fidelity flags (core/sim/convergence.h): under-converged VBD/AVBD steps,
  // and the energy rising above its start. A run has no mouse and no moving
  // colliders or pins, so it is unforced, damped or not (damping only removes
  // energy), unless the wind blows on a sheet or strands or a force field pushes.
  const EnergyReport e0 = computeEnergy(model, settings, state);
  const double energyScale = sceneEnergyScale(model, settings.step, e0);
  // Keyed pins move the bodies: work from outside, like the wind and the fields.
  const bool unforced = !windDoesWork(settings.wind, model) && !fieldsDoWork(settings.forceFields) &&
                        scene->animatedPins.empty();
  ConvergenceTally verdict;  // the one under-converged verdict (core/sim/convergence_verdict.h)
  int residualHigh = 0, convergenceFrames = 0;  // secondary: VBD/AVBD's residual against 0.1 h^2 g
  int shareFrames = 0, shareLow = 0;  // XPBD: frames measured, and under-converged (checkXpbdForceShare)
  double lowestShare = INFINITY;
  int dampingShort = 0;  // frames whose damping pass fell short (rayleighPassFellShort)
  float worstDampingResidual = 0.0f;
  double worstRise = -INFINITY;
  PbdSoftness softest;  // PBD: the largest excess of the shape's material energy (checkPbdSoftness)
  const auto keepSoftest = [&](const EnergyReport& energy, bool known) {
    const PbdSoftness soft = checkPbdSoftness(settings.solver, unforced && known, energy, e0.dynamicTotal(), energyScale);
    if (soft.applies && (!softest.applies || soft.excess > softest.excess)) softest = soft;
  };
  // Resident memory early in the run (after the first frames' allocations) and at its end.
  const int earlyFrame = std::min(kSoakEarlyFrame, std::max(1, args.frames / 2));
  std::optional<uint64_t> earlyResident;
  // Keyed pins (core/sim/pin_animation.h): moved to the frame's end pose, let go at their time.
  const double capacity = elasticCapacity(model);
  PinAnimator pins;
  const std::vector<AnimatedPins>& animated = scene->animatedPins;
  if (const std::string w = springResolutionWarning(state.springs); !w.empty())
    std::cerr << "tetlab run: warning: " << w << "\n";
  for (int frame = 1; frame <= args.frames; ++frame) {
    if (!animated.empty()) {
      const double end = sim->time() + double(settings.step.dt);
      const std::vector<PinChange> due = pins.dueChanges(animated, end);
      if (!due.empty()) {
        const double time = state.time;
        if (Status st = sim->readState(state); !st) return fail("releasing keyed pins: " + st.error().message);
        pins.apply(due, animated, model, state, end);
        state.time = time;
        if (Status st = sim->writeState(state); !st) return fail("releasing keyed pins: " + st.error().message);
      }
      if (Status st = pins.move(animated, end, state, *sim); !st) return fail("moving keyed pins: " + st.error().message);
    }
    // A device keeps the state: read it for --stats, every kDeviceVerdictEvery
    // frames for the convergence verdict (as the window does), and every
    // kSoakEnergyEvery frames of a soak so the energy checks below see the
    // run, not only its end.
    const bool readState = csv.is_open() || frame % kDeviceVerdictEvery == 0 ||
                           (args.soak && frame % kSoakEnergyEvery == 0);
    if (Status st = stepFrame(*sim, model, settings, readState, state, diag); !st)
      return fail("OpenCL backend, frame " + std::to_string(frame) + ": " + st.error().message);
    if (!diag.finite) {
      std::cerr << "tetlab run: the simulation blew up at frame " << frame << ": " << diag.problem << "\n";
      return 2;
    }
    // Anchor springs (core/sim/anchor_springs.h): the host state keeps the
    // simulator's (a keyed-pin write-back must not make a broken one whole).
    if (!state.springs.empty()) {
      if (diag.springsBroken) {
        for (size_t s = 0; s < state.springs.springs.size(); ++s) {
          const AnchorSpring& now = sim->springs().springs[s];
          if (now.broken && !state.springs.springs[s].broken)
            std::printf("tetlab run: frame %d (t = %.4f s): spring '%s' broke (past its %s)\n", frame, now.brokenTime,
                        now.name.c_str(), now.breakForce > 0.0f ? "breaking force" : "breaking strain");
        }
        state.springs = sim->springs();
      } else {
        state.springs.frames = sim->springs().frames;
      }
    }
    if (!diag.warning.empty() && diag.warning != lastWarning) {
      std::cerr << "tetlab run: warning (frame " << frame << "): " << diag.warning << "\n";
      lastWarning = diag.warning;
    }
    totalMs += diag.stepMs;
    if (frame == earlyFrame) earlyResident = residentBytes();
    const ConvergenceCheck conv =
        checkConvergence(settings.solver, settings.step, settings.step.substeps, diag.residual);
    convergenceFrames += conv.applies;
    residualHigh += conv.underConverged;
    verdict.add(diag.stepError, sim->stateOnHost() || readState);
    // A device's energy is known only on the frames its state was read (else once at the end).
    const bool energyKnown = sim->computesEnergy() || readState;
    const double checked = checkedEnergy(diag.energy, settings.solver);
    const EnergyRiseCheck rise = checkEnergyRise(unforced && energyKnown, checked, e0.dynamicTotal(), energyScale);
    keepSoftest(diag.energy, energyKnown);
    if (!unforced && energyKnown) {
      // Forced (keyed pins, wind, fields): the window's explosion bound, which
      // allows the bodies' elastic capacity (core/sim/convergence.h).
      const ExplosionCheck explosion =
          checkExplosion(checked, e0.dynamicTotal(), energyScale, true, capacity);
      if (explosion.exploded) {
        std::cerr << "tetlab run: frame " << frame << ": "
                  << explosionMessage(explosion, settings.solver, checked, e0.dynamicTotal(), energyScale) << "\n";
        return 2;
      }
    }
    const XpbdForceShare share = checkXpbdForceShare(diag.energy, energyScale);
    if (share.applies) {
      ++shareFrames;
      shareLow += share.underConverged;
      lowestShare = std::min(lowestShare, share.share);
    }
    if (rise.applies) worstRise = std::max(worstRise, rise.rise);
    if (rayleighPassFellShort(diag.dampingIterations, diag.dampingResidual, settings.step.rayleigh)) {
      ++dampingShort;
      worstDampingResidual = std::max(worstDampingResidual, diag.dampingResidual);
    }
    if (csv.is_open()) {
      StatsRow row;
      row.frame = uint64_t(frame);
      row.time = state.time;
      row.energy = diag.energy;
      row.residual = diag.residual;
      row.maxViolation = diag.maxViolation;
      measureShape(model, state, row);
      row.stepMs = diag.stepMs;
      row.underConverged = underConverged(diag.stepError);
      row.residualTolerance = conv.tolerance;
      row.energyRise = rise.applies ? rise.rise : 0.0;
      row.dampingIterations = diag.dampingIterations;
      row.dampingResidual = diag.dampingResidual;
      row.launches = diag.launches;
      row.forceShare = share.applies ? share.share : std::numeric_limits<double>::quiet_NaN();
      row.stepError = diag.stepError;
      writeStatsColumns(csv, row);
      csv << '\n';
    }
  }
  if (!state.springs.empty())
    std::printf("tetlab run: %u of %zu springs broke\n", state.springs.brokenCount(), state.springs.springs.size());
  if (!csv.is_open()) {  // the summary line's state: one read at the end
    if (Status st = sim->readState(state); !st) return fail("OpenCL backend: " + st.error().message);
    if (!sim->computesEnergy()) diag.energy = computeEnergy(model, settings, state);
  }
  if (csv.is_open()) {
    csv.flush();
    if (!csv) return fail("writing the stats file '" + args.stats + "' failed (disk full?)");
  }
  std::printf("tetlab run: done, t = %.4f s, total energy %.6g J, residual %s, max violation %s, %.3f ms/step\n",
              state.time, diag.energy.total(), measuredOrNot(diag.residual, "").c_str(),
              measuredOrNot(diag.maxViolation, " m").c_str(), totalMs / args.frames);
  std::printf("tetlab run: %s\n",
              convergenceSummary(verdict, ": raise --substeps first, then --iterations (docs/solvers.md, 'One error "
                                          "measure')")
                  .c_str());
  // The solvers' own measures, secondary to the verdict above.
  if (convergenceFrames > 0)
    std::printf("tetlab run: secondary: the VBD/AVBD residual was above %.2g x h^2 g in %d of %d frames "
                "(docs/solvers_vbd_avbd.md, 'Convergence')\n",
                double(kVbdResidualTolerance), residualHigh, convergenceFrames);
  if (shareFrames > 0 && shareLow > 0)
    std::printf("tetlab run: secondary: XPBD's multipliers carried as little as %.2g %% of the force the "
                "deformation implies (below %.0f %% in %d of %d frames: the body acts softer than its material; "
                "docs/solvers.md, 'Known limits')\n",
                100.0 * lowestShare, 100.0 * kXpbdForceShareTolerance, shareLow, shareFrames);
  if (dampingShort > 0)
    std::printf("tetlab run: the damping pass stopped at %d CG iterations above 10x its tolerance %.2g in %d of %d frames "
                "(residual up to %.3g): the low modes get less than k_d omega / 2; raise "
                "step.rayleigh_damping.max_iterations (docs/solvers.md, 'Material damping')\n",
                settings.step.rayleigh.maxIterations, double(settings.step.rayleigh.tolerance), dampingShort,
                args.frames, double(worstDampingResidual));
  // The last frame (read back on OpenCL).
  worstRise = std::max(worstRise, checkedEnergy(diag.energy, settings.solver) - e0.dynamicTotal());
  keepSoftest(diag.energy, true);
  const EnergyRiseCheck worst = checkEnergyRise(unforced && std::isfinite(worstRise), e0.dynamicTotal() + worstRise,
                                                e0.dynamicTotal(), energyScale);
  if (worst.blowUp) {
    // Finite but exploding (e.g. XPBD below its shear substep limit): as much a failure as a NaN.
    std::fflush(stdout);  // after the summary line
    std::fprintf(stderr,
                 "tetlab run: blow-up: energy rose %.4g J above the start, more than %.0fx the tolerance (%.3g J), in "
                 "an unforced run: the solver added energy. Try more substeps, a smaller dt or a softer material\n",
                 worst.rise, kEnergyBlowUpFactor, worst.tolerance);
    return 2;
  }
  if (worst.rising)
    std::printf("tetlab run: energy rose %.4g J above the start (tolerance %.3g J) in an unforced run: the "
                "solver added energy\n",
                worst.rise, worst.tolerance);
  else if (softest.soft)
    std::printf("tetlab run: the material's energy of PBD's shape rose up to %.4g J above the start (tolerance %.3g J) "
                "while its motion gained none: under-converged PBD is softer than its material; raise --substeps (its "
                "default stiffness mapping makes iterations count little), or use XPBD, VBD or AVBD (docs/solvers.md, "
                "'Known limits')\n",
                softest.excess, softest.tolerance);
  const std::optional<uint64_t> lateResident = residentBytes();
  if (earlyResident && lateResident) {
    const double growth = memoryGrowth(*earlyResident, *lateResident);
    std::printf("tetlab run: resident memory %.1f MB at frame %d, %.1f MB at the end (%+.2f %%)\n",
                double(*earlyResident) / 1048576.0, earlyFrame, double(*lateResident) / 1048576.0, 100.0 * growth);
    if (args.soak && growth > kSoakMemoryGrowth) {
      std::fflush(stdout);
      std::fprintf(stderr,
                   "tetlab run: soak failed: resident memory grew %.2f %% from frame %d to frame %d, more than %.0f %%: "
                   "something allocates every frame and never frees\n",
                   100.0 * growth, earlyFrame, args.frames, 100.0 * kSoakMemoryGrowth);
      return 3;
    }
  } else if (args.soak) {
    return fail("--soak needs /proc/self/statm to read the resident memory (Linux)");
  }
  return 0;
}

}  // namespace tetlab
