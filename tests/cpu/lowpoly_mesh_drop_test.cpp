// A coarse low-poly user mesh dropped with the defaults (VBD 10 x 4, the
// default tet target) stays finite and keeps its shape (issue 41, item 8): a
// 180-quad torus (20 x 9 quads, tube radius 0.3 of the ring's) laid flat and
// dropped 5 cm onto the ground; after 1 s its bounding box extents are within
// 10 % of its rest extents. The same torus at a 5000 target was the case
// TetGen overshot 3x (tests/core/mesh_target_tets_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/sim/convergence_verdict.h"
#include "core/sim/solver.h"
#include "core/sim/stepper.h"
#include "tests/preset_files.h"
#include "tests/lowpoly_torus.h"

namespace tetlab {
namespace {

using test::lowPolyTorusObj;

glm::vec3 extents(const std::vector<glm::vec4>& x) {
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec4& p : x) {
    lo = glm::min(lo, glm::vec3(p));
    hi = glm::max(hi, glm::vec3(p));
  }
  return hi - lo;
}

TEST(LowPolyMeshDrop, CoarseTorusStaysFiniteAndKeepsItsShapeOnDefaultVbd) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tetlab_lowpoly_drop_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path obj = dir / "torus180.obj";
  std::ofstream(obj) << lowPolyTorusObj(20, 9, 0.3);
  SceneDesc desc;
  BodySpec body;
  body.source = BodySource::Mesh;
  body.meshPath = obj.string();
  body.transform.rotateDegrees = {90.0f, 0.0f, 0.0f};  // lying flat
  body.transform.lift = true;
  body.transform.liftTo = 0.05f;
  desc.bodies.push_back(body);
  desc.settings.solver = SolverKind::Vbd;
  Result<BuiltScene> built = test::buildPresetDesc(desc);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(built.ok());
  const SimModel& model = built->scene.model;
  const SolverSettings& s = built->scene.settings;
  State state = makeInitialState(*built);
  const glm::vec3 rest = extents(state.x);
  auto solver = makeCpuSolver(s.solver);
  solver->reset(model, state);
  ConvergenceTally tally;
  for (int f = 0; f < 60; ++f) {
    StepDiagnostics diag;
    stepSimulation(model, s, *solver, state, diag);
    ASSERT_TRUE(diag.finite) << "frame " << f << ": " << diag.problem;
    tally.add(diag.stepError);
  }
  const glm::vec3 now = extents(state.x);
  std::printf("[ measured ] 180-quad torus, %u tets, VBD %d x %d: extents %.4f %.4f %.4f m at rest, %.4f %.4f %.4f m "
              "after 1 s\n",
              model.tetCount(), s.step.substeps, s.step.iterations, rest.x, rest.y, rest.z, now.x, now.y, now.z);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(now[k] / rest[k], 1.0, 0.10) << "axis " << k;
  // Not yet converged at the defaults (issue 41 item 8 stays open): 37 of 60
  // frames flagged here. The flag is right: the same OBJ at its own size
  // (2.6 m across) in `tetlab compare --mesh` is flagged on 43 of 60 frames
  // at VBD 10 x 4 and its track runs 4.3 cm RMS from 10 x 200's. Printed,
  // not asserted, until the default budget is fixed.
  std::printf("[ measured ] %s\n", convergenceSummary(tally, "").c_str());
}

}  // namespace
}  // namespace tetlab
