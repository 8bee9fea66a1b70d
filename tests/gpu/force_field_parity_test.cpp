// Force fields on OpenCL (step_fields) against the CPU stepper: a soft box
// in a vortex and a radial attractor with regions and falloff, all four
// solvers, within the parity bound of the other step stages.
#include <gtest/gtest.h>

#include "tests/gpu/parity_every_solver.h"

namespace tetlab {
namespace {

SolverSettings fieldSettings(SolverKind kind) {
  SolverSettings s = kind == SolverKind::Pbd || kind == SolverKind::Xpbd ? test::baseSettings(kind)
                                                                         : test::vbdBaseSettings(kind);
  s.step.gravity = glm::vec3(0.0f);
  s.colliders.ground.enabled = false;
  ForceField vortex;
  vortex.kind = ForceFieldKind::Vortex;
  vortex.center = glm::vec3(0.3f, 0.0f, 0.0f);
  vortex.direction = glm::vec3(0.0f, 1.0f, 0.0f);
  vortex.strength = 0.02f;
  vortex.radius = 1.0f;
  vortex.falloff = 1.0f;
  ForceField attractor;
  attractor.kind = ForceFieldKind::Radial;
  attractor.center = glm::vec3(0.0f, 0.5f, 0.0f);
  attractor.strength = -4.0f;
  attractor.perMass = true;
  attractor.radius = 2.0f;
  attractor.falloff = 2.0f;
  s.forceFields.fields = {vortex, attractor};
  return s;
}

TEST(ForceFieldGpuParity, BoxInAVortexAndAnAttractorEverySolver) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  test::ParityScene scene = test::vbdDroppedBox();
  for (glm::vec4& v : scene.state.v) v = glm::vec4(0.0f);  // at rest: only the fields move it
  test::expectParityEverySolver(ctx, scene, fieldSettings, [](SolverSettings&) {}, 1e-4, 0.05);
}

}  // namespace
}  // namespace tetlab
