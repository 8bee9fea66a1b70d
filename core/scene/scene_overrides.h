#pragma once
// Command-line overrides of a scene (the run flags shared by `tetlab` and
// `tetlab run`): whatever is set replaces the file's value, the rest of the
// file stays. Also the scene used when the user gives only an OBJ.
#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "core/scene/scene_desc.h"

namespace tetlab {

struct SceneOverrides {
  std::optional<SolverKind> solver;
  std::optional<float> dt;          // [s] frame time step
  std::optional<int> substeps;      // per frame
  std::optional<int> iterations;    // per substep
  std::optional<float> youngs;      // [Pa], every body
  std::optional<float> poisson;     // [-], every body
  std::optional<float> density;     // [kg/m^3], every body (density regions keep their ratio to it)
  std::optional<uint64_t> seed;
};

// Range checks with messages naming the flag ("--poisson must be in [0, 0.5)").
Status validateOverrides(const SceneOverrides& overrides);

// Applies the set values; a density override scales density regions by the same factor.
void applyOverrides(const SceneOverrides& overrides, SceneDesc& scene);

// One OBJ dropped onto the ground: fitted into a 0.3 m cube, lowest point at
// 0.4 m, soft rubber (E = 100 kPa, nu = 0.3, 1000 kg/m^3), VBD, the camera left
// to the app's automatic fit. meshPath is stored as given.
SceneDesc makeMeshDropScene(const std::string& meshPath, int targetTets = 2000);

}  // namespace tetlab
