#pragma once
// Height of a body's centre of mass, the quantity the free-fall, sag and drop
// tests compare with closed forms (CPU and OpenCL suites alike).
#include "core/model/sim_model.h"
#include "core/sim/state.h"

namespace tetlab::test {

// Mass-weighted mean y of every vertex [m], summed in double.
inline double comY(const SimModel& m, const State& s) {
  double M = 0.0, y = 0.0;
  for (uint32_t v = 0; v < m.vertexCount(); ++v) {
    M += m.mass[v];
    y += m.mass[v] * double(s.x[v].y);
  }
  return y / M;
}

}  // namespace tetlab::test
