#pragma once
// The framebuffer every frame is drawn into, headless or not: a multisampled
// colour+depth target that is resolved into a plain RGBA texture. Headless
// runs read that texture back for PNGs; windowed runs blit it to the window.
// One path for both means a screenshot test sees exactly what a user sees.
//
//   scene + ImGui -> [MSAA colour + depth] --resolve--> [RGBA8 texture] --blit--> window
//                                                              '--read--> Image -> PNG
#include <string_view>

#include <glm/vec2.hpp>

#include "app/render/gl_resources.h"
#include "app/output/screenshot.h"
#include "core/result.h"

namespace tetlab {

// MSAA sample count for a GL_RENDERER string: `requested` when >= 0, else 4 on
// GPUs and 0 on software rasterisers (llvmpipe, softpipe, SwiftShader), where
// 4x MSAA made a 1280x720 frame about 5x slower (136 vs 28 ms on 2 CPU cores);
// the grid anti-aliases itself in the shader, so only silhouettes lose.
int chooseMsaaSamples(std::string_view glRenderer, int requested);

class OffscreenTarget {
 public:
  // samples is clamped to what the driver supports (GL_MAX_SAMPLES); 0 or 1 disables MSAA.
  static Result<OffscreenTarget> create(glm::ivec2 size, int samples);

  // Re-creates the attachments when the size changed (window resize).
  Status resize(glm::ivec2 size);

  void bindForDrawing() const;
  // Resolves MSAA into the texture; call after the frame (scene + UI) is drawn.
  void resolve() const;
  // Copies the resolved frame into the window's back buffer (framebuffer 0).
  void blitToWindow(glm::ivec2 windowFramebufferSize) const;
  // Reads the resolved frame (after resolve()) into a top-down RGBA image.
  Image readPixels() const;

  glm::ivec2 size() const { return size_; }
  int samples() const { return samples_; }

 private:
  Status allocate();

  glm::ivec2 size_{0};
  int samples_ = 0;
  GlFramebuffer drawFbo_;
  GlRenderbuffer colorMsaa_;
  GlRenderbuffer depthMsaa_;
  GlFramebuffer resolveFbo_;
  GlTexture resolvedColor_;
};

}  // namespace tetlab
