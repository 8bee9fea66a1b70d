#pragma once
// Command-line overrides of a scene (the run flags shared by `tetlab` and
// `tetlab run`): whatever is set replaces the file's value, the rest of the
// file stays.
#include <cstdint>
#include <optional>
#include <string>

#include "core/cpu/xpbd_solver.h"
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
  std::optional<GpuSchedule> gpuSchedule;  // OpenCL launch schedule (step.gpu_schedule)
  // XPBD's per-tet elastic model (selectXpbdElasticModel: NeoHookean or StrainBased)
  std::optional<XpbdElasticModel> xpbdModel;
};

// Range checks with messages naming the flag ("--poisson must be in [0, 0.5)").
Status validateOverrides(const SceneOverrides& overrides);

// Applies the set values; a density override scales density regions by the same factor.
void applyOverrides(const SceneOverrides& overrides, SceneDesc& scene);

}  // namespace tetlab
