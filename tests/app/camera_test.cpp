// Orbit camera maths: invariants of orbit/zoom/pan and the fit-to-bounds guarantee.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include "app/render/camera.h"
#include "app/render/offscreen_target.h"
#include "app/ui/ui_panel.h"

namespace tetlab {
namespace {

glm::vec3 projectToNdc(const OrbitCamera& camera, float aspect, const glm::vec3& p) {
  const glm::vec4 clip = camera.projectionMatrix(aspect) * camera.viewMatrix() * glm::vec4(p, 1.0f);
  return glm::vec3(clip) / clip.w;
}

// A body dropped from 0.4 m: the first fit spans the ground to its top, so it
// stays in frame after it lands; nothing changes without a ground below it or
// without gravity pulling it down.
TEST(OrbitCamera, FirstFitExtendsToWhereTheBodyLands) {
  const glm::vec3 down(0.0f, -9.81f, 0.0f);
  glm::vec3 lo(-0.15f, 0.4f, -0.15f), hi(0.15f, 0.7f, 0.15f);
  extendToLanding(true, 0.0f, down, lo, hi);
  EXPECT_EQ(lo, glm::vec3(-0.15f, 0.0f, -0.15f));
  EXPECT_EQ(hi, glm::vec3(0.15f, 0.7f, 0.15f));

  for (auto [ground, gravity] : {std::pair{false, down}, std::pair{true, glm::vec3(0.0f)},
                                 std::pair{true, glm::vec3(0.0f, 9.81f, 0.0f)}}) {
    glm::vec3 a(-0.15f, 0.4f, -0.15f), b(0.15f, 0.7f, 0.15f);
    extendToLanding(ground, 0.0f, gravity, a, b);
    EXPECT_EQ(a.y, 0.4f);
    EXPECT_EQ(b.y, 0.7f);
  }
  glm::vec3 resting(-0.1f, 0.0f, -0.1f), top(0.1f, 0.2f, 0.1f);  // already on the ground
  extendToLanding(true, 0.0f, down, resting, top);
  EXPECT_EQ(resting.y, 0.0f);
  EXPECT_EQ(top.y, 0.2f);
}

TEST(OrbitCamera, BasisIsOrthonormalAndLooksAtTarget) {
  OrbitCamera camera;
  camera.target = {0.3f, -1.0f, 2.0f};
  for (float yaw : {-2.5f, 0.0f, 1.0f, 3.0f})
    for (float pitch : {-1.2f, 0.0f, 0.7f}) {
      camera.yaw = yaw;
      camera.pitch = pitch;
      const glm::vec3 f = camera.forward(), r = camera.right(), u = camera.up();
      EXPECT_NEAR(glm::length(f), 1.0f, 1e-5f);
      EXPECT_NEAR(glm::length(r), 1.0f, 1e-5f);
      EXPECT_NEAR(glm::length(u), 1.0f, 1e-5f);
      EXPECT_NEAR(glm::dot(f, r), 0.0f, 1e-5f);
      EXPECT_NEAR(glm::dot(f, u), 0.0f, 1e-5f);
      EXPECT_NEAR(glm::dot(r, u), 0.0f, 1e-5f);
      EXPECT_GT(u.y, 0.0f) << "screen up must point to world up while |pitch| < 90 degrees";
      // The target projects to the centre of the screen.
      const glm::vec3 ndc = projectToNdc(camera, 1.5f, camera.target);
      EXPECT_NEAR(ndc.x, 0.0f, 1e-5f);
      EXPECT_NEAR(ndc.y, 0.0f, 1e-5f);
    }
}

TEST(OrbitCamera, OrbitKeepsDistanceToTargetAndClampsPitch) {
  OrbitCamera camera;
  camera.target = {1.0f, 2.0f, 3.0f};
  camera.distance = 4.5f;
  for (int i = 0; i < 50; ++i) {
    camera.orbit(0.37f * static_cast<float>(i % 7) - 1.0f, 0.21f * static_cast<float>(i % 5) - 0.3f);
    EXPECT_NEAR(glm::length(camera.eye() - camera.target), 4.5f, 4.5f * 1e-5f);
    EXPECT_LE(std::abs(camera.pitch), OrbitCamera::kMaxPitch);
  }
  camera.orbit(0.0f, 100.0f);
  EXPECT_FLOAT_EQ(camera.pitch, OrbitCamera::kMaxPitch);
  camera.orbit(0.0f, -100.0f);
  EXPECT_FLOAT_EQ(camera.pitch, -OrbitCamera::kMaxPitch);
}

TEST(OrbitCamera, ZoomScalesDistanceAndClamps) {
  OrbitCamera camera;
  camera.distance = 2.0f;
  camera.minDistance = 0.5f;
  camera.maxDistance = 10.0f;
  camera.zoom(1.0f);
  EXPECT_NEAR(camera.distance, 2.0f / OrbitCamera::kZoomPerStep, 1e-6f);
  camera.zoom(-1.0f);
  EXPECT_NEAR(camera.distance, 2.0f, 1e-6f);
  camera.zoom(1000.0f);
  EXPECT_FLOAT_EQ(camera.distance, 0.5f);
  camera.zoom(-1000.0f);
  EXPECT_FLOAT_EQ(camera.distance, 10.0f);
}

TEST(OrbitCamera, PanMovesTheTargetWithTheCursor) {
  OrbitCamera camera;
  camera.yaw = 0.8f;
  camera.pitch = 0.4f;
  camera.distance = 3.0f;
  const float width = 800.0f, height = 600.0f, aspect = width / height;
  const glm::vec3 oldTarget = camera.target;
  const glm::vec2 drag(40.0f, -25.0f);  // pixels, window y down
  camera.pan(drag, height);
  // The old target is at the target's depth; it must have followed the cursor exactly.
  const glm::vec3 ndc = projectToNdc(camera, aspect, oldTarget);
  const glm::vec2 pixelShift(ndc.x * 0.5f * width, -ndc.y * 0.5f * height);
  EXPECT_NEAR(pixelShift.x, drag.x, 1e-3f);
  EXPECT_NEAR(pixelShift.y, drag.y, 1e-3f);
  EXPECT_NEAR(glm::length(camera.eye() - camera.target), 3.0f, 1e-5f);
}

TEST(OrbitCamera, FitToBoundsPutsAllCornersInView) {
  const glm::vec3 boxes[][2] = {
      {{-0.5f, 0.0f, -0.5f}, {0.5f, 1.0f, 0.5f}},     // unit body on the ground
      {{10.0f, 5.0f, -3.0f}, {10.2f, 5.1f, -2.9f}},   // small and far from the origin
      {{-50.0f, -0.1f, -1.0f}, {50.0f, 0.1f, 1.0f}},  // long thin beam
      {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}},       // a single point
  };
  for (const auto& box : boxes)
    for (float aspect : {0.5f, 1.0f, 16.0f / 9.0f, 3.0f})
      for (float shift : {0.0f, 0.3f, -0.2f})
        for (float yaw : {0.0f, 0.6f, 2.0f})
          for (float pitch : {-0.8f, 0.35f, 1.4f}) {
            OrbitCamera camera;
            camera.yaw = yaw;
            camera.pitch = pitch;
            camera.lensShift.x = shift;
            camera.fitToBounds(box[0], box[1], aspect);
            EXPECT_NEAR(glm::length(camera.target - 0.5f * (box[0] + box[1])), 0.0f, 1e-4f);
            const float half = 1.0f - std::abs(shift);  // free NDC half-width around the shifted centre
            for (int c = 0; c < 8; ++c) {
              const glm::vec3 corner((c & 1) ? box[1].x : box[0].x, (c & 2) ? box[1].y : box[0].y,
                                     (c & 4) ? box[1].z : box[0].z);
              const glm::vec3 ndc = projectToNdc(camera, aspect, corner);
              EXPECT_LE(std::abs(ndc.x - shift), half) << "aspect " << aspect << " shift " << shift;
              EXPECT_LE(std::abs(ndc.y), 1.0f) << "aspect " << aspect << " shift " << shift;
              EXPECT_GT(ndc.z, -1.0f) << "corner behind the near plane";
              EXPECT_LT(ndc.z, 1.0f) << "corner beyond the far plane";
            }
          }
}

TEST(OrbitCamera, FitToBoundsFillsTheViewForACube) {
  // The cube's corners lie on its bounding sphere, so after fitting, the
  // farthest corner must reach most of the way to the edge (not a tiny speck).
  OrbitCamera camera;
  const glm::vec3 lo(-1.0f), hi(1.0f);
  camera.fitToBounds(lo, hi, 1.0f);
  float reach = 0.0f;
  for (int c = 0; c < 8; ++c) {
    const glm::vec3 corner((c & 1) ? hi.x : lo.x, (c & 2) ? hi.y : lo.y, (c & 4) ? hi.z : lo.z);
    const glm::vec3 ndc = projectToNdc(camera, 1.0f, corner);
    reach = std::max({reach, std::abs(ndc.x), std::abs(ndc.y)});
  }
  EXPECT_GT(reach, 0.6f);
  EXPECT_LE(reach, 1.0f);
}

InputEvent mouse(InputEvent::Type type, glm::vec2 cursor, MouseButton button = MouseButton::kLeft) {
  InputEvent e;
  e.type = type;
  e.cursor = cursor;
  e.button = button;
  return e;
}

TEST(CameraController, LeftDragOrbitsByThePixelDistance) {
  OrbitCamera camera;
  CameraController controller;
  const float yaw0 = camera.yaw, pitch0 = camera.pitch;
  controller.handle(mouse(InputEvent::Type::kCursorMove, {100, 100}), false, 600, camera);
  controller.handle(mouse(InputEvent::Type::kButtonPress, {100, 100}), false, 600, camera);
  EXPECT_TRUE(controller.dragging());
  EXPECT_TRUE(controller.handle(mouse(InputEvent::Type::kCursorMove, {130, 90}), false, 600, camera));
  EXPECT_NEAR(camera.yaw, yaw0 - 30.0f * CameraController::kOrbitRadiansPerPixel, 1e-6f);
  EXPECT_NEAR(camera.pitch, pitch0 - 10.0f * CameraController::kOrbitRadiansPerPixel, 1e-6f);
  controller.handle(mouse(InputEvent::Type::kButtonRelease, {130, 90}), false, 600, camera);
  EXPECT_FALSE(controller.dragging());
  const float yaw1 = camera.yaw;
  EXPECT_FALSE(controller.handle(mouse(InputEvent::Type::kCursorMove, {200, 90}), false, 600, camera));
  EXPECT_EQ(camera.yaw, yaw1);
}

TEST(CameraController, DragStartedOverTheUiIsIgnored) {
  OrbitCamera camera;
  CameraController controller;
  const glm::vec3 eye0 = camera.eye();
  controller.handle(mouse(InputEvent::Type::kButtonPress, {10, 10}), true, 600, camera);
  // Even once the cursor leaves the panel, the drag belongs to the UI.
  controller.handle(mouse(InputEvent::Type::kCursorMove, {300, 200}), false, 600, camera);
  EXPECT_EQ(camera.eye(), eye0);
  InputEvent wheel;
  wheel.type = InputEvent::Type::kScroll;
  wheel.scroll = 2.0f;
  EXPECT_FALSE(controller.handle(wheel, true, 600, camera));
  EXPECT_EQ(camera.eye(), eye0);
}

TEST(CameraController, RightDragPansAndWheelZooms) {
  OrbitCamera camera;
  CameraController controller;
  const float d0 = camera.distance;
  const float yaw0 = camera.yaw;
  controller.handle(mouse(InputEvent::Type::kButtonPress, {50, 50}, MouseButton::kRight), false, 600, camera);
  controller.handle(mouse(InputEvent::Type::kCursorMove, {80, 50}, MouseButton::kRight), false, 600, camera);
  EXPECT_EQ(camera.yaw, yaw0);
  EXPECT_LT(glm::dot(camera.target, camera.right()), 0.0f) << "dragging right moves the scene right";
  controller.handle(mouse(InputEvent::Type::kButtonRelease, {80, 50}, MouseButton::kRight), false, 600, camera);
  InputEvent wheel;
  wheel.type = InputEvent::Type::kScroll;
  wheel.scroll = 1.0f;
  EXPECT_TRUE(controller.handle(wheel, false, 600, camera));
  EXPECT_NEAR(camera.distance, d0 / OrbitCamera::kZoomPerStep, 1e-6f);
}

}  // namespace
}  // namespace tetlab

