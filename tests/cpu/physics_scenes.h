#pragma once
// Small scenes and measurements for the solver physics tests (PBD, XPBD and,
// through makeCpuSolver, VBD/AVBD).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"

namespace tetlab::phystest {

inline const char* solverName(SolverKind kind) {
  switch (kind) {
    case SolverKind::Pbd: return "PBD";
    case SolverKind::Xpbd: return "XPBD";
    case SolverKind::Vbd: return "VBD";
    case SolverKind::Avbd: return "AVBD";
  }
  return "?";
}

inline std::string paramName(const testing::TestParamInfo<SolverKind>& info) { return phystest::solverName(info.param); }

// A clamped cantilever's settled tip droops [m]: at stiffness B, at 4 B, and
// with bending off. The discrete clamp lies within the pinned cell, so the
// droop lies between the beam predictions for its two ends (shortBeam,
// longBeam); the model is linear in B (droop / 4B-droop = 4 to 5 %); without
// bending the body hangs below half its reach. PBD's stiffness is a
// per-projection fraction, not the material's: only the order for it.
inline void expectCantileverDroops(SolverKind kind, float droop, float stiffer, float none, double shortBeam,
                                   double longBeam, float reach) {
  std::printf("  %s: tip droop %.5f m (beam %.5f .. %.5f), 4x stiffer %.5f m (ratio %.3f), bending off %.3f m\n",
              phystest::solverName(kind), droop, shortBeam, longBeam, stiffer, droop / stiffer, none);
  EXPECT_GT(none, 0.5f * reach) << "without bending it hangs down";
  EXPECT_LT(stiffer, droop);
  EXPECT_LT(droop, none);
  if (kind == SolverKind::Pbd) return;
  EXPECT_GE(droop, shortBeam);
  EXPECT_LE(droop, longBeam);
  EXPECT_NEAR(droop / stiffer, 4.0, 0.2);
}

inline SimModel buildBox(glm::vec3 minCorner, glm::vec3 size, glm::uvec3 cells, const Material& material) {
  BodyDesc body{makeBoxTetMesh(minCorner, size, cells), material, "box"};
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
  return std::move(built).value();
}

// A one-sheet model of a triangle surface (clothBody) with its material and name.
inline SimModel buildCloth(const SurfaceMesh& surface, const Material& material, const char* name) {
  BodyDesc body = clothBody(surface);
  body.material = material;
  body.name = name;
  auto built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
  return std::move(built).value();
}

// One model of several bodies, body i named "body<i>", all of one material.
inline SimModel buildBodies(std::vector<TetMesh> meshes, const Material& material = Material{}) {
  std::vector<BodyDesc> bodies;
  for (size_t i = 0; i < meshes.size(); ++i)
    bodies.push_back(BodyDesc{std::move(meshes[i]), material, "body" + std::to_string(i)});
  auto built = buildSimModel(std::span<const BodyDesc>(bodies.data(), bodies.size()));
  EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
  return std::move(built).value();
}

// Body-contact detection scene: lower box [0,1]x[0,0.5]x[0,1], upper box the
// same footprint starting at y = 0.5 + gap.
inline SimModel stackedBoxes(float gap) {
  return buildBodies({makeBoxTetMesh({0, 0, 0}, {1, 0.5f, 1}, {2, 1, 2}),
                      makeBoxTetMesh({0, 0.5f + gap, 0}, {1, 0.5f, 1}, {2, 1, 2})});
}

// The two soft bodies of the body-contact tests (tests/cpu/body_contact_physics_test.cpp and
// its GPU parity twins): 10 cm blocks of 1 kg, E low enough for XPBD's default substeps.
inline const Material kBodyContactMaterial{1e5f, 0.3f, 1000, 0};

inline SimModel buildTwoBoxes(glm::vec3 minA, glm::vec3 sizeA, glm::uvec3 cellsA, glm::vec3 minB, glm::vec3 sizeB,
                              glm::uvec3 cellsB, const Material& material = kBodyContactMaterial) {
  return buildBodies({makeBoxTetMesh(minA, sizeA, cellsA), makeBoxTetMesh(minB, sizeB, cellsB)}, material);
}

inline double totalMass(const SimModel& m) {
  double M = 0.0;
  for (float mi : m.mass) M += mi;
  return M;
}

inline glm::dvec3 centerOfMass(const SimModel& m, const State& s) {
  glm::dvec3 c(0.0);
  for (uint32_t i = 0; i < m.vertexCount(); ++i) c += double(m.mass[i]) * glm::dvec3(glm::vec3(s.x[i]));
  return c / totalMass(m);
}

inline glm::dvec3 linearMomentum(const SimModel& m, const State& s) {
  glm::dvec3 p(0.0);
  for (uint32_t i = 0; i < m.vertexCount(); ++i) p += double(m.mass[i]) * glm::dvec3(glm::vec3(s.v[i]));
  return p;
}

inline float minY(const State& s) {
  float y = INFINITY;
  for (const auto& x : s.x) y = std::min(y, x.y);
  return y;
}

inline double maxSpeed(const State& s) {
  double v = 0.0;
  for (const auto& vi : s.v) v = std::max(v, double(glm::length(glm::vec3(vi))));
  return v;
}

inline double currentVolume(const SimModel& m, const State& s) {
  double V = 0.0;
  for (const auto& t : m.tets) {
    const glm::dvec3 p0 = glm::vec3(s.x[t.x]);
    V += glm::dot(glm::dvec3(glm::vec3(s.x[t.y])) - p0,
                  glm::cross(glm::dvec3(glm::vec3(s.x[t.z])) - p0, glm::dvec3(glm::vec3(s.x[t.w])) - p0)) /
         6.0;
  }
  return V;
}

// Steps `frames` frames; fails the test (and returns false) on NaN/inf.
inline bool run(const SimModel& model, const SolverSettings& settings, Solver& solver, State& state, int frames,
                StepDiagnostics& diag) {
  for (int f = 0; f < frames; ++f) {
    stepSimulation(model, settings, solver, state, diag);
    if (!diag.finite) {
      ADD_FAILURE() << phystest::solverName(settings.solver) << " frame " << f << ": " << diag.problem;
      return false;
    }
  }
  return true;
}

}  // namespace tetlab::phystest
