#pragma once
// Shared by the GPU VBD and AVBD parity tests: small scenes, and a runner that
// steps the CPU reference and the OpenCL solver side by side from the same
// model, state and settings, then compares every vertex.
//
//   relative error = max_i |x_gpu_i - x_cpu_i| / D,   D = diagonal of the CPU result's bounding box
//
// Both backends visit the vertices in the same order (colour by colour; within
// a colour the vertices are independent) and evaluate the same shared element
// math with FP_CONTRACT off, so they differ only where the device rounds a
// builtin (sqrt, division, length) differently. PoCL on x86 rounds them as the
// CPU does: every comparison here is bit-exact on it. The bounds are chosen so
// they also hold on a device that does not, measured by perturbing the
// device's inertia term by 1e-6 relative (~8 ulp, a typical GPU sqrt/div
// difference) and watching how each scene carries it:
//
//   smooth scenes (beams, no contact; a block sliding with friction):
//     a VBD substep contracts towards the minimiser of a smooth energy, so
//     the perturbation stays at 1e-6..1e-5 of the size: 1e-4 over 100 frames
//   chaotic scenes (a block tumbling off a sphere): the difference grows
//     ~10x per 10-15 frames: 1e-4 over 20 frames, energy checks over 100
//   VBD contact onset on curved surfaces, frictionless sliding: bounded or
//     linear growth, explained at each test
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/solver.h"
#include "core/sim/energy.h"
#include "core/sim/state_setup.h"
#include "core/sim/stepper.h"
#include "gpu/solvers/gpu_solver_factory.h"
#include "gpu/solvers/gpu_stepper.h"
#include "gpu_test_context.h"
#include "parity_scenes.h"

