#include "app/commands/deform_view.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "app/render/camera.h"
#include "app/render/offscreen_target.h"
#include "app/window.h"

namespace tetlab {

Result<DeformRow> DeformRow::create(const SurfaceMesh& rest, DeformLayout layout) {
  DeformRow row;
  row.layout_ = layout;
  row.lo_ = glm::vec3(1e30f);
  row.hi_ = glm::vec3(-1e30f);
  for (const glm::vec3& q : rest.positions) {
    row.lo_ = glm::min(row.lo_, q);
    row.hi_ = glm::max(row.hi_, q);
  }
  const float spacing =
      layout == DeformLayout::Overlay ? 0.0f : 1.3f * std::max(row.hi_.x - row.lo_.x, row.hi_.z - row.lo_.z);
  for (int i = 0; i < 3; ++i) row.offsets_[size_t(i)] = glm::vec3(float(i - 1) * spacing, -row.lo_.y, 0.0f);
  for (int i = 0; i < 3; ++i) {
    Result<GpuMesh> mesh = GpuMesh::create(rest);
    if (!mesh) return mesh.error();
    row.meshes_.push_back(std::move(*mesh));
  }
  // Every body starts as the rest pose in its place; the rest body never moves again.
  for (size_t i = 0; i < 3; ++i) {
    row.scratch_ = rest.positions;
    for (glm::vec3& q : row.scratch_) q += row.offsets_[i];
    if (Status s = row.meshes_[i].updatePositions(row.scratch_); !s) return s.error();
  }
  return row;
}

Status DeformRow::update(std::span<const glm::vec3> animated, std::span<const glm::vec3> solved) {
  const std::span<const glm::vec3> bodies[2] = {animated, solved};
  for (size_t i = 1; i < 3; ++i) {
    // The window calls this every frame; a frame changes them only when it is
    // shown or solved anew, so unchanged positions cost a compare, not normals and an upload.
    std::vector<glm::vec3>& last = uploaded_[i - 1];
    if (std::equal(last.begin(), last.end(), bodies[i - 1].begin(), bodies[i - 1].end())) continue;
    last.assign(bodies[i - 1].begin(), bodies[i - 1].end());
    scratch_.assign(bodies[i - 1].begin(), bodies[i - 1].end());
    for (glm::vec3& q : scratch_) q += offsets_[i];
    if (Status s = meshes_[i].updatePositions(scratch_); !s) return s;
  }
  return Ok{};
}

void DeformRow::draw(const Renderer& renderer, const OrbitCamera& camera, glm::ivec2 size,
                     const RenderSettings& settings, const std::array<bool, 3>& show) const {
  const glm::vec3 colors[3] = {kRestColor, kAnimatedColor, kSolvedColor};
  if (layout_ == DeformLayout::Overlay) {
    // The solved body shaded (or, hidden, whichever comes first), the others as ghosts over it.
    const int base = show[2] ? 2 : show[1] ? 1 : show[0] ? 0 : -1;
    const GpuMesh* shaded[1] = {base >= 0 ? &meshes_[size_t(base)] : nullptr};
    const glm::vec3 shadedColor[1] = {base >= 0 ? colors[base] : kSolvedColor};
    renderer.render(camera, size, shaded, settings, shadedColor);
    const GpuMesh* ghosts[3];
    for (size_t i = 0; i < 3; ++i) ghosts[i] = show[i] && int(i) != base ? &meshes_[i] : nullptr;
    renderer.renderGhostMeshes(camera, size, ghosts, settings, colors, kGhostOpacity);
    return;
  }
  const GpuMesh* meshes[3];
  for (size_t i = 0; i < 3; ++i) meshes[i] = show[i] ? &meshes_[i] : nullptr;
  renderer.render(camera, size, meshes, settings, colors);
}

std::optional<glm::vec3> DeformRow::pickRestPoint(const Ray& ray, const SurfaceMesh& rest,
                                                  std::span<const glm::vec3> animated, std::span<const glm::vec3> solved,
                                                  const std::array<bool, 3>& show) const {
  const std::span<const glm::vec3> bodies[3] = {rest.positions, animated, solved};
  std::optional<SurfaceHit> best;
  for (size_t i = 0; i < 3; ++i) {
    if (!show[i] || bodies[i].size() != rest.positions.size()) continue;
    // The ray moved into the body's own frame instead of the body into the ray's.
    const Ray local{ray.origin - offsets_[i], ray.direction};
    std::optional<SurfaceHit> hit = pickSurface(local, bodies[i], rest.triangles);
    if (hit && (!best || hit->t < best->t)) best = hit;
  }
  if (!best) return std::nullopt;
  const glm::uvec3 t = rest.triangles[best->triangle];
  return best->barycentric.x * rest.positions[t.x] + best->barycentric.y * rest.positions[t.y] +
         best->barycentric.z * rest.positions[t.z];
}

void DeformRow::frame(OrbitCamera& camera, float aspect) const {
  const glm::vec3 sceneLo = lo_ + offsets_[0], sceneHi = hi_ + offsets_[2];
  // fitToBounds sets the zoom limits; its bounding-sphere fit leaves a wide row small.
  camera.fitToBounds(sceneLo, sceneHi, aspect);
  camera.yaw = 0.0f;
  camera.pitch = 0.12f;
  camera.target = 0.5f * (sceneLo + sceneHi);
  // A lens shift s (the window's side panel) leaves 1 - |s| of the half-width free.
  const float tanY = std::tan(0.5f * camera.fovY),
              tanX = tanY * aspect * std::max(1.0f - std::abs(camera.lensShift.x), 0.2f);
  const glm::vec3 half = 0.5f * (sceneHi - sceneLo);
  camera.distance = 1.12f * std::max(half.x / tanX, half.y / tanY) + half.z;
}

// Declared in this order so the GL objects go before the window (and its context).
struct DeformPicture::Gl {
  std::unique_ptr<Window> window;
  std::optional<Renderer> renderer;
  std::optional<OffscreenTarget> target;
  std::optional<DeformRow> row;
  OrbitCamera camera;
  glm::ivec2 size{0};
};

DeformPicture::DeformPicture() : gl_(std::make_unique<Gl>()) {}
DeformPicture::~DeformPicture() = default;

Result<std::unique_ptr<DeformPicture>> DeformPicture::create(const SurfaceMesh& rest, glm::ivec2 size,
                                                             DeformLayout layout) {
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
  Result<DeformRow> row = DeformRow::create(rest, layout);
  if (!row) return row.error();
  g.row.emplace(std::move(*row));
  g.size = size;
  g.row->frame(g.camera, float(size.x) / float(size.y));
  return p;
}

Result<Image> DeformPicture::draw(std::span<const glm::vec3> animated, std::span<const glm::vec3> solved) {
  Gl& g = *gl_;
  if (Status s = g.row->update(animated, solved); !s) return s.error();
  g.target->bindForDrawing();
  g.row->draw(*g.renderer, g.camera, g.size, RenderSettings{}, {true, true, true});
  g.target->resolve();
  return g.target->readPixels();
}

}  // namespace tetlab
