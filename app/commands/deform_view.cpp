#include "app/commands/deform_view.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "app/render/camera.h"
#include "app/render/offscreen_target.h"
#include "app/render/renderer.h"
#include "app/window.h"

namespace tetlab {

// Declared in this order so the GL objects go before the window (and its context).
struct DeformPicture::Gl {
  std::unique_ptr<Window> window;
  std::optional<Renderer> renderer;
  std::optional<OffscreenTarget> target;
  std::vector<GpuMesh> meshes;  // rest, animated, solved
  OrbitCamera camera;
  glm::vec3 offset[3];          // per body: its place on the ground
  glm::ivec2 size{0};
  std::vector<glm::vec3> scratch;
};

DeformPicture::DeformPicture() : gl_(std::make_unique<Gl>()) {}
DeformPicture::~DeformPicture() = default;

Result<std::unique_ptr<DeformPicture>> DeformPicture::create(const SurfaceMesh& rest, glm::ivec2 size) {
  std::unique_ptr<DeformPicture> p(new DeformPicture());
  Gl& g = *p->gl_;
  WindowOptions options;
  options.width = size.x;
  options.height = size.y;
  options.visible = false;
  options.vsync = false;
  options.title = "tetlab deform";
  Result<std::unique_ptr<Window>> window = Window::create(options);
  if (!window) return window.error();
  g.window = std::move(*window);
  Result<Renderer> renderer = Renderer::create();
  if (!renderer) return renderer.error();
  g.renderer.emplace(std::move(*renderer));
  Result<OffscreenTarget> target = OffscreenTarget::create(size, 0);
  if (!target) return target.error();
  g.target.emplace(std::move(*target));
  g.size = size;

  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& q : rest.positions) {
    lo = glm::min(lo, q);
    hi = glm::max(hi, q);
  }
  const float spacing = 1.3f * std::max(hi.x - lo.x, hi.z - lo.z);
  for (int i = 0; i < 3; ++i) g.offset[i] = glm::vec3(float(i - 1) * spacing, -lo.y, 0.0f);
  for (int i = 0; i < 3; ++i) {
    Result<GpuMesh> mesh = GpuMesh::create(rest);
    if (!mesh) return mesh.error();
    g.meshes.push_back(std::move(*mesh));
  }
  // The rest body never moves: put it in its place once.
  g.scratch = rest.positions;
  for (glm::vec3& q : g.scratch) q += g.offset[0];
  if (Status s = g.meshes[0].updatePositions(g.scratch); !s) return s.error();
  const glm::vec3 sceneLo = lo + g.offset[0], sceneHi = hi + g.offset[2];
  // Face the row from the front, a little above, close enough that the row
  // fills the width (a bounding-sphere fit leaves a wide row small).
  g.camera.fitToBounds(sceneLo, sceneHi, float(size.x) / float(size.y));
  g.camera.yaw = 0.0f;
  g.camera.pitch = 0.12f;
  g.camera.target = 0.5f * (sceneLo + sceneHi);
  const float tanY = std::tan(0.5f * g.camera.fovY), tanX = tanY * float(size.x) / float(size.y);
  const glm::vec3 half = 0.5f * (sceneHi - sceneLo);
  g.camera.distance = 1.12f * std::max(half.x / tanX, half.y / tanY) + half.z;
  return p;
}

Result<Image> DeformPicture::draw(std::span<const glm::vec3> animated, std::span<const glm::vec3> solved) {
  Gl& g = *gl_;
  const std::span<const glm::vec3> bodies[2] = {animated, solved};
  for (int i = 1; i < 3; ++i) {
    g.scratch.assign(bodies[i - 1].begin(), bodies[i - 1].end());
    for (glm::vec3& q : g.scratch) q += g.offset[i];
    if (Status s = g.meshes[size_t(i)].updatePositions(g.scratch); !s) return s.error();
  }
  g.target->bindForDrawing();
  const GpuMesh* meshes[3] = {&g.meshes[0], &g.meshes[1], &g.meshes[2]};
  const glm::vec3 colors[3] = {kRestColor, kAnimatedColor, kSolvedColor};
  RenderSettings settings;
  g.renderer->render(g.camera, g.size, meshes, settings, colors);
  g.target->resolve();
  return g.target->readPixels();
}

}  // namespace tetlab
