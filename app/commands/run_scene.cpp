#include "app/commands/run_scene.h"

#include "core/scene/enum_names.h"
#include "core/scene/scene_build.h"
#include "core/scene/scene_json.h"
#include "core/sim/presets.h"

namespace tetlab {
namespace {

SceneOverrides overridesOf(const RunArgs& args) {
  SceneOverrides o = args.overrides;
  if (!args.solver.empty()) o.solver = parseSolverName(args.solver);
  return o;
}

// The three sources as one scene description; `where` names it in errors.
Result<SceneDesc> describeSource(const RunArgs& args, std::string& where, SceneBuildOptions& options) {
  if (!args.scene.empty()) {
    where = args.scene;
    options.searchDirs.push_back(std::filesystem::path(args.scene).parent_path());
    return loadSceneFile(args.scene);
  }
  if (!args.preset.empty()) {
    where = "preset '" + args.preset + "'";
    PresetOptions preset;
    preset.material = presetDefaultMaterial(args.preset);
    preset.cellsThick = uint32_t(args.cellsThick);
    return presetSceneDesc(args.preset, preset);
  }
  where = args.mesh;
  return makeMeshDropScene(args.mesh, args.targetTets);
}

}  // namespace

Result<SessionScene> buildSessionScene(const RunArgs& args) {
  std::string where;
  SceneBuildOptions options;
  Result<SceneDesc> desc = describeSource(args, where, options);
  if (!desc) return desc.error();
  applyOverrides(overridesOf(args), *desc);
  for (const std::filesystem::path& d : args.assetDirs) options.searchDirs.push_back(d);
  Result<BuiltScene> built = buildScene(*desc, options);
  if (!built) return Error{where + ": " + built.error().message};
  if (built->scene.name.empty()) built->scene.name = desc->name;
  return SessionScene{std::move(*desc), std::move(*built)};
}

Result<RunScene> buildRunScene(const RunArgs& args) {
  Result<SessionScene> built = buildSessionScene(args);
  if (!built) return built.error();
  RunScene out;
  out.state = makeInitialState(built->built);
  if (!args.mesh.empty() && !built->built.bodies.empty()) out.note = built->built.bodies.front().note;
  out.scene = std::move(built->built.scene);
  return out;
}

}  // namespace tetlab
