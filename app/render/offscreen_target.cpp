#include "app/render/offscreen_target.h"

#include <algorithm>
#include <string>

namespace tetlab {

namespace {

std::string framebufferStatusText(GLenum status) {
  switch (status) {
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT:
      return "incomplete attachment";
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT:
      return "missing attachment";
    case GL_FRAMEBUFFER_UNSUPPORTED:
      return "unsupported format combination";
    case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE:
      return "inconsistent multisample settings";
    default:
      return "status 0x" + std::to_string(status);
  }
}

}  // namespace

int chooseMsaaSamples(std::string_view glRenderer, int requested) {
  if (requested >= 0) return requested;
  for (std::string_view software : {"llvmpipe", "softpipe", "SwiftShader", "Software Rasterizer"})
    if (glRenderer.find(software) != std::string_view::npos) return 0;
  return 4;
}

Result<OffscreenTarget> OffscreenTarget::create(glm::ivec2 size, int samples) {
  GLint maxSamples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
  OffscreenTarget target;
  target.samples_ = std::clamp(samples, 0, static_cast<int>(maxSamples));
  if (target.samples_ == 1) target.samples_ = 0;
  target.size_ = size;
  if (Status s = target.allocate(); !s) return s.error();
  return target;
}

Status OffscreenTarget::resize(glm::ivec2 size) {
  if (size == size_) return Ok{};
  size_ = size;
  return allocate();
}

Status OffscreenTarget::allocate() {
  GLint maxSize = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
  if (size_.x <= 0 || size_.y <= 0 || size_.x > maxSize || size_.y > maxSize)
    return Error{"cannot create a " + std::to_string(size_.x) + "x" + std::to_string(size_.y) +
                 " framebuffer: the size must be between 1 and " + std::to_string(maxSize) + " pixels"};
  drawFbo_ = makeGlFramebuffer();
  colorMsaa_ = makeGlRenderbuffer();
  depthMsaa_ = makeGlRenderbuffer();
  resolveFbo_ = makeGlFramebuffer();
  resolvedColor_ = makeGlTexture();

  glBindRenderbuffer(GL_RENDERBUFFER, colorMsaa_.id());
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_RGBA8, size_.x, size_.y);
  glBindRenderbuffer(GL_RENDERBUFFER, depthMsaa_.id());
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_DEPTH_COMPONENT24, size_.x, size_.y);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, drawFbo_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colorMsaa_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depthMsaa_.id());
  const GLenum drawStatus = glCheckFramebufferStatus(GL_FRAMEBUFFER);

  glBindTexture(GL_TEXTURE_2D, resolvedColor_.id());
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, size_.x, size_.y, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, resolveFbo_.id());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, resolvedColor_.id(), 0);
  const GLenum resolveStatus = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);

  for (GLenum status : {drawStatus, resolveStatus})
    if (status != GL_FRAMEBUFFER_COMPLETE)
      return Error{"offscreen framebuffer (" + std::to_string(size_.x) + "x" + std::to_string(size_.y) + ", " +
                   std::to_string(samples_) + " samples) is not complete: " + framebufferStatusText(status) +
                   ": the GL driver does not support it; try a smaller --width/--height"};
  return Ok{};
}

void OffscreenTarget::bindForDrawing() const {
  glBindFramebuffer(GL_FRAMEBUFFER, drawFbo_.id());
  glViewport(0, 0, size_.x, size_.y);
}

void OffscreenTarget::resolve() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, drawFbo_.id());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolveFbo_.id());
  glBlitFramebuffer(0, 0, size_.x, size_.y, 0, 0, size_.x, size_.y, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void OffscreenTarget::blitToWindow(glm::ivec2 windowFramebufferSize) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolveFbo_.id());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, size_.x, size_.y, 0, 0, windowFramebufferSize.x, windowFramebufferSize.y, GL_COLOR_BUFFER_BIT,
                    GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

Image OffscreenTarget::readPixels() const {
  Image image;
  image.width = size_.x;
  image.height = size_.y;
  image.rgba.resize(static_cast<size_t>(size_.x) * static_cast<size_t>(size_.y) * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolveFbo_.id());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, size_.x, size_.y, GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  flipRowsInPlace(image);
  // The window's alpha is meaningless (ImGui blends into it); PNGs should be opaque.
  for (size_t i = 3; i < image.rgba.size(); i += 4) image.rgba[i] = 255;
  return image;
}

}  // namespace tetlab
