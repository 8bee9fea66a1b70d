#include "app/commands/compare_csv.h"

#include <limits>

#include "app/commands/stats_row.h"
#include "core/scene/enum_names.h"
#include "core/session/compare_session.h"
#include "core/sim/convergence.h"

namespace tetlab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The run columns of one lane, from what its session measured this frame.
StatsRow rowOf(const SimSession& s) {
  StatsRow row;
  const StepDiagnostics& d = s.diagnostics();
  row.frame = s.frame();
  row.time = s.time();
  row.energy = d.energy;
  row.residual = d.residualHistory.empty() ? float(kNaN) : d.residual;
  row.maxViolation = s.violationFresh() ? d.maxViolation : float(kNaN);
  measureShape(s.model(), s.state(), row);
  row.stepMs = s.lastStepWallMs();
  row.underConverged = s.underConverged();
  row.residualTolerance = s.convergence().tolerance;
  const EnergyRiseCheck rise =
      checkEnergyRise(!s.externallyForced(), checkedEnergy(d.energy, s.settings().solver), s.energyStart(),
                      s.energyScale());
  row.energyRise = rise.applies ? rise.rise : 0.0;
  row.dampingIterations = d.dampingIterations;
  row.dampingResidual = d.dampingResidual;
  row.launches = d.launches;
  row.forceShare = s.xpbdForceShare().applies ? s.xpbdForceShare().share : kNaN;
  row.stepError = d.stepError;
  return row;
}

}  // namespace

Result<CompareCsv> CompareCsv::open(const std::string& path) {
  CompareCsv csv;
  csv.path_ = path;
  csv.out_.open(path);
  if (!csv.out_) return Error{"cannot write the CSV file '" + path + "': check the folder exists and is writable"};
  csv.out_.precision(9);
  csv.out_ << kCompareLaneColumns << ',' << kRunStatsHeader << ',' << kCompareErrorColumns << '\n';
  return csv;
}

void CompareCsv::writeFrame(const CompareSession& compare) {
  for (size_t i = 0; i < compare.laneCount(); ++i) {
    const SimSession& s = compare.lane(i);
    const LaneSpec spec = compare.laneSpec(i);
    out_ << (i + 1) << ",\"" << compare.laneLabel(i) << "\"," << solverName(spec.solver) << ',' << spec.substeps << ','
         << spec.iterations << ',' << backendName(s.backend()) << ',';
    writeStatsColumns(out_, rowOf(s));
    const LaneError& e = compare.error(i);
    out_ << ',' << e.rms << ',' << e.max << ',' << e.energy << '\n';
  }
}

Status CompareCsv::close() {
  out_.flush();
  if (!out_) return Error{"writing the CSV file '" + path_ + "' failed (disk full?)"};
  out_.close();
  return Ok{};
}

}  // namespace tetlab
