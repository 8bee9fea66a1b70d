#pragma once
// A built scene as the solvers see it: the model, the settings it was made
// with and the vertices pinned in a fresh state. Every source (a scene file,
// a preset, an OBJ) ends here through buildScene (core/scene/scene_build.h).
#include <string>
#include <vector>

#include "core/model/sim_model.h"
#include "core/sim/pin_animation.h"
#include "core/sim/pin_followers.h"
#include "core/sim/solver_settings.h"
#include "core/sim/state.h"

namespace tetlab {

struct Scene {
  std::string name;
  SimModel model;
  SolverSettings settings;        // colliders and constraint toggles for the scene
  std::vector<uint32_t> pinned;   // vertices to pin (w = 0) in a new state
  std::vector<PinFollower> followers;  // pinned vertices that ride on a collider (a subset of pinned)
  std::vector<AnimatedPins> animatedPins;  // pinned vertices that follow keys or are let go (a subset of pinned)
  AnchorSprings springs;          // the bodies' anchor springs, all whole (a new state's State::springs)
};

// makeState(scene.model) with scene.pinned pinned and the scene's springs whole.
State makeSceneState(const Scene& scene);

}  // namespace tetlab
