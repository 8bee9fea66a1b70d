#include "app/commands/stats_row.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/model/sim_model.h"
#include "core/sim/state.h"

namespace tetlab {

void measureShape(const SimModel& model, const State& state, StatsRow& row) {
  glm::dvec3 com(0.0);
  double mass = 0.0;
  float minY = INFINITY;
  for (uint32_t i = 0; i < model.vertexCount() && i < state.x.size(); ++i) {
    com += double(model.mass[i]) * glm::dvec3(glm::vec3(state.x[i]));
    mass += model.mass[i];
    minY = std::min(minY, state.x[i].y);
  }
  row.com = mass > 0.0 ? com / mass : com;
  row.minY = minY;
}

void writeStatsColumns(std::ostream& out, const StatsRow& r) {
  out << r.frame << ',' << r.time << ',' << r.energy.kinetic << ',' << r.energy.potential << ',' << r.energy.elastic
      << ',' << r.energy.total() << ',' << r.residual << ',' << r.maxViolation << ',' << r.minY << ',' << r.com.x
      << ',' << r.com.y << ',' << r.com.z << ',' << r.stepMs << ',' << (r.underConverged ? 1 : 0) << ','
      << r.residualTolerance << ',' << r.energyRise << ',' << r.dampingIterations << ',' << r.dampingResidual << ','
      << r.launches << ',' << r.energy.dynamicTotal() << ',' << r.forceShare;
  const StepError& e = r.stepError;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  out << ',' << (e.measured ? e.error : nan) << ',' << (e.measured ? e.floor : nan) << ','
      << (e.measured ? e.scale : nan);
}

}  // namespace tetlab
