#include "app/conformance/conformance_search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <vector>

#include "core/scene/enum_names.h"

namespace tetlab {
namespace {

using Clock = std::chrono::steady_clock;

std::string percent(double relError) {
  char buf[64];
  if (!std::isfinite(relError)) return "inf";
  std::snprintf(buf, sizeof buf, relError < 0.1 ? "%.2g %%" : "%.3g %%", 100.0 * relError);
  return buf;
}

// Why the best rung of a cell that did not reach still misses.
std::string missReason(SolverKind solver, const CellResult& best, int xpbdCapNeeded) {
  char buf[256];
  if (!best.finite) return best.reason;
  if (xpbdCapNeeded > 0) {
    std::snprintf(buf, sizeof buf, "XPBD's shear limit needs %d substeps per frame", xpbdCapNeeded);
    return buf;
  }
  if (!best.reason.empty()) return best.reason;
  const std::string side = percent(std::fabs(best.value - best.reference) / std::max(std::fabs(best.reference), 1e-30)) +
                           (best.value > best.reference ? " above" : " below") + " the reference";
  if ((solver == SolverKind::Vbd || solver == SolverKind::Avbd) && best.convergenceRatio > 1.0f) {
    std::snprintf(buf, sizeof buf, "block Gauss-Seidel under-converged (residual/tol = %.3g), ends ",
                  best.convergenceRatio);
    return buf + side;
  }
  // PBD has no multipliers and models Neo-Hookean by strain and volume constraints whose per-iteration
  // stiffness comes from the material through the MatchXpbd mapping (docs/solvers.md, "PBD stiffness from
  // the material"): exact for one isolated constraint, not for a coupled body, at any budget.
  if (solver == SolverKind::Pbd) return "PBD's per-iteration stiffness is not the material's: ends " + side;
  return "ends " + side;
}

}  // namespace

const std::vector<ConformanceBudget>& conformanceLadder() {
  static const std::vector<ConformanceBudget> ladder = {
      {5, 1},   {10, 1},  {10, 4},  {20, 4},   {100, 1},  {10, 20},  {50, 4},
      {100, 4}, {200, 4}, {500, 1}, {50, 20}, {1000, 1}, {500, 4}, {2000, 1}};
  return ladder;
}

std::string budgetLabel(ConformanceBudget budget, int substepsRun) {
  std::string s = std::to_string(budget.substeps) + "x" + std::to_string(budget.iterations);
  if (substepsRun > 0 && substepsRun != budget.substeps)
    s += " (ran " + std::to_string(substepsRun) + "x" + std::to_string(budget.iterations) + ")";
  return s;
}

CellSearch searchCell(const ConformanceCase& c, const CaseSetup& setup, float youngsModulus, SolverKind solver,
                      const SearchOptions& options) {
  const Clock::time_point t0 = Clock::now();
  CellSearch out;
  out.caseId = c.id;
  out.youngsModulus = youngsModulus;
  out.solver = solver;
  std::set<std::pair<int, int>> done;  // (substeps run, iterations): XPBD's raise merges rungs
  double secondsPerUnit = 0.0;         // wall seconds per substep x (iterations + 1) per simulated frame
  bool haveBest = false;
  double largestUnits = 0.0;
  int xpbdShort = 0;  // XPBD's shear limit asked for more than its cap at the best rung
  // The ladder in the order of what each rung will really run: XPBD's automatic
  // raise turns a cheap rung (10x20) into a costly one (293x20), and the cell
  // must name the cheapest budget that reaches, not the first in ladder order.
  struct Planned {
    ConformanceBudget rung;
    int run;
  };
  std::vector<Planned> order;
  for (const ConformanceBudget& rung : conformanceLadder()) order.push_back({rung, plannedSubsteps(setup, solver, rung)});
  std::stable_sort(order.begin(), order.end(), [](const Planned& a, const Planned& b) {
    return double(a.run) * (a.rung.iterations + 1) < double(b.run) * (b.rung.iterations + 1);
  });
  for (const auto& [rung, run] : order) {
    if (!done.insert({run, rung.iterations}).second) continue;
    const double frames = setup.seconds * 60.0;
    const double units = double(run) * (rung.iterations + 1) * frames;
    // Over the cap: skip it (the rest cost more still, but a projection from
    // a short run is rough, so keep asking).
    if (secondsPerUnit > 0.0 && secondsPerUnit * units > options.rungCapSeconds) continue;
    CellResult r =
        runConformanceCell(c, setup, solver, rung, options.backend, options.ctx, 3.0 * options.rungCapSeconds);
    ++out.rungsRun;
    if (units > largestUnits) {
      largestUnits = units;
      out.largestTried = rung;
    }
    if (r.msPerFrame > 0.0) secondsPerUnit = (r.msPerFrame * 1e-3 * frames) / units;
    if (r.ok) {
      out.reached = true;
      out.budget = rung;
      out.result = r;
      break;
    }
    if (r.finite && !r.stopped && r.relError > c.tolerance) {
      out.haveBelow = true;
      out.below = rung;
      out.belowResult = r;
    }
    const bool better = !haveBest || (r.finite && !out.result.finite) ||
                        (r.finite == out.result.finite && r.relError < out.result.relError);
    if (better) {
      haveBest = true;
      out.budget = rung;
      out.result = r;
      xpbdShort = r.xpbdNeeded > r.substepsRun ? r.xpbdNeeded : 0;
    }
    if (r.stopped) break;
  }
  if (!out.reached)
    out.reason = "does not reach within " + budgetLabel(out.largestTried) + ": " +
                 missReason(solver, out.result, xpbdShort) + " (best " +
                 budgetLabel(out.budget, out.result.substepsRun) + ": " +
                 (out.result.finite ? percent(out.result.relError) : std::string("not finite")) + ")";
  out.wallSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return out;
}

}  // namespace tetlab
