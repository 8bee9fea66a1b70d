// View modes on a real GL context (llvmpipe under Xvfb in CI): what each mode
// uploads (cell and line counts follow from the model), what a cut removes,
// that field colours reach the pixels through the colour map, and that pins,
// colliders and picking work on the drawn surface. Skips without a display.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>

#include <filesystem>

#include "app/render/colormap.h"
#include "app/output/obj_export.h"
#include "core/mesh/obj_loader.h"
#include "app/render/offscreen_target.h"
#include "app/render/picking.h"
#include "app/render/renderer.h"
#include "app/render/view_scene.h"
#include "app/window.h"
#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/state_setup.h"
#include "gl_test_window.h"
#include "run_process.h"

namespace tetlab {
namespace {

constexpr glm::ivec2 kSize(240, 180);

class ViewRenderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::hasDisplay()) GTEST_SKIP() << test::kNoDisplayReason;
    Result<std::unique_ptr<Window>> window = test::createHiddenTestWindow();
    ASSERT_TRUE(window.ok()) << window.error().message;
    window_ = std::move(*window);
    Result<OffscreenTarget> target = OffscreenTarget::create(kSize, 0);
    ASSERT_TRUE(target.ok()) << target.error().message;
    target_ = std::move(*target);
    Result<Renderer> renderer = Renderer::create();
    ASSERT_TRUE(renderer.ok()) << renderer.error().message;
    renderer_ = std::move(*renderer);

    BodyDesc body;
    body.mesh = makeBoxTetMesh(glm::vec3(-0.5f, 0.0f, -0.5f), glm::vec3(1.0f), {3, 3, 3});
    body.name = "box";
    Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1));
    ASSERT_TRUE(model.ok()) << model.error().message;
    model_ = std::move(*model);
    state_ = makeState(model_);
    colliders_.ground.height = 0.0f;
    settings_.showGrid = false;  // only the scene may differ between renders
    settings_.showShadow = false;
    camera_.target = glm::vec3(0.0f, 0.5f, 0.0f);
    camera_.distance = 3.2f;
    camera_.yaw = 0.5f;
    camera_.pitch = 0.4f;
  }

  Image render(SimView& view, const ViewSettings& settings) {
    view.update(model_, state_, colliders_, settings);
    target_->bindForDrawing();
    renderer_->render(camera_, kSize, view, settings, settings_);
    target_->resolve();
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
    return target_->readPixels();
  }

  // Pixels that differ from the background gradient.
  size_t coverage(const Image& image) const {
    size_t n = 0;
    for (int y = 0; y < image.height; ++y) {
      const glm::vec3 bg = backgroundColorAt(settings_, 1.0f - (float(y) + 0.5f) / float(image.height)) * 255.0f;
      for (int x = 0; x < image.width; ++x) {
        const std::uint8_t* p = &image.rgba[size_t(y * image.width + x) * 4];
        if (std::abs(p[0] - bg.r) + std::abs(p[1] - bg.g) + std::abs(p[2] - bg.b) > 12.0f) ++n;
      }
    }
    return n;
  }

  // Mean colour of the covered pixels.
  glm::vec3 meanCovered(const Image& image) const {
    glm::dvec3 sum(0.0);
    size_t n = 0;
    for (int y = 0; y < image.height; ++y) {
      const glm::vec3 bg = backgroundColorAt(settings_, 1.0f - (float(y) + 0.5f) / float(image.height)) * 255.0f;
      for (int x = 0; x < image.width; ++x) {
        const std::uint8_t* p = &image.rgba[size_t(y * image.width + x) * 4];
        if (std::abs(p[0] - bg.r) + std::abs(p[1] - bg.g) + std::abs(p[2] - bg.b) <= 12.0f) continue;
        sum += glm::dvec3(p[0], p[1], p[2]);
        ++n;
      }
    }
    return n > 0 ? glm::vec3(sum / double(n)) : glm::vec3(0.0f);
  }

  std::unique_ptr<Window> window_;
  std::optional<OffscreenTarget> target_;
  std::optional<Renderer> renderer_;
  SimModel model_;
  State state_;
  Colliders colliders_;
  RenderSettings settings_;
  OrbitCamera camera_;
};

