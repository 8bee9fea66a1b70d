#include "app/conformance/conformance_runner.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/cpu/xpbd_solver.h"
#include "core/sim/convergence.h"
#include "core/sim/convergence_verdict.h"
#include "core/sim/energy.h"
#include "core/sim/solver.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/opencl_simulator.h"

namespace tetlab {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kFrame = 1.0 / 60.0;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// How one 1/60 s frame of `substeps` is cut into sub-frames for the probe:
// the fewest sub-frames (a divisor of substeps) short enough for the case's
// sample interval, else one substep each.
int subframesPerFrame(int substeps, double sampleInterval) {
  if (sampleInterval <= 0.0 || kFrame <= sampleInterval) return 1;
  for (int k = 1; k <= substeps; ++k)
    if (substeps % k == 0 && kFrame / k <= sampleInterval) return k;
  return substeps;
}

struct Plan {
  SolverSettings settings;  // dt and substeps of one sub-frame
  int subframes = 1;        // per 1/60 s frame
  int steps = 0;            // sub-frames to run
};

Plan planRun(const CaseSetup& setup, SolverKind solver, ConformanceBudget budget, CellResult& out) {
  Plan p;
  p.subframes = subframesPerFrame(budget.substeps, setup.sampleInterval);
  p.settings = setup.scene.settings;
  p.settings.solver = solver;
  p.settings.step.dt = float(kFrame / p.subframes);
  p.settings.step.substeps = budget.substeps / p.subframes;
  p.settings.step.iterations = budget.iterations;
  const XpbdSubstepPlan xpbd = planXpbdSubsteps(setup.scene.model, p.settings, true);
  p.settings.step.substeps = xpbd.used;
  out.xpbdNeeded = xpbd.needed * p.subframes;
  out.substepsRun = xpbd.used * p.subframes;
  out.iterations = budget.iterations;
  p.steps = int(std::lround(setup.seconds / p.settings.step.dt));
  return p;
}

std::string format(const char* fmt, double a, double b = 0.0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b);
  return buf;
}

void runCpu(const CaseSetup& setup, const Plan& plan, double maxWall, CellResult& out, State& state,
            std::vector<double>& probes) {
  const SimModel& model = setup.scene.model;
  auto solver = makeCpuSolver(plan.settings.solver);
  solver->reset(model, state);
  const EnergyReport start = computeEnergy(model, plan.settings, state);
  const double scale = sceneEnergyScale(model, plan.settings.step, start);
  out.energyMeasured = setup.undamped;
  StepDiagnostics diag;
  ConvergenceTally verdicts;
  double wall = 0.0;
  for (int f = 0; f < plan.steps; ++f) {
    const Clock::time_point t0 = Clock::now();
    stepSimulation(model, plan.settings, *solver, state, diag);
    wall += secondsSince(t0);
    if (!setup.settles || 4 * (f + 1) > 3 * plan.steps) verdicts.add(diag.stepError);
    out.verdictFrames = verdicts.measured;
    out.flaggedFrames = verdicts.underConverged;
    if (!diag.finite) {
      out.finite = false;
      out.reason = format("blows up at t = %.3g s", (f + 1) * plan.settings.step.dt) + ": " + diag.problem;
      return;
    }
    if (setup.probe) probes.push_back(setup.probe(model, state));
    if (setup.undamped)
      out.energyRise = std::max(out.energyRise, (diag.energy.dynamicTotal() - start.dynamicTotal()) / scale);
    if (maxWall > 0.0 && wall > maxWall) {
      out.stopped = true;
      out.reason = format("stopped after %.0f s of wall time", wall);
      return;
    }
  }
  out.msPerFrame = 1e3 * wall / (plan.steps / double(plan.subframes));
  const ConvergenceCheck check =
      checkConvergence(plan.settings.solver, plan.settings.step, plan.settings.step.substeps, diag.residual);
  if (check.applies) out.convergenceRatio = check.ratio();
}

