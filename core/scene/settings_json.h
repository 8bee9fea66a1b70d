#pragma once
// SolverSettings <-> JSON, the solver half of a scene file. The keys are the
// struct members in snake_case, one section per struct, at the top level of
// the scene document:
//
//   "solver": "vbd",
//   "step": { "dt", "substeps", "iterations", "gravity", "velocity_damping", "constraints": {...} },
//   "position_based": {...}, "pbd": {...}, "xpbd": {...}, "vbd": {...}, "avbd": { ..., "primal": {...} },
//   "colliders": { "ground": {...}, "spheres": [...], "boxes": [...], "capsules": [...] }
//
// Writing emits every value (a saved file documents all parameters);
// reading accepts any subset, with ranges checked (json_reader.h).
#include <nlohmann/json.hpp>

#include "core/scene/json_reader.h"
#include "core/sim/solver_settings.h"

namespace tetlab {

// Adds the sections above to `out` (an object).
void writeSolverSettings(const SolverSettings& settings, JsonOut& out);

// Reads whichever sections `root` has into `settings`; throws JsonReadError.
void readSolverSettings(JsonObject& root, SolverSettings& settings);

}  // namespace tetlab