TEST_F(ViewRenderTest, EachModeUploadsWhatTheModelImplies) {
  Result<SimView> view = SimView::create(model_, {});
  ASSERT_TRUE(view.ok()) << view.error().message;
  ViewSettings settings;
  const Image shaded = render(*view, settings);
  EXPECT_GT(coverage(shaded), 2000u);
  EXPECT_EQ(view->cellVertexCount(), 0u) << "plain shaded draws the surface only";
  EXPECT_TRUE(view->drawsSurfaces());

  settings.mode = ViewMode::kWireframe;
  const Image wire = render(*view, settings);
  EXPECT_EQ(view->lineVertexCount(), 2u * model_.edgeCount());
  EXPECT_GT(coverage(wire), 500u);
  settings.field = ColorField::kSpeed;  // per-vertex field: every edge split at its midpoint
  render(*view, settings);
  EXPECT_EQ(view->lineVertexCount(), 4u * model_.edgeCount());

  settings = ViewSettings{};
  settings.mode = ViewMode::kCutaway;
  settings.cutOffset = 1.01f;  // plane beyond the bounding sphere: every tet kept
  settings.cutLayers = 0;      // ... and drawn
  render(*view, settings);
  EXPECT_EQ(view->cellVertexCount(), 12u * model_.tetCount());
}

// Anchor springs (core/sim/anchor_springs.h): a whole spring is a line from
// its anchor to its patch (drawn: more pixels than without), a broken one only
// its anchor point; both anchors are drawn, and hiding springs hides them all.
TEST_F(ViewRenderTest, WholeSpringsAreLinesAndEveryAnchorAPoint) {
  BodySprings body{"box", 0, 0, model_.vertexCount(), {}};
  AnchorSpringSpec up;
  up.attach = glm::vec3(0.5f, 1.0f, 0.5f);  // a top corner
  up.anchor = glm::vec3(1.0f, 1.6f, 0.0f);
  AnchorSpringSpec cut = up;
  cut.attach = glm::vec3(-0.5f, 1.0f, -0.5f);
  cut.anchor = glm::vec3(-1.0f, 1.6f, 0.0f);
  body.specs = {up, cut};
  Result<AnchorSprings> springs = buildAnchorSprings(model_, {body});
  ASSERT_TRUE(springs.ok()) << springs.error().message;
  state_.springs = *springs;
  state_.springs.springs[1].broken = true;
  Result<SimView> view = SimView::create(model_, {});
  ASSERT_TRUE(view.ok()) << view.error().message;
  ViewSettings settings;
  settings.showSprings = false;
  const size_t without = coverage(render(*view, settings));
  settings.showSprings = true;
  const size_t with = coverage(render(*view, settings));
  EXPECT_EQ(view->springLineVertexCount(), 2u) << "one whole spring";
  EXPECT_EQ(view->springAnchorCount(), 2u) << "both anchors";
  EXPECT_GT(with, without + 20u) << "the line and the anchor points above the box";
}

