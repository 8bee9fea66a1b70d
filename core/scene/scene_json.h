#pragma once
// Scene files: a SceneDesc as human-readable JSON (nlohmann::json).
//
//   {
//     "format": "tetlab-scene", "version": 1,
//     "name": "...", "description": "...", "seed": 1,
//     "bodies": [ { "name": "bunny", "mesh": "meshes/bunny_10k.obj", "fit_size": 0.3,
//                   "tets": { "target_tets": 3000, ... },        (or "box" / "sphere" / "torus": {...})
//                   "transform": { "translate": [0, 0, 0], "rotate_deg": [0, 0, 0], "scale": 1, "lift_to": 0.3 },
//                   "material": { "youngs_modulus": 1e5, "poisson_ratio": 0.3, "density": 1000, "damping": 0 },
//                   "pins": [ { "min": [..], "max": [..] } ], "initial_velocity": [0, 0, 0],
//                   "springs": [ { "attach": [..], "radius": 0.05, "anchor": [..], "stiffness": 2000,
//                                  "rest_length": 0.5, "break_force": 300, "break_strain": 0 } ] } ],
//     "pinned_vertices": [], "unpinned_vertices": [],
//     "solver": "vbd", "step": {...}, "pbd": {...}, ..., "colliders": {...}   (settings_json.h)
//     "camera": { "target": [..], "distance": 2, "yaw_deg": 30, "pitch_deg": 20 },
//     "mouse": { "stiffness": 0, "max_force": 0 }
//   }
//
// Every key except "bodies" is optional (struct defaults apply). Saving writes
// every value, so a saved file lists all parameters. Errors name the file, the
// JSON Pointer of the bad value and what to write instead.
#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/scene/scene_desc.h"

namespace tetlab {

inline constexpr const char* kSceneFormat = "tetlab-scene";
inline constexpr int kSceneFormatVersion = 1;

// Kept free of nlohmann/json.hpp, which costs every includer seconds of
// compile time: the JSON values stay inside scene_json.cpp.
std::string sceneToJsonText(const SceneDesc& scene);

// sourceName names the document in errors (a file path, "<clipboard>", ...).
Result<SceneDesc> parseSceneJson(std::string_view text, const std::string& sourceName);

Result<SceneDesc> loadSceneFile(const std::filesystem::path& path);
// Writes atomically (temporary file, then rename); creates missing folders.
Status saveSceneFile(const std::filesystem::path& path, const SceneDesc& scene);

}  // namespace tetlab