namespace tetlab::test {

using VbdScene = ParityScene;

inline VbdScene makeVbdScene(const BodyDesc& body) { return makeParityScene(body); }

// The parity beam (parity_scenes.h).
inline VbdScene vbdBeam(float youngs = 2.0e5f, float poisson = 0.3f, float damping = 0.0f) {
  return clampedBeam(youngs, poisson, damping);
}

// A soft 0.2 m box thrown at the ground with a sideways velocity.
inline VbdScene vbdDroppedBox(float youngs = 5.0e4f) {
  Material m;
  m.youngsModulus = youngs;
  VbdScene s = makeVbdScene(
      {makeBoxTetMesh(glm::vec3(-0.1f, 0.25f, -0.1f), glm::vec3(0.2f), glm::uvec3(2, 2, 2)), m, "box"});
  for (glm::vec4& v : s.state.v) v = glm::vec4(0.4f, -1.0f, 0.2f, 0.0f);
  return s;
}

// Surfaces for the contact scenes.
enum class ContactSurface { Ground, Sphere, TiltedBox, Capsule, Torus, MeshSphere };

inline const char* nameOf(ContactSurface s) {
  switch (s) {
    case ContactSurface::Ground:
      return "ground";
    case ContactSurface::Sphere:
      return "sphere";
    case ContactSurface::TiltedBox:
      return "tilted box";
    case ContactSurface::Capsule:
      return "capsule";
    case ContactSurface::Torus:
      return "torus";
    case ContactSurface::MeshSphere:
      return "mesh (sampled sphere)";
  }
  return "?";
}

// The soft 0.2 m block already resting on a large surface of one collider kind
// (a radius-2 m sphere, a box whose top face is an incline of 0.15 rad with
// mu = 0.1 < tan 0.15, so it slides down, a radius-1 m capsule, the crest of
// a torus' tube (R = 1 m, r = 0.5 m, axis y), a mesh collider sampling the
// radius-2 m sphere on a 24^3 grid, or the ground),
// given a sideways push of (0.5, 0, 0.3) m/s: friction and contact all along,
// without an impact. `thickness` [m] goes to both solvers' contactThickness.
inline void makeSlidingBlock(ContactSurface surface, float thickness, VbdScene& outScene, SolverSettings& s) {
  outScene = vbdDroppedBox();
  s.step.constraints.edges = true;
  s.vbd.contactThickness = thickness;
  s.avbd.primal.contactThickness = thickness;
  s.colliders.ground.enabled = surface == ContactSurface::Ground;
  s.colliders.ground.friction = 0.3f;
  float top = 0.0f;  // height of the surface under the block's centre
  if (surface == ContactSurface::Sphere) s.colliders.spheres.push_back({glm::vec3(0.0f, -2.0f, 0.0f), 2.0f, 0.3f});
  if (surface == ContactSurface::Capsule)
    s.colliders.capsules.push_back({glm::vec3(-1.0f, -1.0f, 0.0f), glm::vec3(1.0f, -1.0f, 0.0f), 1.0f, 0.3f});
  if (surface == ContactSurface::Torus) {
    TorusCollider t;
    t.center = glm::vec3(-1.0f, -0.5f, 0.0f);  // the tube's crest passes through the origin
    t.majorRadius = 1.0f;
    t.minorRadius = 0.5f;
    t.friction = 0.3f;
    s.colliders.tori.push_back(t);
  }
  if (surface == ContactSurface::MeshSphere) {
    s.colliders.meshes.push_back(sphereGridCollider(glm::vec3(0.0f, -2.0f, 0.0f), 2.0f, 24));
    s.colliders.meshes.back().friction = 0.3f;  // as the analytic sphere
  }
  if (surface == ContactSurface::TiltedBox) {
    BoxCollider b;
    b.center = glm::vec3(0.0f, -0.1f, 0.0f);
    b.halfExtents = glm::vec3(1.0f, 0.1f, 1.0f);
    const float a = 0.15f;
    b.rotation = glm::mat3(glm::vec3(std::cos(a), std::sin(a), 0.0f), glm::vec3(-std::sin(a), std::cos(a), 0.0f),
                           glm::vec3(0.0f, 0.0f, 1.0f));
    b.friction = 0.1f;
    s.colliders.boxes.push_back(b);
    top = 0.02f;  // the block's lowest corner clears the incline
  }
  // vbdDroppedBox's bottom is at y = 0.25 m.
  for (glm::vec4& x : outScene.state.x) x.y += top + thickness - 0.25f;
  for (glm::vec4& v : outScene.state.v) v = glm::vec4(0.5f, 0.0f, 0.3f, 0.0f);
}

// The block thrown at a sphere next to an inclined box and a capsule over the
// ground: it hits the sphere, tumbles off and rolls on the ground (the box
// and capsule are sampled every iteration but, as it happens, never touched).
inline void addTumblingColliders(SolverSettings& s) {
  s.step.constraints.edges = true;
  addEveryColliderKind(s);
  s.vbd.contactThickness = 0.002f;
  s.avbd.primal.contactThickness = 0.002f;
}

// Drag the beam's far end with the mouse: `vertices` with barycentric `weights`.
inline void attachMouse(VbdScene& s, std::vector<uint32_t> vertices, std::vector<float> weights, glm::vec3 pull,
                        float stiffness, float maxForce) {
  glm::vec3 anchor(0.0f);
  for (size_t k = 0; k < vertices.size(); ++k) anchor += s.model.restPositions[vertices[k]] * weights[k];
  s.state.mouse.active = true;
  s.state.mouse.vertices = std::move(vertices);
  s.state.mouse.weights = std::move(weights);
  s.state.mouse.target = anchor + pull;
  s.state.mouse.stiffness = stiffness;
  s.state.mouse.maxForce = maxForce;
}

// Pull the beam's tip with the mouse: the four corners of its last tet (four
// vertex colours, so the offset is computed inside the solve exactly as the CPU
// does), weights 0.1 to 0.4, towards (0, 0.3, 0.2) m from their anchor.
inline void attachMouseToTipTet(VbdScene& s, float stiffness, float maxForce) {
  const glm::uvec4 tet = s.model.tets[s.model.tetCount() - 1];
  attachMouse(s, {tet.x, tet.y, tet.z, tet.w}, {0.1f, 0.2f, 0.3f, 0.4f}, glm::vec3(0.0f, 0.3f, 0.2f), stiffness,
              maxForce);
}

// Two vertices of the SAME colour near the beam's free end (x > 0.5 m): an
// attachment on them makes the GPU take the mouse-offset snapshot path
// (gpu/solvers/vbd_family_gpu.h). Empty when no colour has two such vertices.
inline std::vector<uint32_t> sameColourTipPair(const SimModel& model) {
  const ColorRanges& colors = model.vertexColors;
  for (uint32_t c = 0; c < colors.count(); ++c) {
    std::vector<uint32_t> pick;
    for (uint32_t k = colors.begin(c); k < colors.end(c) && pick.size() < 2; ++k)
      if (model.restPositions[model.vertexColorOrder[k]].x > 0.5f) pick.push_back(model.vertexColorOrder[k]);
    if (pick.size() == 2) return pick;
  }
  return {};
}

struct VbdComparison {
  double maxError = 0.0;         // max |x_gpu - x_cpu| [m]
  double diagonal = 0.0;         // D [m]
  double maxDisplacement = 0.0;  // how far the CPU result moved from the start: the test is not vacuous
  double maxPenaltyRelError = 0.0;  // max |k_gpu - k_cpu| / max(|k_cpu|, 1) over the AVBD rows
  double maxLambdaError = 0.0;      // max |lambda_gpu - lambda_cpu| / max |lambda_cpu| (0 when all zero)
  double maxLambdaShift = 0.0;      // max |lambda_gpu - lambda_cpu| / k_cpu [m]: the row's equilibrium shift
  bool finite = true;
  double energyStart = 0.0, energyCpu = 0.0, energyGpu = 0.0;  // total energy (core/sim/energy.h) [J]
  std::vector<double> errorPerFrame;  // max |dx| / D after each frame (when recorded)
  // The device's convergence curve of each frame's last substep against the CPU's
  // StepDiagnostics::residualHistory: max |r_gpu - r_cpu| over the curve's own
  // scale (its largest CPU value), and how many curves were compared.
  double maxResidualError = 0.0;
  double maxResidual = 0.0;
  int residualCurves = 0;
  double relative() const { return diagonal > 0.0 ? maxError / diagonal : std::numeric_limits<double>::infinity(); }
};

// Steps both backends `frames` frames; with recordEveryFrame the GPU state is
// read back after each frame (to see where two runs part), else only at the end.
inline VbdComparison runVbdBoth(const ClContext& ctx, const VbdScene& scene, const SolverSettings& settings,
                                int frames = 100, bool recordEveryFrame = false) {
  VbdComparison out;
  out.finite = false;  // until both runs exist
  std::unique_ptr<Solver> cpu = makeCpuSolver(settings.solver);
  State cpuState = scene.state;
  cpu->reset(scene.model, cpuState);

  auto device = createDeviceState(ctx, scene.model, scene.state);
  EXPECT_TRUE(device.ok()) << device.error().message;
  auto stepper = GpuStepper::create(ctx);
  EXPECT_TRUE(stepper.ok()) << stepper.error().message;
  if (!device.ok() || !stepper.ok()) return out;
  auto gpu = makeGpuSolver(settings.solver, ctx, scene.model, *device);
  EXPECT_TRUE(gpu.ok()) << gpu.error().message;
  if (!gpu.ok()) return out;
  (*gpu)->setAttachment(scene.state.mouse);
  out.finite = true;

  auto compare = [&](const std::vector<glm::vec4>& gpuX, double& outMax, double& outDiag) {
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    outMax = 0.0;
    for (size_t i = 0; i < cpuState.x.size(); ++i) {
      const glm::vec3 c(cpuState.x[i]), g(gpuX[i]);
      lo = glm::min(lo, c);
      hi = glm::max(hi, c);
      outMax = std::max(outMax, double(glm::length(g - c)));
    }
    outDiag = glm::length(hi - lo);
  };

  Profiler profiler;
  profiler.setEnabled(false);
  std::vector<glm::vec4> gpuX;
  for (int f = 0; f < frames; ++f) {
    StepDiagnostics diag;
    stepSimulation(scene.model, settings, *cpu, cpuState, diag);
    out.finite = out.finite && diag.finite;
    Status st = stepper->enqueueStep(ctx, scene.model, settings, **gpu, *device, profiler);
    EXPECT_TRUE(st.ok()) << st.error().message;
    if ((*gpu)->measuresResidual()) {
      auto curve = (*gpu)->readResidualHistory(ctx);
      EXPECT_TRUE(curve.ok()) << (curve.ok() ? "" : curve.error().message);
      if (curve.ok()) {
        EXPECT_EQ(curve->size(), diag.residualHistory.size()) << "one value per iteration";
        double scale = 0.0, err = 0.0;
        for (size_t k = 0; k < curve->size() && k < diag.residualHistory.size(); ++k) {
          scale = std::max(scale, double(diag.residualHistory[k]));
          err = std::max(err, std::fabs(double((*curve)[k]) - double(diag.residualHistory[k])));
        }
        out.maxResidual = std::max(out.maxResidual, scale);
        if (scale > 0.0) out.maxResidualError = std::max(out.maxResidualError, err / scale);
        ++out.residualCurves;
      }
    }
    if (recordEveryFrame) {
      EXPECT_TRUE(downloadPositions(ctx, *device, gpuX).ok());
      double err = 0.0, diagLen = 0.0;
      compare(gpuX, err, diagLen);
      out.errorPerFrame.push_back(err / diagLen);
    }
  }
  State gpuState;
  EXPECT_TRUE(downloadState(ctx, *device, gpuState).ok());
  auto bad = stepper->readBadVertex(ctx);
  EXPECT_TRUE(bad.ok() && *bad == -1) << "the GPU run produced a non-finite vertex";
  out.finite = out.finite && bad.ok() && *bad == -1;

  compare(gpuState.x, out.maxError, out.diagonal);
  out.energyStart = computeEnergy(scene.model, settings, scene.state).total();
  out.energyCpu = computeEnergy(scene.model, settings, cpuState).total();
  gpuState.mouse = cpuState.mouse;
  out.energyGpu = computeEnergy(scene.model, settings, gpuState).total();
  for (size_t i = 0; i < cpuState.x.size(); ++i) {
    out.maxDisplacement =
        std::max(out.maxDisplacement, double(glm::length(glm::vec3(cpuState.x[i]) - glm::vec3(scene.state.x[i]))));
    EXPECT_EQ(gpuState.x[i].w, cpuState.x[i].w) << "inverse mass of vertex " << i;
  }
  EXPECT_EQ(gpuState.lambda.size(), cpuState.lambda.size()) << "constraint layout differs";
  EXPECT_EQ(gpuState.penalty.size(), cpuState.penalty.size()) << "constraint layout differs";
  if (gpuState.lambda.size() == cpuState.lambda.size() && gpuState.penalty.size() == cpuState.penalty.size()) {
    double lambdaScale = 0.0, lambdaErr = 0.0;
    for (size_t r = 0; r < cpuState.lambda.size(); ++r) {
      lambdaScale = std::max(lambdaScale, double(std::fabs(cpuState.lambda[r])));
      lambdaErr = std::max(lambdaErr, double(std::fabs(gpuState.lambda[r] - cpuState.lambda[r])));
      out.maxLambdaShift = std::max(out.maxLambdaShift, double(std::fabs(gpuState.lambda[r] - cpuState.lambda[r])) /
                                                            double(cpuState.penalty[r]));
      out.maxPenaltyRelError =
          std::max(out.maxPenaltyRelError, double(std::fabs(gpuState.penalty[r] - cpuState.penalty[r])) /
                                               std::max(double(std::fabs(cpuState.penalty[r])), 1.0));
    }
    out.maxLambdaError = lambdaScale > 0.0 ? lambdaErr / lambdaScale : lambdaErr;
  }
  return out;
}

inline SolverSettings vbdBaseSettings(SolverKind kind) {
  SolverSettings s;
  s.solver = kind;
  s.step.substeps = 5;
  s.step.iterations = 4;
  return s;
}

// The beam scenes are smooth (no contact): the ground would catch the sagging tip.
inline SolverSettings vbdBeamSettings(SolverKind kind) {
  SolverSettings s = vbdBaseSettings(kind);
  s.colliders.ground.enabled = false;
  return s;
}

// AVBD with every row kind hard on the beam: pins, edges and the mouse
// (beta 1e6 N/m^2, so the rows converge within the frames compared).
inline SolverSettings avbdHardRowsBeamSettings() {
  SolverSettings s = vbdBeamSettings(SolverKind::Avbd);
  s.step.constraints.edges = true;
  s.avbd.hardPins = true;
  s.avbd.hardEdges = true;
  s.avbd.hardAttachment = true;
  s.avbd.beta = 1.0e6f;
  return s;
}

// The device's residual curves (VbdResidualRecorder) against the CPU's
// residualHistory, relative to the curve's largest value. Bound: both
// evaluate r_i = |f_i| h^2 / m_i with the same expression on the same
// positions (bit-exact on PoCL); the device sums r_i^2 in float (64 strided
// partial sums of n / 64 terms, then a 64-way tree) where the CPU sums in
// double, a relative error of at most (n / 64 + 6) 2^-24 of the sum, about
// 1e-6 for these models, halved by the square root. On a device whose builtins
// round differently the positions differ by ~1e-6 of the size, which moves the
// forces, and with them the residual, by a similar fraction of the curve's
// scale. 1e-4 of the curve's largest value leaves two orders of magnitude for that.
inline constexpr double kMaxResidualCurveError = 1e-4;

inline void expectSameResidualCurves(const VbdComparison& c, const char* what) {
  std::printf("  %s: %d curves, largest residual %.3g m, max |r_gpu - r_cpu| / scale %.3g (bound %.0e)\n", what,
              c.residualCurves, c.maxResidual, c.maxResidualError, kMaxResidualCurveError);
  EXPECT_GT(c.residualCurves, 0) << what;
  EXPECT_GT(c.maxResidual, 0.0) << what << ": an all-zero curve compares nothing";
  EXPECT_LT(c.maxResidualError, kMaxResidualCurveError) << what;
}

}  // namespace tetlab::test