// A strand-only model has no surface: its segments are lines in every mode and
// colour field, and the mouse picks a strand point.
TEST_F(ViewRenderTest, StrandsAreLinesInEveryModeAndPickable) {
  std::vector<std::vector<glm::vec3>> lines;
  for (int s = 0; s < 8; ++s) {
    std::vector<glm::vec3> points;
    for (int k = 0; k < 6; ++k) points.emplace_back(-0.4f + 0.1f * float(s), 0.1f + 0.15f * float(k), 0.0f);
    lines.push_back(points);
  }
  BodyDesc body = strandBody(lines);
  body.material.thickness = 2e-3f;
  body.name = "strands";
  Result<SimModel> built = buildSimModel(std::span<const BodyDesc>(&body, 1));
  ASSERT_TRUE(built.ok()) << built.error().message;
  model_ = std::move(*built);
  state_ = makeState(model_);
  Result<SimView> view = SimView::create(model_, {});
  ASSERT_TRUE(view.ok()) << view.error().message;
  EXPECT_EQ(view->surfaceCount(), 0u);
  for (ViewMode mode : {ViewMode::kShaded, ViewMode::kWireframe, ViewMode::kCutaway})
    for (ColorField field : {ColorField::kNone, ColorField::kSpeed, ColorField::kStrain, ColorField::kElementColor}) {
      ViewSettings settings;
      settings.mode = mode;
      settings.field = field;
      const Image image = render(*view, settings);
      EXPECT_EQ(view->strandVertexCount(), 2u * 8u * 5u);
      EXPECT_GT(coverage(image), 100u) << "mode " << int(mode) << ", field " << int(field);
    }
  // A ray from the camera through a strand point picks that point.
  const glm::vec3 target = glm::vec3(state_.x[3 * 6 + 2]);
  const Ray ray{camera_.eye(), glm::normalize(target - camera_.eye())};
  const std::optional<ScenePick> pick = view->pick(ray, state_.x);
  ASSERT_TRUE(pick.has_value());
  EXPECT_EQ(pick->nearestVertex, 3u * 6u + 2u);
  ASSERT_EQ(pick->attachment.vertices.size(), 1u);
  EXPECT_EQ(pick->attachment.weights[0], 1.0f);
}

TEST_F(ViewRenderTest, CutAwayRemovesTheTetsInFrontOfThePlane) {
  Result<SimView> view = SimView::create(model_, {});
  ASSERT_TRUE(view.ok()) << view.error().message;
  ViewSettings settings;
  settings.mode = ViewMode::kCutaway;
  settings.cutNormal = glm::vec3(1.0f, 0.0f, 0.0f);
  settings.cutLayers = 0;
  settings.cutOffset = -1.01f;  // everything removed, surface clipped away too
  EXPECT_EQ(coverage(render(*view, settings)), 0u);
  EXPECT_EQ(view->cellVertexCount(), 0u);

  // The box spans x in [-0.5, 0.5] in 3 cells; the plane x = 0 (offset 0 through the
  // centre) keeps the tets with centroid x <= 0: the first cell column and the half
  // of the middle column's tets whose centroid lies left of 0.
  settings.cutOffset = 0.0f;
  const size_t half = coverage(render(*view, settings));
  size_t expected = 0;
  for (const glm::uvec4& t : model_.tets) {
    const float cx = 0.25f * (model_.restPositions[t.x].x + model_.restPositions[t.y].x +
                              model_.restPositions[t.z].x + model_.restPositions[t.w].x);
    if (cx <= 0.0f) ++expected;
  }
  EXPECT_EQ(view->cellVertexCount(), 12u * expected);
  settings.cutOffset = 1.01f;
  settings.cutShowSurface = false;
  const size_t all = coverage(render(*view, settings));
  EXPECT_GT(half, 0u);
  EXPECT_LT(half, all);
}

