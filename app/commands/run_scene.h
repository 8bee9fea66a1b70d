#pragma once
// What `tetlab run` simulates, from any of its three sources, with the same
// overrides the window takes:
//
//   --scene NAME|FILE.json   a scene file (assets/scenes/*.json or the user's own)
//   --preset beam|drop|hang  a preset: a scene description generated in code (core/sim/presets.h)
//   --mesh FILE.obj          an OBJ dropped on the ground, the window's mesh scene (makeMeshDropScene)
//
// All three become a SceneDesc and go the window's way: applyOverrides ->
// buildScene. The solver is the scene's unless --solver is given (presets:
// XPBD; meshes: VBD, as in the window), so a scene tuned in the window runs
// headless unchanged.
#include <string>

#include "app/commands/run_command.h"
#include "core/result.h"
#include "core/scene/scene_build.h"
#include "core/sim/presets.h"
#include "core/sim/state.h"

namespace tetlab {

struct RunScene {
  Scene scene;        // model, settings (solver and overrides applied), pins
  State state;        // the initial state: pins, per-body initial velocities
  std::string note;   // how an OBJ was tetrahedralized; empty otherwise
};

// Errors name the file or preset and what to do.
Result<RunScene> buildRunScene(const RunArgs& args);

// The same scene as a description and what it built, for a SimSession
// (`tetlab compare`): the overrides applied to the description too, so it saves as it runs.
struct SessionScene {
  SceneDesc desc;
  BuiltScene built;
};
Result<SessionScene> buildSessionScene(const RunArgs& args);

}  // namespace tetlab
