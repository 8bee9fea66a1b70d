// GL tests on a real context (Mesa llvmpipe under Xvfb in CI): the renderer's
// pixels checked against geometry, the read-back orientation, GL error paths.
// Without a display they skip with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "app/render/mesh_geometry.h"
#include "app/render/offscreen_target.h"
#include "app/render/renderer.h"
#include "app/render/shader_program.h"
#include "app/window.h"
#include "gl_test_window.h"
#include "run_process.h"

namespace tetlab {
namespace {

class GlContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::hasDisplay()) GTEST_SKIP() << test::kNoDisplayReason;
    Result<std::unique_ptr<Window>> window = test::createHiddenTestWindow();
    ASSERT_TRUE(window.ok()) << window.error().message;
    window_ = std::move(*window);
  }

  std::unique_ptr<Window> window_;
};

int pixelDifference(const Image& a, const Image& b, size_t pixel) {
  int sum = 0;
  for (size_t c = 0; c < 3; ++c) sum += std::abs(int(a.rgba[pixel * 4 + c]) - int(b.rgba[pixel * 4 + c]));
  return sum;
}

TEST_F(GlContextTest, BackgroundGradientReadsBackTopRowFirst) {
  const glm::ivec2 size(96, 64);
  Result<OffscreenTarget> target = OffscreenTarget::create(size, 4);
  ASSERT_TRUE(target.ok()) << target.error().message;
  Result<Renderer> renderer = Renderer::create();
  ASSERT_TRUE(renderer.ok()) << renderer.error().message;
  RenderSettings settings;
  settings.backgroundTop = {1.0f, 0.0f, 0.0f};
  settings.backgroundBottom = {0.0f, 0.2f, 1.0f};
  settings.showGrid = false;
  settings.showShadow = false;
  target->bindForDrawing();
  renderer->render(OrbitCamera{}, size, {}, settings);
  target->resolve();
  const Image image = target->readPixels();
  ASSERT_EQ(image.width, size.x);
  ASSERT_EQ(image.height, size.y);
  // Each row matches backgroundColorAt at its pixel centre (image row 0 = top = v near 1).
  for (int y = 0; y < size.y; ++y) {
    const glm::vec3 expected = backgroundColorAt(settings, 1.0f - (static_cast<float>(y) + 0.5f) / size.y) * 255.0f;
    for (int x : {0, size.x / 2, size.x - 1}) {
      const std::uint8_t* p = &image.rgba[static_cast<size_t>((y * size.x + x) * 4)];
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(p[c], expected[c], 1.5) << "row " << y << " channel " << c;
      EXPECT_EQ(p[3], 255);
    }
  }
}

