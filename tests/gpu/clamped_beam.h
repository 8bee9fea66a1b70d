#pragma once
// The small clamped beam the OpenCL simulator tests step: 0.6 x 0.15 x 0.15 m
// along +x, 6 x 2 x 2 cells, the x = 0 face pinned, rho = 1000 kg/m^3, and a
// small budget (5 substeps x 3 iterations) so a test steps it many times.
#include <span>
#include <utility>

#include <gtest/gtest.h>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state_setup.h"

namespace tetlab::test {

struct BeamScene {
  SimModel model;
  State state;
};

inline BeamScene clampedBeam(const Material& material) {
  BodyDesc body{makeBoxTetMesh(glm::vec3(0.0f, 0.3f, 0.0f), glm::vec3(0.6f, 0.15f, 0.15f), glm::uvec3(6, 2, 2)),
                material, "beam"};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << model.error().message;
  BeamScene s{model.ok() ? std::move(*model) : SimModel{}, {}};
  s.state = makeState(s.model);
  pinVertices(s.model, s.state, [](glm::vec3 p) { return p.x < 1e-4f; });
  return s;
}

inline SolverSettings smallBudget(SolverKind kind) {
  SolverSettings s;
  s.solver = kind;
  s.step.substeps = 5;
  s.step.iterations = 3;
  return s;
}

}  // namespace tetlab::test