TEST_F(ViewRenderTest, FieldColoursFollowTheColourMap) {
  // Stretch the box 20% along y: every tet has the same strain |E|_F = (1.2^2 - 1) / 2 = 0.22.
  for (uint32_t v = 0; v < model_.vertexCount(); ++v) state_.x[v].y = 1.2f * model_.restPositions[v].y;
  Result<SimView> view = SimView::create(model_, {});
  ASSERT_TRUE(view.ok()) << view.error().message;
  ViewSettings settings;
  settings.field = ColorField::kStrain;
  settings.autoRange = false;
  settings.rangeMin = 0.0f;
  settings.rangeMax = 0.1f;  // strain 0.22 clamps to the top (yellow)
  const glm::vec3 high = meanCovered(render(*view, settings));
  EXPECT_NEAR(view->field().max, 0.22f, 1e-4f);
  settings.rangeMin = 1.0f;
  settings.rangeMax = 2.0f;  // below the range: the bottom colour (dark violet)
  const glm::vec3 low = meanCovered(render(*view, settings));
  const glm::vec3 top = colormapKeys().back(), bottom = colormapKeys().front();
  ASSERT_GT(top.g, top.b);
  ASSERT_GT(bottom.b, bottom.g);
  EXPECT_GT(high.g, high.b) << "lit yellow keeps green above blue";
  EXPECT_GT(low.b, low.g) << "lit violet keeps blue above green";

  // Auto range spans [0, max on screen].
  settings.autoRange = true;
  render(*view, settings);
  EXPECT_EQ(view->displayMin(), 0.0f);
  EXPECT_NEAR(view->displayMax(), 0.22f, 1e-3f);
}

TEST_F(ViewRenderTest, GraphColoursShowSeveralDistinctHues) {
  Result<SimView> view = SimView::create(model_, {});
  ASSERT_TRUE(view.ok()) << view.error().message;
  ViewSettings settings;
  settings.field = ColorField::kElementColor;
  settings.mode = ViewMode::kCutaway;
  settings.tetShrink = 0.7f;
  const Image image = render(*view, settings);
  EXPECT_EQ(view->categoryCount(), int(model_.tetColors.count()));
  // Count palette entries that appear (a lit palette colour keeps its hue ordering).
  std::vector<bool> seen(kPaletteSize, false);
  for (size_t i = 0; i + 3 < image.rgba.size(); i += 4) {
    const glm::vec3 c(image.rgba[i], image.rgba[i + 1], image.rgba[i + 2]);
    const float len = glm::length(c);
    if (len < 60.0f) continue;
    for (int k = 0; k < kPaletteSize; ++k) {
      const glm::vec3 p = categoryColor(k) * 255.0f;
      if (glm::dot(c / len, glm::normalize(p)) > 0.9995f) seen[size_t(k)] = true;
    }
  }
  int distinct = 0;
  for (bool s : seen) distinct += s ? 1 : 0;
  EXPECT_GE(distinct, std::min(3, int(model_.tetColors.count())));
}

TEST_F(ViewRenderTest, PinsAndCollidersAreDrawnAndToggle) {
  // Vertex i + 4 (j + 4 k) of the 3^3-cell box: 63 = (0.5, 1, 0.5), the corner nearest the eye; 60 = (-0.5, 1, 0.5).
  pinVertices(state_, std::vector<uint32_t>{63u, 60u});
  SphereCollider sphere;
  sphere.center = glm::vec3(0.0f, 1.35f, 0.0f);
  sphere.radius = 0.25f;
  colliders_.spheres.push_back(sphere);
  Result<SimView> view = SimView::create(model_, {});
  ASSERT_TRUE(view.ok()) << view.error().message;
  ViewSettings settings;
  settings.pinRadius = 0.06f;
  const Image with = render(*view, settings);
  EXPECT_EQ(view->pinCount(), 2u);
  settings.showPins = false;
  const Image noPins = render(*view, settings);
  settings.showColliders = false;
  const Image neither = render(*view, settings);
  // The pin sprite covers the projected pin (red: R well above G and B).
  const std::optional<glm::vec2> pin = projectToScreen(camera_, glm::vec3(state_.x[63]), glm::vec2(kSize));
  ASSERT_TRUE(pin.has_value());
  const size_t at = (size_t(pin->y) * size_t(kSize.x) + size_t(pin->x)) * 4;
  EXPECT_GT(int(with.rgba[at]), int(with.rgba[at + 1]) + 60) << "red pin at its vertex";
  EXPECT_NE(with.rgba[at + 1], noPins.rgba[at + 1]);
  EXPECT_GT(coverage(noPins), coverage(neither) + 100u) << "the sphere collider covers pixels";
}

