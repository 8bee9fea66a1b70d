#pragma once
// The built-in presets of `tetlab run --preset`, the bench and the physics
// tests. A preset is a scene description generated in code: it builds through
// the same buildScene as assets/scenes/*.json, so there is one scene system
// and the overrides, pins and CSV columns work alike for all of them.
//
//   beam  1.0 x 0.1 x 0.1 m box along +x from x = 0 (axis on y = z = 0), every
//         vertex with x = 0 pinned, gravity -y, no ground. cellsThick N cells
//         through the thickness, 10 N along the length
//         (assets/scenes/beam.json is this beam lifted 0.5 m).
//   drop  a ball of radius 0.1 m whose lowest point starts 0.5 m above the
//         ground plane y = 0; 2 N cells across.
//   hang  a 0.6 x 0.6 x 0.03 m vertical slab (x-y plane) pinned at its two top
//         corners (every vertex of the two corner edges through the
//         thickness); 8 N x 8 N x N cells.
//
// Presets default to XPBD (the solver of `tetlab run` before scene files).
#include <string>
#include <string_view>
#include <vector>

#include "core/mesh/tet_target.h"
#include "core/model/material.h"
#include "core/result.h"
#include "core/scene/scene_desc.h"
#include "core/sim/scene.h"

namespace tetlab {

struct PresetOptions {
  Material material;       // used as given (see presetDefaultMaterial)
  uint32_t cellsThick = 2; // N above, 1..64
};

std::vector<std::string> presetNames();

// The material a preset uses when the user overrides nothing: beam E = 1e7 Pa
// (Euler-Bernoulli tip sag q L^4 / (8 E I) = 0.15 m, clearly bent; less on
// coarse meshes, which lock), drop and hang E = 1e5 Pa (soft), nu = 0.3,
// density 1000 kg/m^3.
Material presetDefaultMaterial(std::string_view name);

// The preset as a scene description. Fails on an unknown name (listing the
// known ones) or bad options.
Result<SceneDesc> presetSceneDesc(std::string_view name, const PresetOptions& options);

// A user's OBJ as a scene (the window's --mesh and drop target, `tetlab run
// --mesh`, the bench's mesh: scenes): one OBJ dropped onto the ground: fitted into a 0.3 m cube, lowest point at
// 0.4 m, soft rubber (E = 100 kPa, nu = 0.3, 1000 kg/m^3), VBD at 20 substeps x 6
// iterations (the bunny drop's budget), the camera left
// to the app's automatic fit. meshPath is stored as given.
SceneDesc makeMeshDropScene(const std::string& meshPath, int targetTets = kDefaultTargetTets);

// buildScene(presetSceneDesc(name, options)).scene.
Result<Scene> makePresetScene(std::string_view name, const PresetOptions& options);

}  // namespace tetlab
