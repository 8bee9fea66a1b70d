#pragma once
// The deformer's picture (issue 15 item 2's output): the rest surface (blue),
// the animated input (red) and the solved surface (green) side by side on the
// ground, in a hidden window's offscreen target, for `tetlab deform
// --screenshot` and `--record`. Each body keeps its own place, lifted so the
// rest pose stands on the ground:
//
//     [ rest ]   [ animated ]   [ solved ]      x: -D, 0, +D (D = 1.3 x the body's width)
#include <memory>
#include <span>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "app/output/screenshot.h"
#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

// sRGB colours of the three bodies.
inline constexpr glm::vec3 kRestColor{0.30f, 0.50f, 0.90f};
inline constexpr glm::vec3 kAnimatedColor{0.88f, 0.30f, 0.26f};
inline constexpr glm::vec3 kSolvedColor{0.30f, 0.78f, 0.36f};

class DeformPicture {
 public:
  // Opens a hidden window (needs a display: xvfb-run headless).
  static Result<std::unique_ptr<DeformPicture>> create(const SurfaceMesh& rest, glm::ivec2 size);
  ~DeformPicture();
  DeformPicture(const DeformPicture&) = delete;
  DeformPicture& operator=(const DeformPicture&) = delete;

  // Draws the three bodies (animated and solved in the rest mesh's vertex order).
  Result<Image> draw(std::span<const glm::vec3> animated, std::span<const glm::vec3> solved);

 private:
  DeformPicture();
  struct Gl;
  std::unique_ptr<Gl> gl_;
};

}  // namespace tetlab
