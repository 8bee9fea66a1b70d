#include "app/bench/bench_runner.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "core/cpu/xpbd_solver.h"
#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/scene/scene_build.h"
#include "core/scene/scene_json.h"
#include "core/sim/presets.h"
#include "core/sim/simulator.h"
#include "gpu/solvers/opencl_simulator.h"

namespace tetlab {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

SolverSettings settingsFor(const Scene& scene, SolverKind solver, const BenchConfig& config) {
  SolverSettings s = scene.settings;
  s.solver = solver;
  if (config.substeps) s.step.substeps = *config.substeps;
  if (config.iterations) s.step.iterations = *config.iterations;
  s.step.gpuSchedule = config.schedule;
  // Same rule as `tetlab run`: XPBD's Neo-Hookean shear is explicit, so
  // without an explicit choice take enough substeps to stay stable.
  s.step.substeps = planXpbdSubsteps(scene.model, s, !config.substeps).used;
  return s;
}

void summarize(std::vector<double> frameMs, BenchResult& out) {
  out.medianMs = quantile(frameMs, 0.5);
  out.p10Ms = quantile(frameMs, 0.1);
  out.p90Ms = quantile(std::move(frameMs), 0.9);
}

// 2 x 2 x 2 spheres 1 cm apart (within the default 2 cm search radius), the
// lower layer 1 mm above the ground: they settle onto each other, so contacts
// are found in every substep from the first.
Result<Scene> makeContactsScene(const BenchConfig& config) {
  const float radius = 0.1f, gap = 0.01f;
  std::vector<BodyDesc> bodies;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c((2.0f * radius + gap) * float(i % 2), radius + 0.001f + (2.0f * radius + gap) * float(i / 4),
                      (2.0f * radius + gap) * float((i / 2) % 2));
    bodies.push_back(BodyDesc{makeSphereTetMesh(c, radius, 4 * config.cellsThick), presetDefaultMaterial("drop"),
                              "sphere" + std::to_string(i)});
  }
  auto model = buildSimModel(std::span<const BodyDesc>(bodies.data(), bodies.size()));
  if (!model) return Error{"bench scene 'contacts': " + model.error().message};
  Scene scene;
  scene.name = "contacts";
  scene.model = std::move(model).value();
  return scene;
}

}  // namespace

Result<LoadedSceneFile> loadBenchSceneFile(const std::string& nameOrPath) {
  const std::filesystem::path assets = TETLAB_ASSET_DIR;
  std::filesystem::path path = nameOrPath;
  if (path.extension() != ".json") path = assets / "scenes" / (nameOrPath + ".json");
  Result<SceneDesc> desc = loadSceneFile(path);
  if (!desc) return desc.error();
  SceneBuildOptions options;
  options.searchDirs = {path.parent_path(), assets, assets / "meshes"};
  Result<BuiltScene> built = buildScene(*desc, options);
  if (!built) return Error{path.string() + ": " + built.error().message};
  built->scene.name = path.stem().string();  // short, for the table and the CSV
  return LoadedSceneFile{std::move(*desc), std::move(*built)};
}

