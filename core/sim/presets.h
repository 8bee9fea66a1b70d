#pragma once
// Built-in scenes for `tetlab run --preset`, the app's scene menu and the
// physics tests, so all three simulate exactly the same setup.
//
//   beam  1.0 x 0.1 x 0.1 m box along +x from x = 0 (axis on y = z = 0), every
//         vertex with x = 0 pinned, gravity -y, no ground. cellsThick N cells
//         through the thickness, 10 N along the length.
//   drop  a ball of radius 0.1 m whose lowest point starts 0.5 m above the
//         ground plane y = 0; 2 N cells across.
//   hang  a 0.6 x 0.6 x 0.03 m vertical slab (x-y plane) pinned at its two top
//         corners (every vertex of the two corner edges through the
//         thickness); 8 N x 8 N x N cells.
#include <string>
#include <string_view>
#include <vector>

#include "core/model/material.h"
#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"

namespace tetlab {

struct PresetOptions {
  Material material;       // used as given (see presetDefaultMaterial)
  uint32_t cellsThick = 2; // N above, >= 1
};

struct Scene {
  std::string name;
  SimModel model;
  SolverSettings settings;        // colliders and constraint toggles for the scene
  std::vector<uint32_t> pinned;   // vertices to pin (w = 0) in a new state
};

std::vector<std::string> presetNames();

// The material a preset uses when the user overrides nothing: beam E = 1e7 Pa
// (Euler-Bernoulli tip sag q L^4 / (8 E I) = 0.15 m, clearly bent; less on
// coarse meshes, which lock), drop and hang E = 1e5 Pa (soft), nu = 0.3,
// density 1000 kg/m^3.
Material presetDefaultMaterial(std::string_view name);

// Fails on an unknown name (listing the known ones) or bad options.
Result<Scene> makePresetScene(std::string_view name, const PresetOptions& options);

// makeState(scene.model) with scene.pinned pinned.
State makeSceneState(const Scene& scene);

}  // namespace tetlab
