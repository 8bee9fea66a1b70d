#include "core/scene/scene_overrides.h"

#include <cmath>
#include <filesystem>

namespace tetlab {

Status validateOverrides(const SceneOverrides& o) {
  if (o.dt && !(*o.dt > 0.0f && *o.dt <= 1.0f)) return Error{"--dt must be in (0, 1] seconds per frame"};
  if (o.substeps && (*o.substeps < 1 || *o.substeps > 10000)) return Error{"--substeps must be 1..10000"};
  if (o.iterations && (*o.iterations < 1 || *o.iterations > 10000)) return Error{"--iterations must be 1..10000"};
  // A float flag beyond 3.4e38 arrives as inf: finite is part of every range.
  if (o.youngs && !(*o.youngs > 0.0f && std::isfinite(*o.youngs)))
    return Error{"--youngs must be a finite positive number of Pa (e.g. 1e6), got " + std::to_string(*o.youngs)};
  if (o.poisson && !(*o.poisson >= 0.0f && *o.poisson < 0.5f)) return Error{"--poisson must be in [0, 0.5)"};
  if (o.density && !(*o.density > 0.0f && std::isfinite(*o.density)))
    return Error{"--density must be a finite positive number of kg/m^3 (e.g. 1000), got " +
                 std::to_string(*o.density)};
  return Ok{};
}

void applyOverrides(const SceneOverrides& o, SceneDesc& scene) {
  if (o.solver) scene.settings.solver = *o.solver;
  if (o.dt) scene.settings.step.dt = *o.dt;
  if (o.substeps) scene.settings.step.substeps = *o.substeps;
  if (o.iterations) scene.settings.step.iterations = *o.iterations;
  if (o.gpuSchedule) scene.settings.step.gpuSchedule = *o.gpuSchedule;
  if (o.xpbdModel) selectXpbdElasticModel(*o.xpbdModel, scene.settings.step.constraints);
  if (o.seed) scene.seed = *o.seed;
  for (BodySpec& b : scene.bodies) {
    if (o.youngs) b.material.youngsModulus = *o.youngs;
    if (o.poisson) b.material.poissonRatio = *o.poisson;
    if (o.density) {
      const float factor = *o.density / b.material.density;
      for (DensityRegion& d : b.densityRegions) d.density *= factor;
      b.material.density = *o.density;
    }
  }
}

}  // namespace tetlab
