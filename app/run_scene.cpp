#include "app/run_scene.h"

#include "core/scene/enum_names.h"
#include "core/scene/scene_build.h"
#include "core/scene/scene_json.h"
#include "core/scene/scene_overrides.h"
#include "core/sim/mesh_scene.h"
#include "core/sim/state_setup.h"

namespace tetlab {
namespace {

SceneOverrides overridesOf(const RunArgs& args) {
  SceneOverrides o;
  if (!args.solver.empty()) o.solver = parseSolverName(args.solver);
  o.dt = args.dt;
  o.substeps = args.substeps;
  o.iterations = args.iterations;
  o.youngs = args.youngs;
  o.poisson = args.poisson;
  o.density = args.density;
  o.seed = args.seed;
  return o;
}

Result<RunScene> fromSceneFile(const RunArgs& args) {
  Result<SceneDesc> desc = loadSceneFile(args.scene);
  if (!desc) return desc.error();
  applyOverrides(overridesOf(args), *desc);
  SceneBuildOptions options;
  options.searchDirs.push_back(std::filesystem::path(args.scene).parent_path());
  for (const std::filesystem::path& d : args.assetDirs) options.searchDirs.push_back(d);
  Result<BuiltScene> built = buildScene(*desc, options);
  if (!built) return Error{args.scene + ": " + built.error().message};
  RunScene out;
  out.state = makeInitialState(*built);
  out.scene = std::move(built->scene);
  if (out.scene.name.empty()) out.scene.name = desc->name;
  return out;
}

// Presets and meshes: one material, the overrides applied to it and to the step.
Result<RunScene> fromPresetOrMesh(const RunArgs& args) {
  Material material = presetDefaultMaterial(args.preset.empty() ? "drop" : args.preset);
  if (args.youngs) material.youngsModulus = *args.youngs;
  if (args.poisson) material.poissonRatio = *args.poisson;
  if (args.density) material.density = *args.density;
  Result<Scene> scene = Error{""};
  RunScene out;
  if (!args.preset.empty()) {
    PresetOptions options;
    options.material = material;
    options.cellsThick = uint32_t(args.cellsThick);
    scene = makePresetScene(args.preset, options);
  } else {
    MeshSceneOptions options;
    options.material = material;
    options.targetTets = args.targetTets;
    scene = makeMeshScene(args.mesh, options, &out.note);
  }
  if (!scene) return scene.error();
  out.scene = std::move(*scene);
  SolverSettings& s = out.scene.settings;
  s.solver = args.solver.empty() ? SolverKind::Xpbd : *parseSolverName(args.solver);
  if (args.dt) s.step.dt = *args.dt;
  if (args.substeps) s.step.substeps = *args.substeps;
  if (args.iterations) s.step.iterations = *args.iterations;
  out.state = makeSceneState(out.scene);
  return out;
}

}  // namespace

Result<RunScene> buildRunScene(const RunArgs& args) {
  return args.scene.empty() ? fromPresetOrMesh(args) : fromSceneFile(args);
}

}  // namespace tetlab