TEST_F(GlContextTest, SphereCoversItsProjectedDiscAndIsLitFromTheUpperLeft) {
  const glm::ivec2 size(320, 240);
  Result<OffscreenTarget> target = OffscreenTarget::create(size, 4);
  ASSERT_TRUE(target.ok()) << target.error().message;
  Result<Renderer> renderer = Renderer::create();
  ASSERT_TRUE(renderer.ok()) << renderer.error().message;
  const float radius = 0.5f;
  Result<GpuMesh> sphere = GpuMesh::create(makeUvSphere(radius, 48, 96));
  ASSERT_TRUE(sphere.ok()) << sphere.error().message;

  OrbitCamera camera;
  const float aspect = static_cast<float>(size.x) / static_cast<float>(size.y);
  camera.fitToBounds(sphere->bounds().min, sphere->bounds().max, aspect);
  RenderSettings settings;
  settings.showGrid = false;  // only the body may differ between the two renders
  settings.showShadow = false;

  auto renderOnce = [&](std::span<const GpuMesh* const> meshes) {
    target->bindForDrawing();
    renderer->render(camera, size, meshes, settings);
    target->resolve();
    return target->readPixels();
  };
  const Image empty = renderOnce({});
  const GpuMesh* meshes[] = {&*sphere};
  const Image full = renderOnce(meshes);

  // Analytic silhouette: a sphere of radius r seen from distance d on the optical
  // axis projects to a disc of angular radius asin(r / d), i.e. tan(asin(r / d)) /
  // tan(fovY / 2) in NDC, times H / 2 in pixels.
  const float ndcRadius = std::tan(std::asin(radius / camera.distance)) / std::tan(0.5f * camera.fovY);
  const double pixelRadius = ndcRadius * 0.5 * size.y;
  const double expectedArea = 3.14159265358979 * pixelRadius * pixelRadius;

  size_t covered = 0;
  double sumX = 0.0, sumY = 0.0;
  double lumUpperLeft = 0.0, lumLowerRight = 0.0;
  size_t nUpperLeft = 0, nLowerRight = 0;
  const double cx = 0.5 * size.x, cy = 0.5 * size.y;
  for (int y = 0; y < size.y; ++y)
    for (int x = 0; x < size.x; ++x) {
      const size_t i = static_cast<size_t>(y * size.x + x);
      if (pixelDifference(empty, full, i) <= 24) continue;
      ++covered;
      sumX += x + 0.5;
      sumY += y + 0.5;
      const double lum = 0.2126 * full.rgba[i * 4] + 0.7152 * full.rgba[i * 4 + 1] + 0.0722 * full.rgba[i * 4 + 2];
      const double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
      if (dx < -0.3 * pixelRadius && dy < -0.3 * pixelRadius) lumUpperLeft += lum, ++nUpperLeft;
      if (dx > 0.3 * pixelRadius && dy > 0.3 * pixelRadius) lumLowerRight += lum, ++nLowerRight;
    }
  ASSERT_GT(covered, 0u) << "nothing drawn";
  // Anti-aliased edge pixels count when partly covered: up to about one perimeter ring, 2 / R of the
  // area, half of which the threshold keeps; 3% more for the 96-gon silhouette and rasterisation.
  EXPECT_NEAR(covered / expectedArea, 1.0, 0.03 + 1.0 / pixelRadius)
      << "covered " << covered << " expected " << expectedArea;
  EXPECT_NEAR(sumX / covered, cx, 1.0);
  EXPECT_NEAR(sumY / covered, cy, 1.0);
  ASSERT_GT(nUpperLeft, 0u);
  ASSERT_GT(nLowerRight, 0u);
  EXPECT_GT(lumUpperLeft / nUpperLeft, 1.3 * lumLowerRight / nLowerRight) << "the key light is up and to the left";
}

TEST_F(GlContextTest, ShaderCompileErrorCarriesTheInfoLog) {
  const Result<ShaderProgram> program =
      buildShaderProgram("broken.vert", "#version 330 core\nvoid main() { gl_Position = undefined_symbol; }\n",
                         "ok.frag", "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.error().message.find("broken.vert"), std::string::npos) << program.error().message;
  EXPECT_NE(program.error().message.find("failed to compile"), std::string::npos) << program.error().message;
  EXPECT_NE(program.error().message.find("undefined_symbol"), std::string::npos)
      << "the driver's log names the bad identifier: " << program.error().message;
  const Result<ShaderProgram> missing = loadShaderProgram("gl/no_such.vert", "gl/mesh.frag");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("gl/no_such.vert"), std::string::npos);
}

TEST_F(GlContextTest, MeshUpdateChecksTheVertexCountAndMovesTheBounds) {
  SurfaceMesh mesh = makeUvSphere(1.0f, 8, 12);
  Result<GpuMesh> gpu = GpuMesh::create(mesh);
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  EXPECT_EQ(gpu->triangleCount(), mesh.triangles.size());
  for (glm::vec3& p : mesh.positions) p += glm::vec3(0.0f, 2.0f, 0.0f);
  ASSERT_TRUE(gpu->updatePositions(mesh.positions).ok());
  EXPECT_NEAR(gpu->bounds().min.y, 1.0f, 1e-6f);
  mesh.positions.pop_back();
  EXPECT_FALSE(gpu->updatePositions(mesh.positions).ok());
  EXPECT_FALSE(GpuMesh::create(SurfaceMesh{}).ok());
  SurfaceMesh badIndex = makeUvSphere(1.0f, 4, 4);
  badIndex.triangles.push_back({0u, 1u, 9999u});
  EXPECT_FALSE(GpuMesh::create(badIndex).ok());
}

}  // namespace
}  // namespace tetlab
