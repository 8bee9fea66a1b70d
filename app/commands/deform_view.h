#pragma once
// The deformer's picture (issue 15 item 2's output): the rest surface (blue),
// the animated input (red) and the solved surface (green) side by side on the
// ground, lifted so the rest pose stands on it:
//
//     [ rest ]   [ animated ]   [ solved ]      x: -D, 0, +D (D = 1.3 x the body's width)
//
// or overlaid in one place (the solved body shaded, the others as ghosts).
//
// DeformRow draws the row with any renderer (the window's deformer mode);
// DeformPicture wraps it in a hidden window and an offscreen target for
// `tetlab deform --screenshot` and `--record`.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "app/output/screenshot.h"
#include "app/render/picking.h"
#include "app/render/renderer.h"
#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

// sRGB colours of the three bodies.
inline constexpr glm::vec3 kRestColor{0.30f, 0.50f, 0.90f};
inline constexpr glm::vec3 kAnimatedColor{0.88f, 0.30f, 0.26f};
inline constexpr glm::vec3 kSolvedColor{0.30f, 0.78f, 0.36f};
inline constexpr float kGhostOpacity = 0.35f;  // the overlay's see-through bodies

// Side by side (the row above), or overlaid: the solved body shaded and the
// animated and rest bodies as see-through ghosts over it, all in one place.
enum class DeformLayout : uint8_t { SideBySide, Overlay };

class DeformRow {
 public:
  // Needs a current GL context.
  static Result<DeformRow> create(const SurfaceMesh& rest, DeformLayout layout = DeformLayout::SideBySide);
  DeformLayout layout() const { return layout_; }
  // Animated and solved positions in the rest mesh's vertex order.
  Status update(std::span<const glm::vec3> animated, std::span<const glm::vec3> solved);
  // show: rest, animated, solved.
  void draw(const Renderer& renderer, const OrbitCamera& camera, glm::ivec2 size, const RenderSettings& settings,
            const std::array<bool, 3>& show) const;
  // Faces the row from the front, a little above, close enough that it fills the width.
  void frame(OrbitCamera& camera, float aspect) const;
  // Where body i (0 rest, 1 animated, 2 solved) is drawn: its positions plus this [m].
  glm::vec3 offset(size_t body) const { return offsets_[body]; }
  // The nearest shown body under the ray, as the REST-space point of the hit
  // (the hit's barycentrics on the rest triangle): what a brush or a region
  // picks, whichever body was clicked. nullopt on a miss.
  std::optional<glm::vec3> pickRestPoint(const Ray& ray, const SurfaceMesh& rest, std::span<const glm::vec3> animated,
                                         std::span<const glm::vec3> solved, const std::array<bool, 3>& show) const;

 private:
  DeformRow() = default;
  DeformLayout layout_ = DeformLayout::SideBySide;
  std::vector<GpuMesh> meshes_;  // rest, animated, solved
  std::array<glm::vec3, 3> offsets_{};
  glm::vec3 lo_{0.0f}, hi_{0.0f};  // the rest mesh's bounds
  std::vector<glm::vec3> scratch_;
  std::array<std::vector<glm::vec3>, 2> uploaded_;  // the animated and solved positions last uploaded
};

class DeformPicture {
 public:
  // Opens a hidden window (needs a display: xvfb-run headless).
  static Result<std::unique_ptr<DeformPicture>> create(const SurfaceMesh& rest, glm::ivec2 size,
                                                       DeformLayout layout = DeformLayout::SideBySide);
  ~DeformPicture();
  DeformPicture(const DeformPicture&) = delete;
  DeformPicture& operator=(const DeformPicture&) = delete;

  Result<Image> draw(std::span<const glm::vec3> animated, std::span<const glm::vec3> solved);

 private:
  DeformPicture();
  struct Gl;
  std::unique_ptr<Gl> gl_;
};

}  // namespace tetlab
