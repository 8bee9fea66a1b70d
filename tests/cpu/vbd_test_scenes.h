#pragma once
// Tiny scenes and measurements shared by the VBD and AVBD physics tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/cpu/avbd_solver.h"
#include "core/cpu/vbd_solver.h"
#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"

namespace tetlab::vbdtest {

inline SimModel boxModel(glm::vec3 minCorner, glm::vec3 size, glm::uvec3 cells, Material material) {
  BodyDesc body{makeBoxTetMesh(minCorner, size, cells), material, "box"};
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
  return std::move(built).value();
}

inline std::unique_ptr<Solver> makeSolver(SolverKind kind) {
  return kind == SolverKind::Avbd ? makeAvbdSolver() : makeVbdSolver();
}

inline const char* nameOf(SolverKind kind) { return kind == SolverKind::Avbd ? "AVBD" : "VBD"; }

inline glm::dvec3 momentum(const SimModel& model, const State& state) {
  glm::dvec3 p(0.0);
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (state.x[i].w > 0.0f) p += glm::dvec3(glm::vec3(state.v[i])) / double(state.x[i].w);
  return p;
}

inline float minY(const State& state) {
  float y = 1e30f;
  for (const auto& x : state.x) y = std::min(y, x.y);
  return y;
}

inline double maxSpeed(const State& state) {
  double s = 0.0;
  for (const auto& v : state.v) s = std::max(s, double(glm::length(glm::vec3(v))));
  return s;
}

// Largest |l - L| / L over the model's edges.
inline double maxEdgeStrain(const SimModel& model, const State& state) {
  double worst = 0.0;
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const glm::uvec2 ed = model.edges[e];
    const double l = glm::length(glm::vec3(state.x[ed.x]) - glm::vec3(state.x[ed.y]));
    worst = std::max(worst, std::fabs(l - model.restLength[e]) / model.restLength[e]);
  }
  return worst;
}

}  // namespace tetlab::vbdtest