// Prints the measurement and checks the relative position error and that the
// scene really moved (minMove [m]).
#define EXPECT_VBD_PARITY(cmp, minMove, bound)                                                            \
  do {                                                                                                   \
    std::printf("  parity: max |dx| %.3g m, relative %.3g (bound %.1g), CPU moved %.3g m\n", (cmp).maxError, \
                (cmp).relative(), double(bound), (cmp).maxDisplacement);                                 \
    EXPECT_TRUE((cmp).finite);                                                                           \
    EXPECT_GT((cmp).maxDisplacement, (minMove)) << "the scene did not move: the test is vacuous";        \
    EXPECT_LT((cmp).relative(), (bound))                                                                 \
        << "max |dx| = " << (cmp).maxError << " m over a body of " << (cmp).diagonal << " m";            \
  } while (0)

// AVBD rows (the bound is the including test's kMaxRelativeError). Where the positions are bit-identical (PoCL), the rows must be too:
// any difference is a layout or dual-update bug, not rounding. Otherwise the
// raw numbers are not comparable at 1e-4: a penalty grows by beta |C| per
// iteration (beta = 1e9 N/m^2), so a position difference dx moves it by
// beta dx, amplified by beta / k (measured with an 8-ulp perturbation: 1e-4 of
// the positions' 1e-6 became 5e-3 of the penalties). What the rows do to the
// solution is their equilibrium shift |dlambda| / k [m] (lambda is a force,
// k a stiffness), which is held to the position bound.
#define EXPECT_ROWS_MATCH(cmp)                                                                        \
  do {                                                                                               \
    std::printf("  rows: penalty rel. %.3g, lambda rel. %.3g, lambda shift %.3g m\n",                 \
                (cmp).maxPenaltyRelError, (cmp).maxLambdaError, (cmp).maxLambdaShift);               \
    if ((cmp).maxError == 0.0) {                                                                     \
      EXPECT_EQ((cmp).maxPenaltyRelError, 0.0) << "identical positions but different penalties";     \
      EXPECT_EQ((cmp).maxLambdaError, 0.0) << "identical positions but different multipliers";       \
    }                                                                                                \
    EXPECT_LT((cmp).maxLambdaShift / (cmp).diagonal, kMaxRelativeError);                              \
  } while (0)
