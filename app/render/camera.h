#pragma once
// Orbit camera: the eye sits on a sphere around a target point, described by
// yaw (around world +y), pitch (elevation) and distance. This keeps "up" fixed
// (no roll creeps in while orbiting) and makes orbit/pan/zoom three independent
// one-liners. OrbitCamera is pure maths (unit-tested); CameraController maps
// mouse events onto it.
//
//            +y
//             |   eye = target + distance * (cos(p) sin(y), sin(p), cos(p) cos(y))
//             |  /
//     target  o------ +x
//            /
//          +z
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "app/input_events.h"

namespace tetlab {

struct OrbitCamera {
  glm::vec3 target{0.0f};
  float distance = 3.0f;      // [m] eye to target
  float yaw = 0.6f;           // [rad] around +y; 0 = eye on +z
  float pitch = 0.35f;        // [rad] elevation; positive looks down on the target
  float fovY = 0.7854f;       // [rad] vertical field of view (45 degrees)
  float minDistance = 0.01f;  // [m] zoom limits, reset by fitToBounds
  float maxDistance = 1000.0f;
  // Where the target appears on screen, as a shift of the principal point in
  // NDC (0 = window centre). Lets the view centre on the part of the window
  // not covered by the side panel without clipping the rendering to it.
  glm::vec2 lensShift{0.0f};

  static constexpr float kMaxPitch = 1.5533f;  // 89 degrees: never look straight down (up vector degenerates)

  glm::vec3 eye() const;
  glm::vec3 forward() const;  // unit, from eye to target
  glm::vec3 right() const;    // unit, screen right
  glm::vec3 up() const;       // unit, screen up
  glm::mat4 viewMatrix() const;
  // Near/far planes scale with distance so depth precision follows the zoom.
  // aspect is the whole viewport's width / height; lensShift is applied.
  glm::mat4 projectionMatrix(float aspect) const;

  // Angles in radians; pitch is clamped to +-kMaxPitch.
  void orbit(float deltaYaw, float deltaPitch);
  // Moves the target in the view plane by a screen-space drag in pixels so the
  // point under the cursor at the target's depth follows the cursor.
  void pan(glm::vec2 deltaPixels, float viewportHeight);
  // Positive steps move closer: distance *= kZoomPerStep^-steps, clamped to [minDistance, maxDistance].
  void zoom(float steps);
  // Looks at the box centre from the current direction, from the distance at
  // which its bounding sphere fits the narrower field of view (with a margin).
  // aspect is the whole viewport's; with a lens shift s the sphere must fit
  // the narrower side, i.e. NDC x in [s - (1 - |s|), s + (1 - |s|)].
  void fitToBounds(const glm::vec3& boundsMin, const glm::vec3& boundsMax, float aspect);

  static constexpr float kZoomPerStep = 1.15f;
  static constexpr float kFitMargin = 1.1f;
};

// Mouse bindings: left-drag orbits, right- or middle-drag pans, wheel zooms.
// A drag that starts over the UI (uiWantsMouse) is ignored until released, so
// moving an ImGui slider never also spins the camera.
class CameraController {
 public:
  static constexpr float kOrbitRadiansPerPixel = 0.008f;

  // Returns true when the event changed the camera.
  bool handle(const InputEvent& event, bool uiWantsMouse, float viewportHeight, OrbitCamera& camera);
  bool dragging() const { return mode_ != Mode::kNone; }

 private:
  enum class Mode { kNone, kOrbit, kPan };
  Mode mode_ = Mode::kNone;
  MouseButton dragButton_ = MouseButton::kLeft;
  glm::vec2 lastCursor_{0.0f};
};

// The bounds a dropped body will sweep: `boundsMin..boundsMax` extended down to
// the ground plane when the ground is on and gravity pulls down (-y) towards it,
// so the first automatic fit frames the body from where it starts to where it
// lands (an OBJ drop starts 40 cm up; fitting only the start left it at the
// bottom edge after the fall). Unchanged otherwise.
void extendToLanding(bool groundEnabled, float groundHeight, const glm::vec3& gravity, glm::vec3& boundsMin,
                     glm::vec3& boundsMax);

}  // namespace tetlab