void runOpenCl(const CaseSetup& setup, const Plan& plan, const ClContext& ctx, double maxWall, CellResult& out,
               State& state, std::vector<double>& probes) {
  const SimModel& model = setup.scene.model;
  auto sim = OpenClSimulator::create(model, state, plan.settings.solver, ctx);
  if (!sim) {
    out.finite = false;
    out.reason = "OpenCL: " + sim.error().message;
    return;
  }
  double wall = 0.0;
  for (int f = 0; f < plan.steps; ++f) {
    const Clock::time_point t0 = Clock::now();
    Status st = (*sim)->step(plan.settings);
    if (st) st = (*sim)->finish();
    wall += secondsSince(t0);
    (*sim)->discardTimings();
    if (!st) {
      out.finite = false;
      out.reason = "OpenCL: " + st.error().message;
      return;
    }
    if (setup.probe) {
      if (Status d = (*sim)->downloadPositions(state.x); !d) {
        out.finite = false;
        out.reason = "OpenCL: " + d.error().message;
        return;
      }
      probes.push_back(setup.probe(model, state));
    }
    if (maxWall > 0.0 && wall > maxWall) {
      out.stopped = true;
      out.reason = format("stopped after %.0f s of wall time", wall);
      return;
    }
  }
  out.msPerFrame = 1e3 * wall / (plan.steps / double(plan.subframes));
  auto bad = (*sim)->readBadVertex();
  if (!bad || *bad >= 0) {
    out.finite = false;
    out.reason = bad ? "blows up: vertex " + std::to_string(*bad) + " became non-finite" : bad.error().message;
    return;
  }
  if (Status d = (*sim)->downloadState(state); !d) {
    out.finite = false;
    out.reason = "OpenCL: " + d.error().message;
    return;
  }
  if ((*sim)->measuresResidual()) {
    auto history = (*sim)->readResidualHistory();
    if (history && !history->empty()) {
      const ConvergenceCheck check =
          checkConvergence(plan.settings.solver, plan.settings.step, plan.settings.step.substeps, history->back());
      if (check.applies) out.convergenceRatio = check.ratio();
    }
  }
}

}  // namespace

int plannedSubsteps(const CaseSetup& setup, SolverKind solver, ConformanceBudget budget) {
  CellResult scratch;
  return planRun(setup, solver, budget, scratch).settings.step.substeps == 0 ? 0 : scratch.substepsRun;
}

const char* backendLabel(ConformanceBackend backend) { return backend == ConformanceBackend::Cpu ? "cpu" : "opencl"; }

CellResult runConformanceCell(const ConformanceCase& c, const CaseSetup& setup, SolverKind solver,
                              ConformanceBudget budget, ConformanceBackend backend, const ClContext* ctx,
                              double maxWallSeconds) {
  CellResult out;
  out.reference = setup.reference;
  const Plan plan = planRun(setup, solver, budget, out);
  State state = setup.state;
  std::vector<double> probes;
  if (backend == ConformanceBackend::Cpu) {
    runCpu(setup, plan, maxWallSeconds, out, state, probes);
  } else if (ctx == nullptr) {
    out.finite = false;
    out.reason = "no OpenCL context";
  } else {
    runOpenCl(setup, plan, *ctx, maxWallSeconds, out, state, probes);
  }
  if (!out.finite || out.stopped) return out;
  for (const glm::vec4& v : state.v)
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
      out.finite = false;
      out.reason = "non-finite velocity at the end";
      return out;
    }
  const CaseMeasure m = setup.measure(setup.scene.model, state, probes, plan.settings.step.dt);
  out.value = m.value;
  out.relError = std::fabs(m.value - setup.reference) / setup.errorScale;
  std::string problem = m.problem;
  // Undamped and unforced but by gravity: the energy may not rise (core/sim/convergence.h),
  // a condition of the cell like the case's own side conditions.
  if (problem.empty() && out.energyMeasured && out.energyRise > kEnergyRiseTolerance)
    problem = format("energy rises by %.3g %% of the scene's scale (bound %.3g %%)", 100.0 * out.energyRise,
                     100.0 * kEnergyRiseTolerance);
  out.ok = problem.empty() && std::isfinite(out.relError) && out.relError <= c.tolerance;
  if (!problem.empty()) out.reason = problem;
  return out;
}

CellResult runConformanceCell(const ConformanceCase& c, float youngsModulus, SolverKind solver,
                              ConformanceBudget budget, ConformanceBackend backend, const ClContext* ctx) {
  return runConformanceCell(c, c.build(youngsModulus), solver, budget, backend, ctx);
}

}  // namespace tetlab
