// Writes the README's view-mode screenshots (docs/images/view_*.png) from the
// shipped scene files, stepped on the CPU reference, with the colour legend
// and a caption drawn through ImGui exactly as the app draws them. Runs only
// when TETLAB_VIEW_IMAGES names an output folder:
//
//   TETLAB_VIEW_IMAGES=docs/images xvfb-run -a build/tests/tetlab_tests_app --gtest_filter='ViewImages*'
//
// then quantise to 256 colours to keep each under 300 KB (the committed files were made so):
//
//   ffmpeg -i in.png -vf "split[a][b];[a]palettegen=max_colors=256:stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a" out.png
// Without the variable the test skips: it is a tool, the assertions live in view_render_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include <glm/trigonometric.hpp>
#include <imgui.h>

#include "app/render/colormap.h"
#include "app/ui/imgui_layer.h"
#include "app/ui/view_panel.h"
#include "app/render/offscreen_target.h"
#include "app/render/renderer.h"
#include "app/render/view_scene.h"
#include "app/window.h"
#include "core/scene/scene_build.h"
#include "core/scene/scene_json.h"
#include "core/sim/solver_settings.h"
#include "core/sim/stepper.h"
#include "run_process.h"

namespace tetlab {
namespace {

struct Shot {
  const char* file;      // docs/images/view_<file>.png
  const char* scene;     // assets/scenes/<scene>.json
  int frames;            // simulated frames before the shot
  ViewSettings view;
  const char* caption;
};

ViewSettings makeView(ViewMode mode, ColorField field) {
  ViewSettings v;
  v.mode = mode;
  v.field = field;
  return v;
}

TEST(ViewImages, WriteDocsScreenshots) {
  const char* outDir = std::getenv("TETLAB_VIEW_IMAGES");
  if (outDir == nullptr || *outDir == '\0') GTEST_SKIP() << "set TETLAB_VIEW_IMAGES=<folder> to write the screenshots";
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY";
  const glm::ivec2 size(960, 540);
  WindowOptions windowOptions;
  windowOptions.width = size.x;
  windowOptions.height = size.y;
  windowOptions.visible = false;
  windowOptions.vsync = false;
  Result<std::unique_ptr<Window>> window = Window::create(windowOptions);
  ASSERT_TRUE(window.ok()) << window.error().message;
  Result<std::unique_ptr<ImGuiLayer>> imgui = ImGuiLayer::create((*window)->handle());
  ASSERT_TRUE(imgui.ok()) << imgui.error().message;
  Result<Renderer> renderer = Renderer::create();
  ASSERT_TRUE(renderer.ok()) << renderer.error().message;
  Result<OffscreenTarget> target = OffscreenTarget::create(size, 4);
  ASSERT_TRUE(target.ok()) << target.error().message;

  // Bunny: cut with the plane facing the default camera (yaw 30 deg), so the front half goes.
  ViewSettings cut = makeView(ViewMode::kCutaway, ColorField::kNone);
  cut.cutNormal = glm::vec3(0.5f, 0.0f, 0.866f);
  ViewSettings cutElements = cut;
  cutElements.field = ColorField::kElementColor;
  ViewSettings cutStress = cut;
  cutStress.field = ColorField::kStress;
  const Shot shots[] = {
      {"shaded", "bunny_drop", 20, makeView(ViewMode::kShaded, ColorField::kNone), "Shaded surface"},
      {"wireframe", "bunny_drop", 20, makeView(ViewMode::kWireframe, ColorField::kNone), "Tet wireframe"},
      {"cutaway", "bunny_drop", 20, cut, "Cut-away section"},
      {"vertex_color", "bunny_drop", 0, makeView(ViewMode::kShaded, ColorField::kVertexColor),
       "Vertex graph colour (VBD sets)"},
      {"element_color", "bunny_drop", 0, cutElements, "Element graph colour, cut-away"},
      {"strain", "bunny_drop", 20, makeView(ViewMode::kShaded, ColorField::kStrain), "Green strain |E| at impact"},
      {"volume", "bunny_drop", 20, makeView(ViewMode::kShaded, ColorField::kVolumeChange), "Volume change |det F - 1|"},
      {"cloth_strain", "cloth_drape", 60, makeView(ViewMode::kShaded, ColorField::kStrain),
       "Membrane strain |E| of a sheet on a block"},
      {"stress", "beam", 40, makeView(ViewMode::kShaded, ColorField::kStress), "Von Mises stress, cantilever"},
      {"stress_cutaway", "bunny_drop", 20, cutStress, "Von Mises stress inside, cut-away"},
      {"speed", "hang", 25, makeView(ViewMode::kShaded, ColorField::kSpeed), "Speed |v|, hanging slab"},
      {"constraint_error", "hang", 25, makeView(ViewMode::kWireframe, ColorField::kConstraintError),
       "Constraint error on the tet edges"},
  };

  for (const Shot& shot : shots) {
    SCOPED_TRACE(shot.file);
    Result<SceneDesc> desc = loadSceneFile(std::string(TETLAB_SOURCE_DIR) + "/assets/scenes/" + shot.scene + ".json");
    ASSERT_TRUE(desc.ok()) << desc.error().message;
    SceneBuildOptions options;
    options.searchDirs = {std::string(TETLAB_SOURCE_DIR) + "/assets"};
    Result<BuiltScene> built = buildScene(*desc, options);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const SimModel& model = built->scene.model;
    State state = makeInitialState(*built);
    const SolverSettings& settings = built->scene.settings;
    std::unique_ptr<Solver> solver = makeCpuSolver(settings.solver);
    solver->reset(model, state);
    StepDiagnostics diag;
    for (int f = 0; f < shot.frames; ++f) {
      stepSimulation(model, settings, *solver, state, diag);
      ASSERT_TRUE(diag.finite) << diag.problem;
    }
    Result<SimView> view = SimView::create(model, renderSurfacesFrom(built->surfaces));
    ASSERT_TRUE(view.ok()) << view.error().message;
    view->update(model, state, settings.colliders, shot.view);

    OrbitCamera camera;
    const CameraSpec& spec = desc->camera;
    camera.target = spec.target;
    camera.distance = spec.distance;
    camera.yaw = glm::radians(spec.yawDegrees);
    camera.pitch = glm::radians(spec.pitchDegrees);
    // The scene's angles, framed on the body (the files' distances leave room for the app's panel).
    camera.fitToBounds(view->bounds().min, view->bounds().max, float(size.x) / float(size.y));
    camera.distance *= 0.8f;  // the bounding sphere is loose around a bunny or a beam

    (*imgui)->newFrame(size);
    drawColorLegend(LegendInput{view->shownField(), view->displayMin(), view->displayMax(), view->shownMax(),
                                view->categoryCount(), glm::vec2(size)});
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const ImVec2 textSize = ImGui::CalcTextSize(shot.caption);
    draw->AddRectFilled(ImVec2(10.0f, 10.0f), ImVec2(26.0f + textSize.x, 18.0f + textSize.y + 8.0f),
                        IM_COL32(20, 22, 28, 175), 6.0f);
    draw->AddText(ImVec2(18.0f, 17.0f), IM_COL32(240, 240, 245, 255), shot.caption);
    target->bindForDrawing();
    renderer->render(camera, size, *view, shot.view, RenderSettings{});
    (*imgui)->render();
    target->resolve();
    const Status written = writePng(std::string(outDir) + "/view_" + shot.file + ".png", target->readPixels());
    ASSERT_TRUE(written.ok()) << written.error().message;
  }
}

// The view and record panel sections as the side panel will show them
// (view_panel_preview.png; for a look, not for the README).
TEST(ViewImages, PanelSectionsPreview) {
  const char* outDir = std::getenv("TETLAB_VIEW_IMAGES");
  if (outDir == nullptr || *outDir == '\0') GTEST_SKIP() << "set TETLAB_VIEW_IMAGES=<folder> to write the preview";
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY";
  const glm::ivec2 size(420, 640);
  WindowOptions windowOptions;
  windowOptions.width = size.x;
  windowOptions.height = size.y;
  windowOptions.visible = false;
  Result<std::unique_ptr<Window>> window = Window::create(windowOptions);
  ASSERT_TRUE(window.ok()) << window.error().message;
  Result<std::unique_ptr<ImGuiLayer>> imgui = ImGuiLayer::create((*window)->handle());
  ASSERT_TRUE(imgui.ok()) << imgui.error().message;
  Result<OffscreenTarget> target = OffscreenTarget::create(size, 0);
  ASSERT_TRUE(target.ok()) << target.error().message;
  ViewSettings view;
  view.mode = ViewMode::kCutaway;
  view.field = ColorField::kStress;
  RecordUiState record;
  for (int frame = 0; frame < 3; ++frame) {  // auto-sized windows settle after a frame or two
    (*imgui)->newFrame(size);
    ImGui::SetNextWindowPos(ImVec2(10, 10));
    ImGui::SetNextWindowSize(ImVec2(400, 620));
    ImGui::Begin("tetlab");
    if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) drawViewControls(view);
    if (ImGui::CollapsingHeader("Record", ImGuiTreeNodeFlags_DefaultOpen))
      drawRecordControls(record, frame == 2, 42, false, 0, true);
    ImGui::End();
    drawRecordingIndicator(75.4, 2262, glm::vec2(size));
    target->bindForDrawing();
    glClearColor(0.2f, 0.22f, 0.26f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    (*imgui)->render();
  }
  target->resolve();
  ASSERT_TRUE(writePng(std::string(outDir) + "/view_panel_preview.png", target->readPixels()).ok());
}

}  // namespace
}  // namespace tetlab