TEST_F(ViewRenderTest, PickingTheDrawnSurfaceGivesWeightsOverModelVertices) {
  Result<SimView> view = SimView::create(model_, {});
  ASSERT_TRUE(view.ok()) << view.error().message;
  render(*view, ViewSettings{});
  const glm::vec3 aim(0.1f, 0.8f, 0.5f);  // on the +z face of the box
  const std::optional<glm::vec2> pixel = projectToScreen(camera_, aim, glm::vec2(kSize));
  ASSERT_TRUE(pixel.has_value());
  const std::optional<ScenePick> pick = view->pick(cameraRay(camera_, *pixel, glm::vec2(kSize)), state_.x);
  ASSERT_TRUE(pick.has_value());
  EXPECT_LT(glm::distance(pick->hit.point, aim), 1e-4f);
  float sum = 0.0f;
  glm::vec3 p(0.0f);
  for (size_t k = 0; k < pick->attachment.vertices.size(); ++k) {
    sum += pick->attachment.weights[k];
    p += pick->attachment.weights[k] * glm::vec3(state_.x[pick->attachment.vertices[k]]);
  }
  EXPECT_NEAR(sum, 1.0f, 1e-5f);
  EXPECT_LT(glm::distance(p, aim), 1e-4f);
  // Lattice spacing 1/3: the nearest vertex to (0.1, 0.8, 0.5) is (0, 2/3, 0.5) (box from x = -0.5).
  const glm::vec3 nearest(state_.x[pick->nearestVertex]);
  EXPECT_LT(glm::distance(nearest, glm::vec3(0.1666667f, 0.6666667f, 0.5f)), 1e-5f);
}

TEST_F(ViewRenderTest, ObjExportWritesTheDeformedSurfaceAsDrawn) {
  for (uint32_t v = 0; v < model_.vertexCount(); ++v)
    state_.x[v] += glm::vec4(0.3f * model_.restPositions[v].y, 0.1f, 0.0f, 0.0f);  // shear + lift
  Result<SimView> view = SimView::create(model_, {});
  ASSERT_TRUE(view.ok()) << view.error().message;
  view->update(model_, state_, colliders_, ViewSettings{});
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tetlab_view_export_" + std::to_string(::getpid()));
  ObjSequenceWriter writer(dir);
  ASSERT_TRUE(writer.write(exportSurfacesOf(*view)).ok());
  Result<LoadedSurface> loaded = loadObj(writer.framePath(0).string());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const std::span<const glm::vec3> drawn = view->surfacePositions(0);
  ASSERT_EQ(loaded->mesh.positions.size(), drawn.size());
  for (size_t i = 0; i < drawn.size(); ++i) EXPECT_EQ(loaded->mesh.positions[i], drawn[i]);
  // The boundary surface follows the sheared tets: its top is lifted and shifted.
  const Bounds b = computeBounds(loaded->mesh.positions);
  EXPECT_NEAR(b.min.y, 0.1f, 1e-6f);
  EXPECT_NEAR(b.max.x, 0.8f, 1e-6f);
  std::filesystem::remove_all(dir);
}

TEST_F(ViewRenderTest, InvalidSurfacesAreRefused) {
  RenderSurface bad = boundaryRenderSurface(model_);
  bad.embedding.vertices[0].x = model_.vertexCount() + 5;
  Result<SimView> view = SimView::create(model_, {bad});
  ASSERT_FALSE(view.ok());
  EXPECT_NE(view.error().message.find("offset for this body"), std::string::npos) << view.error().message;
  EXPECT_FALSE(SimView::create(SimModel{}, {}).ok());
}

}  // namespace
}  // namespace tetlab
