// Orbit camera maths and its mouse bindings.
#include "app/render/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace tetlab {

glm::vec3 OrbitCamera::forward() const {
  const float c = std::cos(pitch);
  return -glm::vec3(c * std::sin(yaw), std::sin(pitch), c * std::cos(yaw));
}

glm::vec3 OrbitCamera::eye() const { return target - distance * forward(); }

glm::vec3 OrbitCamera::right() const {
  // Horizontal by construction (pitch never reaches 90 degrees), so it never degenerates.
  return glm::vec3(std::cos(yaw), 0.0f, -std::sin(yaw));
}

glm::vec3 OrbitCamera::up() const { return glm::cross(right(), forward()); }

glm::mat4 OrbitCamera::viewMatrix() const { return glm::lookAt(eye(), target, glm::vec3(0.0f, 1.0f, 0.0f)); }

glm::mat4 OrbitCamera::projectionMatrix(float aspect) const {
  const float nearPlane = std::max(distance * 0.01f, 1e-4f);
  const float farPlane = distance * 200.0f + 10.0f;
  const glm::mat4 projection = glm::perspective(fovY, aspect > 0.0f ? aspect : 1.0f, nearPlane, farPlane);
  // Translating clip space by lensShift * w moves every NDC point by lensShift (an off-axis frustum).
  return glm::translate(glm::mat4(1.0f), glm::vec3(lensShift, 0.0f)) * projection;
}

void OrbitCamera::orbit(float deltaYaw, float deltaPitch) {
  constexpr float kTwoPi = 6.28318530718f;
  yaw = std::remainder(yaw + deltaYaw, kTwoPi);
  pitch = std::clamp(pitch + deltaPitch, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(glm::vec2 deltaPixels, float viewportHeight) {
  if (viewportHeight <= 0.0f) return;
  // Height of the view frustum at the target's depth, per pixel.
  const float metresPerPixel = 2.0f * distance * std::tan(0.5f * fovY) / viewportHeight;
  // Window y grows downwards; moving the target against the drag moves the scene with it.
  target += (-deltaPixels.x * right() + deltaPixels.y * up()) * metresPerPixel;
}

void OrbitCamera::zoom(float steps) {
  distance = std::clamp(distance * std::pow(kZoomPerStep, -steps), minDistance, maxDistance);
}

void OrbitCamera::fitToBounds(const glm::vec3& boundsMin, const glm::vec3& boundsMax, float aspect) {
  target = 0.5f * (boundsMin + boundsMax);
  const float radius = std::max(0.5f * glm::length(boundsMax - boundsMin), 1e-3f);
  // The shifted principal point leaves 1 - |shift| of NDC on its narrower side.
  const float freeX = std::max(1.0f - std::abs(lensShift.x), 0.05f);
  const float freeY = std::max(1.0f - std::abs(lensShift.y), 0.05f);
  const float halfFovY = std::atan(std::tan(0.5f * fovY) * freeY);
  const float halfFovX = std::atan(std::tan(0.5f * fovY) * (aspect > 0.0f ? aspect : 1.0f) * freeX);
  const float halfFov = std::min(halfFovY, halfFovX);
  // A sphere of radius r is inside a cone of half-angle a when the distance is r / sin(a).
  distance = kFitMargin * radius / std::sin(halfFov);
  minDistance = 0.05f * radius;
  maxDistance = 100.0f * distance;
}

void extendToLanding(bool groundEnabled, float groundHeight, const glm::vec3& gravity, glm::vec3& boundsMin,
                     glm::vec3& boundsMax) {
  if (!groundEnabled || !(gravity.y < 0.0f) || !(boundsMin.y > groundHeight)) return;
  // The body keeps its height when it lands: its top ends at ground + height.
  boundsMin.y = groundHeight;
  boundsMax.y = std::max(boundsMax.y, groundHeight);
}

bool CameraController::handle(const InputEvent& event, bool uiWantsMouse, float viewportHeight, OrbitCamera& camera) {
  switch (event.type) {
    case InputEvent::Type::kButtonPress:
      if (mode_ != Mode::kNone || uiWantsMouse) return false;
      mode_ = event.button == MouseButton::kLeft ? Mode::kOrbit : Mode::kPan;
      dragButton_ = event.button;
      lastCursor_ = event.cursor;
      return false;
    case InputEvent::Type::kButtonRelease:
      if (mode_ != Mode::kNone && event.button == dragButton_) mode_ = Mode::kNone;
      return false;
    case InputEvent::Type::kCursorMove: {
      const glm::vec2 delta = event.cursor - lastCursor_;
      lastCursor_ = event.cursor;
      if (mode_ == Mode::kOrbit) {
        // Dragging right turns the body to the right (the eye moves left); dragging down shows its top.
        camera.orbit(-delta.x * kOrbitRadiansPerPixel, delta.y * kOrbitRadiansPerPixel);
        return true;
      }
      if (mode_ == Mode::kPan) {
        camera.pan(delta, viewportHeight);
        return true;
      }
      return false;
    }
    case InputEvent::Type::kScroll:
      if (uiWantsMouse || event.scroll == 0.0f) return false;
      camera.zoom(event.scroll);
      return true;
    case InputEvent::Type::kKeyPress:
    case InputEvent::Type::kDrop:
      return false;
  }
  return false;
}

}  // namespace tetlab
