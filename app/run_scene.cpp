#include "app/run_scene.h"

#include "core/scene/enum_names.h"
#include "core/scene/scene_build.h"
#include "core/scene/scene_json.h"
#include "core/sim/mesh_scene.h"
#include "core/sim/state_setup.h"

namespace tetlab {
namespace {

SceneOverrides overridesOf(const RunArgs& args) {
  SceneOverrides o = args.overrides;
  if (!args.solver.empty()) o.solver = parseSolverName(args.solver);
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
  const SceneOverrides o = overridesOf(args);
  Material material = presetDefaultMaterial(args.preset.empty() ? "drop" : args.preset);
  if (o.youngs) material.youngsModulus = *o.youngs;
  if (o.poisson) material.poissonRatio = *o.poisson;
  if (o.density) material.density = *o.density;
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
  s.solver = o.solver.value_or(SolverKind::Xpbd);
  if (o.dt) s.step.dt = *o.dt;
  if (o.substeps) s.step.substeps = *o.substeps;
  if (o.iterations) s.step.iterations = *o.iterations;
  out.state = makeSceneState(out.scene);
  return out;
}

}  // namespace

Result<RunScene> buildRunScene(const RunArgs& args) {
  return args.scene.empty() ? fromPresetOrMesh(args) : fromSceneFile(args);
}

}  // namespace tetlab