namespace {

// "scene:NAME" (a preset of assets/scenes) or "scene:FILE.json": the scene as
// the window and `tetlab run --scene` build it, pins and start velocities included.
Result<Scene> makeSceneFileScene(const std::string& nameOrPath) {
  Result<LoadedSceneFile> loaded = loadBenchSceneFile(nameOrPath);
  if (!loaded) return loaded.error();
  return std::move(loaded->built.scene);
}

// One case on either backend, through the Simulator interface: the wall
// time of step() + finish() per frame, and the stage times the backend
// reports (CPU: wall clock inside stepSimulation; OpenCL: device time from
// profiling events), both taken outside the timed region.
void runSimulator(Simulator& sim, const SolverSettings& settings, const BenchConfig& config, BenchResult& out) {
  std::vector<double> frameMs;
  frameMs.reserve(size_t(config.frames));
  std::array<std::vector<double>, kStageCount> stageMs;
  std::array<bool, kStageCount> timed{};
  std::vector<double> launches;
  StepDiagnostics diag;
  sim.setStageTiming(config.stageTiming);
  for (int f = 0; f < config.warmup + config.frames; ++f) {
    const Clock::time_point t0 = Clock::now();
    Status st = sim.step(settings, diag);
    if (st) st = sim.finish();
    const double ms = msSince(t0);
    if (!st) {
      out.error = st.error().message;
      return;
    }
    const StageTimes stages = sim.takeStageTimes();
    if (!diag.finite) {  // the CPU reference reports it from the step; a device at the end
      out.error = "blew up at frame " + std::to_string(f + 1) + ": " + diag.problem;
      return;
    }
    if (f < config.warmup) continue;
    frameMs.push_back(ms);
    launches.push_back(double(diag.launches));
    // Every launch is aggregated under its Stage (per colour, per solver):
    // the breakdown reads by stage, not by colour.
    for (Stage stage : kAllStages) {
      stageMs[size_t(stage)].push_back(stages[stage]);
      if (stages[stage] > 0.0) timed[size_t(stage)] = true;
    }
  }
  // Blocking reads after the timed frames (a device: first bad vertex of all
  // of them, body-contact counts of the last substep).
  if (Status st = sim.readDiagnostics(diag); !st) {
    out.error = st.error().message;
    return;
  }
  if (!diag.finite) {
    out.error = "blew up: " + diag.problem;
    return;
  }
  summarize(std::move(frameMs), out);
  out.launches = uint32_t(std::lround(quantile(std::move(launches), 0.5)));
  for (Stage stage : kAllStages)
    if (timed[size_t(stage)]) out.stages.push_back({stageName(stage), quantile(stageMs[size_t(stage)], 0.5)});
  out.bodyContacts = diag.bodyContacts;
  out.schedule = diag.schedule;
  out.residualHistory = diag.residualHistory;
  out.ok = true;
}

}  // namespace

const char* backendName(BenchBackend backend) { return backend == BenchBackend::Cpu ? "cpu" : "opencl"; }

double quantile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0.0;
  std::sort(samples.begin(), samples.end());
  const double pos = std::clamp(q, 0.0, 1.0) * double(samples.size() - 1);
  const size_t lo = size_t(std::floor(pos));
  const size_t hi = std::min(lo + 1, samples.size() - 1);
  return samples[lo] + (pos - double(lo)) * (samples[hi] - samples[lo]);
}

double stageMedianMs(const BenchResult& r, const std::string& name) {
  for (const StageMedian& s : r.stages)
    if (s.name == name) return s.ms;
  return -1.0;
}

Result<Scene> makeBenchScene(const std::string& name, const BenchConfig& config) {
  if (name == "contacts") return makeContactsScene(config);
  const std::string scenePrefix = "scene:";
  if (name.rfind(scenePrefix, 0) == 0) return makeSceneFileScene(name.substr(scenePrefix.size()));
  const std::string meshPrefix = "mesh:";
  if (name.rfind(meshPrefix, 0) == 0) {
    const std::string path = name.substr(meshPrefix.size());
    Result<BuiltScene> built = buildScene(makeMeshDropScene(path, config.targetTets), SceneBuildOptions{});
    if (!built) return Error{path + ": " + built.error().message};
    return std::move(built->scene);
  }
  PresetOptions options;
  options.material = presetDefaultMaterial(name);
  options.cellsThick = config.cellsThick;
  return makePresetScene(name, options);
}

BenchResult runBenchCase(const Scene& scene, SolverKind solver, BenchBackend backend, const BenchConfig& config,
                         const ClContext* ctx, const std::string& noDeviceReason) {
  BenchResult out;
  out.scene = scene.name;
  out.vertices = scene.model.vertexCount();
  out.tets = scene.model.tetCount();
  out.bodies = uint32_t(scene.model.materials.size());
  out.solver = solver;
  out.backend = backend;
  const SolverSettings settings = settingsFor(scene, solver, config);
  out.substeps = settings.step.substeps;
  out.iterations = settings.step.iterations;
  if (backend == BenchBackend::Cpu) {
    CpuSimulator sim(scene.model, makeSceneState(scene), settings.solver);
    runSimulator(sim, settings, config, out);
  } else if (ctx == nullptr) {
    out.error = noDeviceReason;
  } else {
    auto sim = OpenClSimulator::create(scene.model, makeSceneState(scene), settings.solver, *ctx);
    if (!sim)
      out.error = sim.error().message;
    else
      runSimulator(**sim, settings, config, out);
  }
  return out;
}

}  // namespace tetlab
