#include "core/sim/presets.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/state_setup.h"

namespace tetlab {

std::vector<std::string> presetNames() { return {"beam", "drop", "hang"}; }

Material presetDefaultMaterial(std::string_view name) {
  Material m;
  m.youngsModulus = name == "beam" ? 1.0e7f : 1.0e5f;
  m.poissonRatio = 0.3f;
  m.density = 1000.0f;
  return m;
}

Result<Scene> makePresetScene(std::string_view name, const PresetOptions& options) {
  if (options.cellsThick < 1 || options.cellsThick > 64)
    return Error{"preset '" + std::string(name) + "': cells through the thickness must be 1..64, got " +
                 std::to_string(options.cellsThick)};
  const uint32_t N = options.cellsThick;
  Scene scene;
  scene.name = std::string(name);
  BodyDesc body;
  body.material = options.material;
  body.name = scene.name;
  // Pins are chosen by rest position with a tolerance relative to the cell size.
  std::function<bool(glm::vec3)> pin;
  if (name == "beam") {
    const float t = 0.1f;
    body.mesh = makeBoxTetMesh({0.0f, -0.5f * t, -0.5f * t}, {1.0f, t, t}, {10 * N, N, N}, CubeSplit::SixSymmetric);
    const float tol = 1e-3f * t / float(N);
    pin = [tol](glm::vec3 p) { return p.x <= tol; };
    scene.settings.colliders.ground.enabled = false;
  } else if (name == "drop") {
    const float r = 0.1f;
    body.mesh = makeSphereTetMesh({0.0f, 0.5f + r, 0.0f}, r, 2 * N);
  } else if (name == "hang") {
    const glm::vec3 lo{0.0f, 0.4f, 0.0f}, size{0.6f, 0.6f, 0.03f};
    body.mesh = makeBoxTetMesh(lo, size, {8 * N, 8 * N, N}, CubeSplit::SixSymmetric);
    const float tol = 1e-3f * size.x / float(8 * N);
    pin = [=](glm::vec3 p) {
      return p.y >= lo.y + size.y - tol && (p.x <= lo.x + tol || p.x >= lo.x + size.x - tol);
    };
  } else {
    std::string known;
    for (const std::string& n : presetNames()) known += (known.empty() ? "" : ", ") + n;
    return Error{"unknown preset '" + std::string(name) + "'; known presets: " + known};
  }
  Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  if (!model) return Error{"preset '" + scene.name + "': " + model.error().message};
  scene.model = std::move(model).value();
  if (pin)
    for (uint32_t i = 0; i < scene.model.vertexCount(); ++i)
      if (pin(scene.model.restPositions[i])) scene.pinned.push_back(i);
  return scene;
}

State makeSceneState(const Scene& scene) {
  State state = makeState(scene.model);
  pinVertices(state, scene.pinned);
  return state;
}

}  // namespace tetlab
