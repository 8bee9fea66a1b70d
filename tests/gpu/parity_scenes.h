#pragma once
// Pieces both parity utilities use (vbd_parity_util.h for VBD/AVBD,
// pb_parity_util.h for PBD/XPBD): the collider set the contact scenes are
// thrown at, and the OpenCL launch schedules the schedule tests force.
#include <cmath>
#include <memory>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include <gtest/gtest.h>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/sdf_grid.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state_setup.h"

namespace tetlab::test {

// A model and its state, as both parity utilities run them.
struct ParityScene {
  SimModel model;
  State state;
};

inline ParityScene makeParityScene(const BodyDesc& body) {
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(model.ok()) << model.error().message;
  ParityScene s{std::move(*model), {}};
  s.state = makeState(s.model);
  return s;
}

// A 0.6 m x 0.15 m x 0.15 m beam along +x above the ground, clamped at x = 0
// (every vertex there pinned).
inline ParityScene clampedBeam(float youngs = 2.0e5f, float poisson = 0.3f, float damping = 0.0f) {
  Material m;
  m.youngsModulus = youngs;
  m.poissonRatio = poisson;
  m.density = 1000.0f;
  m.damping = damping;
  ParityScene s = makeParityScene(
      {makeBoxTetMesh(glm::vec3(0.0f, 0.3f, 0.0f), glm::vec3(0.6f, 0.15f, 0.15f), glm::uvec3(6, 2, 2)), m, "beam"});
  pinVertices(s.model, s.state, [](glm::vec3 p) { return p.x < 1e-4f; });
  return s;
}

// A mesh collider whose grid samples a sphere exactly (phi = |q| - 1/2 in the
// unit frame, `nodes` per axis): the grid lookup of both backends without an
// OBJ file, placed at `center` with radius `radius`.
inline MeshCollider sphereGridCollider(glm::vec3 center, float radius, uint32_t nodes = 16) {
  auto grid = std::make_shared<SdfGrid>();
  grid->dims = glm::uvec3(nodes);
  grid->cell = 1.6f / float(nodes - 1);
  grid->origin = glm::vec3(-0.8f);
  for (uint32_t k = 0; k < nodes; ++k)
    for (uint32_t j = 0; j < nodes; ++j)
      for (uint32_t i = 0; i < nodes; ++i)
        grid->phi.push_back(glm::length(grid->origin + grid->cell * glm::vec3(i, j, k)) - 0.5f);
  MeshCollider m;
  m.mesh = "analytic sphere";
  m.center = center;
  m.size = 2.0f * radius;
  m.friction = 0.4f;
  m.grid = std::move(grid);
  return m;
}

// A sphere next to a box turned 0.4 rad about y, a capsule, a tilted torus
// lying on the ground and a sampled sphere (friction 0.6): a block dropped
// near the origin hits the sphere and tumbles off; every collider kind is
// sampled every iteration.
inline void addEveryColliderKind(SolverSettings& s) {
  s.colliders.ground.friction = 0.6f;
  s.colliders.spheres.push_back({glm::vec3(0.05f, 0.1f, 0.0f), 0.08f, 0.3f});
  BoxCollider box;
  box.center = glm::vec3(-0.15f, 0.05f, 0.05f);
  box.halfExtents = glm::vec3(0.06f, 0.05f, 0.08f);
  const float a = 0.4f;
  box.rotation = glm::mat3(glm::vec3(std::cos(a), 0.0f, -std::sin(a)), glm::vec3(0.0f, 1.0f, 0.0f),
                           glm::vec3(std::sin(a), 0.0f, std::cos(a)));
  s.colliders.boxes.push_back(box);
  s.colliders.capsules.push_back({glm::vec3(-0.2f, 0.04f, -0.2f), glm::vec3(0.2f, 0.04f, -0.1f), 0.04f, 0.5f});
  TorusCollider torus;
  torus.center = glm::vec3(0.12f, 0.03f, 0.12f);
  torus.majorRadius = 0.09f;
  torus.minorRadius = 0.03f;
  const float t = 0.3f;  // about z
  torus.rotation = glm::mat3(glm::vec3(std::cos(t), std::sin(t), 0.0f), glm::vec3(-std::sin(t), std::cos(t), 0.0f),
                             glm::vec3(0.0f, 0.0f, 1.0f));
  torus.friction = 0.4f;
  s.colliders.tori.push_back(torus);
  s.colliders.meshes.push_back(sphereGridCollider(glm::vec3(-0.05f, 0.03f, 0.14f), 0.05f));
}

// The OpenCL launch schedules the schedule parity tests run one at a time.
inline constexpr GpuSchedule kForcedSchedules[] = {GpuSchedule::PerColor, GpuSchedule::OneGroup};
inline const char* scheduleName(GpuSchedule s) { return s == GpuSchedule::PerColor ? "per colour" : "one group"; }

}  // namespace tetlab::test