namespace tetlab {
namespace {

TEST(ViewLayout, PanelLensShiftCentresTheViewOnTheFreeArea) {
  const float panelRight = 2.0f * kPanelPosition.x + kPanelWidth;
  for (float width : {1024.0f, 1280.0f, 2560.0f}) {
    const float shift = panelLensShift(width);
    const float freeCentrePixel = 0.5f * (panelRight + width);
    EXPECT_NEAR(shift, freeCentrePixel / width * 2.0f - 1.0f, 1e-6f) << width;
  }
  EXPECT_EQ(panelLensShift(500.0f), 0.0f) << "too narrow: the panel covers the view anyway";
}

TEST(ViewLayout, MsaaIsOffOnSoftwareRasterisersUnlessAsked) {
  EXPECT_EQ(chooseMsaaSamples("llvmpipe (LLVM 15.0.6, 256 bits)", -1), 0);
  EXPECT_EQ(chooseMsaaSamples("softpipe", -1), 0);
  EXPECT_EQ(chooseMsaaSamples("NVIDIA GeForce RTX 3080/PCIe/SSE2", -1), 4);
  EXPECT_EQ(chooseMsaaSamples("llvmpipe (LLVM 15.0.6, 256 bits)", 8), 8);
  EXPECT_EQ(chooseMsaaSamples("AMD Radeon RX 6800", 0), 0);
}

}  // namespace
}  // namespace tetlab
