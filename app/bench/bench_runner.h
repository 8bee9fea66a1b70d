#pragma once
// tetlab-bench: times whole frames of each (scene, solver, backend) case and
// reports medians, so solvers and backends are compared on identical setups.
// Performance is measured here, never asserted in tests.
//
//   for case:  build scene ─► warm-up frames (kernels built, caches warm) ─► timed frames
//              both backends through the Simulator interface (core/sim/simulator.h):
//              wall time of step() + finish(), and the per-stage times the backend
//              reports under the Stage names (core/sim/stage.h; CPU: wall times inside
//              stepSimulation, OpenCL: device times from profiling events), median over frames
// Both name body-contact detection "body contacts" (Stage::BodyContacts), so
// the "contacts" scene (8 spheres resting on each other) compares the two
// detections directly.
#include <optional>
#include <string>
#include <vector>

#include "core/mesh/tet_target.h"
#include "core/result.h"
#include "core/scene/scene_build.h"
#include "core/sim/presets.h"
#include "core/sim/step_settings.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {

enum class BenchBackend { Cpu, OpenCl };

struct BenchConfig {
  int frames = 60;                 // timed frames per case
  int warmup = 5;                  // untimed frames first
  uint32_t cellsThick = 2;         // preset resolution
  int targetTets = kDefaultTargetTets;  // mesh:FILE scenes
  std::optional<int> substeps;     // override the scene's settings for every solver
  std::optional<int> iterations;
  GpuSchedule schedule = GpuSchedule::Auto;  // OpenCL VBD launch schedule (--schedule)
  // Device stage times from profiling events (--stages). Off, the frame times
  // carry no per-launch event cost, as in the window with the numbers panel closed.
  bool stageTiming = false;
};

struct StageMedian {
  std::string name;
  double ms = 0.0;  // median over frames of the stage's summed device time per frame
};

struct BenchResult {
  std::string scene;
  uint32_t vertices = 0, tets = 0, bodies = 0;
  SolverKind solver = SolverKind::Xpbd;
  BenchBackend backend = BenchBackend::Cpu;
  int substeps = 0, iterations = 0;
  bool ok = false;
  std::string error;       // why the case did not run, or where it blew up
  double medianMs = 0.0;   // per frame, wall clock
  double p10Ms = 0.0, p90Ms = 0.0;
  std::vector<StageMedian> stages;  // per frame, summed over substeps (CPU: wall, OpenCL: device time)
  uint32_t bodyContacts = 0;        // contacts of the last substep of the last frame
  uint32_t launches = 0;            // device commands per frame (median; 0 on the CPU reference)
  std::string schedule;             // OpenCL: how the solve was launched ("" on the CPU reference)
  // The solver's residual after each iteration of the last substep of the
  // last timed frame (docs/solvers.md; empty where the backend does not record it).
  std::vector<float> residualHistory;
};

// Median per-frame time of a stage, or a negative value when the case has none.
double stageMedianMs(const BenchResult& r, const std::string& name);

// Scenes: the presets (beam, drop, hang), "contacts" (8 spheres of radius
// 0.1 m, 4 N cells across, 2 x 2 x 2 with 1 cm gaps, on the ground: body
// contacts in every substep), "mesh:PATH" for an OBJ, or "scene:NAME" /
// "scene:FILE.json" for a scene file (NAME: one of assets/scenes, the
// window's presets) with its own settings, pins and start velocities.
Result<Scene> makeBenchScene(const std::string& name, const BenchConfig& config);

// A scene file as the window loads it: its description (what a session keeps)
// and the built scene. NAME: one of assets/scenes; else a path to a .json.
struct LoadedSceneFile {
  SceneDesc desc;
  BuiltScene built;
};
Result<LoadedSceneFile> loadBenchSceneFile(const std::string& nameOrPath);

// `ctx` is needed for the OpenCL backend (nullptr: the case reports why).
BenchResult runBenchCase(const Scene& scene, SolverKind solver, BenchBackend backend, const BenchConfig& config,
                         const ClContext* ctx, const std::string& noDeviceReason);

// q-quantile (0..1) of unsorted samples, linear interpolation; 0 when empty.
double quantile(std::vector<double> samples, double q);

const char* backendName(BenchBackend backend);

}  // namespace tetlab
