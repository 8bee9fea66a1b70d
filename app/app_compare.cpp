// Compare mode in the window (issue 14): the running session becomes lane 0
// of a CompareSession; every lane gets its own SimView. Split view draws one
// cell per lane through the same camera; overlay draws lane 0 and the others
// as ghosts in their colours. Input goes to every lane at once: a pick in any
// cell grabs the same vertices in all lanes (they share the model).
#include <imgui.h>

#include "app/app.h"
#include "app/render/picking.h"
#include "core/scene/enum_names.h"

namespace tetlab {

Status App::startCompare(CompareSpec spec) {
  if (!session_) return Error{"no scene is loaded to compare solvers on"};
  stopCompare();
  stopGpuRendering();  // every lane draws from its host positions, lane 0 too
  session_->reset();   // every lane from the initial state (the pins stay)
  const Backend backend = session_->backend();
  // OpenCL lanes, and the automatic reference (on a device where there is one), need the context.
  bool wantsDevice = spec.autoReference || backend == Backend::OpenCl;
  for (const LaneSpec& lane : spec.lanes) wantsDevice |= lane.backend == Backend::OpenCl;
  if (spec.reference) wantsDevice |= spec.reference->backend == Backend::OpenCl;
  if (wantsDevice && options_.opencl.chosen)
    if (Status s = ensureClContext(); !s) reportNotice(s.error().message);
  Result<std::unique_ptr<CompareSession>> made =
      CompareSession::create(*session_, spec, clContext_ ? &*clContext_ : nullptr, backend);
  if (!made) {
    for (const std::string& n : session_->takeNotices()) reportNotice(n);
    return Error{"cannot compare: " + made.error().message};
  }
  std::vector<SimView> views;
  for (size_t i = 1; i < (*made)->laneCount(); ++i) {
    Result<SimView> view = SimView::create(session_->model(), renderSurfacesFrom(session_->built().surfaces));
    if (!view) return Error{"cannot draw lane " + std::to_string(i + 1) + ": " + view.error().message};
    views.push_back(std::move(*view));
  }
  compare_ = std::move(*made);
  laneViews_ = std::move(views);
  compareView_ = spec.view;
  for (size_t i = 0; i < compare_->laneCount(); ++i) compare_->lane(i).hostPositionsEveryFrame = true;
  for (const std::string& n : compare_->takeNotices()) reportNotice(n);
  std::string lanes;
  for (size_t i = 0; i < compare_->laneCount(); ++i) lanes += (i ? ", " : "") + compare_->laneLabel(i);
  reportNotice("comparing " + std::to_string(compare_->laneCount()) + " lanes: " + lanes);
  return Ok{};
}

void App::stopCompare() {
  if (!compare_) return;
  if (dragging_) {
    compare_->endDrag();
    dragging_ = false;
  }
  compare_.reset();
  laneViews_.clear();
  compareCsv_.reset();
}

SimSession& App::laneSession(size_t lane) { return compare_ ? compare_->lane(lane) : *session_; }

std::vector<ScreenRect> App::compareCells() const {
  if (!compare_ || compareView_ != CompareView::Split) return {};
  return splitCells(displaySize(), panelRight(), compare_->laneCount());
}

App::CursorView App::cursorView(glm::vec2 cursor, std::optional<size_t> lane) const {
  CursorView v;
  v.camera = camera_;
  v.cursor = cursor;
  v.size = displaySize();
  const std::vector<ScreenRect> cells = compareCells();
  if (cells.empty()) return v;
  size_t i = lane.value_or(cells.size());
  if (!lane)
    for (size_t k = 0; k < cells.size(); ++k)
      if (cells[k].contains(cursor)) i = k;
  if (i >= cells.size()) i = 0;  // between cells: the first lane's
  v.camera.lensShift = glm::vec2(0.0f);
  v.cursor = cursor - cells[i].min;
  v.size = cells[i].size;
  v.lane = i;
  return v;
}

void App::stepCompare(int steps) {
  for (size_t i = 0; i < compare_->laneCount(); ++i) compare_->lane(i).hostPositionsEveryFrame = true;
  // One frame at a time so the CSV has every frame of every lane.
  for (int k = 0; k < steps; ++k) {
    const uint64_t before = compare_->frame();
    compare_->advance(1);
    if (compareCsv_ && compare_->frame() != before) compareCsv_->writeFrame(*compare_);
  }
}

void App::renderCompare() {
  for (size_t i = 0; i < compare_->laneCount(); ++i) {
    SimView& view = i == 0 ? *simView_ : laneViews_[i - 1];
    const SimSession& s = compare_->lane(i);
    view.update(s.model(), s.state(), s.settings().colliders, view_);
  }
  const glm::vec2 display = displaySize();
  const glm::ivec2 target = target_->size();
  if (compareView_ == CompareView::Overlay) {
    renderer_.render(camera_, target, *simView_, view_, settings_);
    for (size_t i = 1; i < compare_->laneCount(); ++i)
      renderer_.renderGhost(camera_, ViewportRect{glm::ivec2(0), target}, laneViews_[i - 1], view_, settings_,
                            laneColor(i), 0.35f);
    return;
  }
  const std::vector<ScreenRect> cells = compareCells();
  // The gaps between cells show the background of the first draw.
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  OrbitCamera camera = camera_;
  camera.lensShift = glm::vec2(0.0f);
  RenderSettings laneSettings = settings_;
  for (size_t i = 0; i < cells.size(); ++i) {
    const SimView& view = i == 0 ? *simView_ : laneViews_[i - 1];
    // Each lane's bodies in its colour (lane 1 keeps the user's), as its curves and label.
    if (i > 0) laneSettings.albedo = laneColor(i);
    renderer_.render(camera, toPixels(cells[i], display, target), view, view_, laneSettings);
  }
}

void App::drawCompareLabels(glm::vec2 display) {
  if (!compare_) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  auto label = [&](glm::vec2 at, size_t lane) {
    const SimSession& s = compare_->lane(lane);
    char text[256];
    const LaneError& e = compare_->error(lane);
    if (e.valid() && !compare_->isReference(lane))
      std::snprintf(text, sizeof(text), "%zu  %s   %.2f ms   error %.3g m", lane + 1, compare_->laneLabel(lane).c_str(),
                    s.lastStepWallMs(), e.rms);
    else
      std::snprintf(text, sizeof(text), "%zu  %s   %.2f ms", lane + 1, compare_->laneLabel(lane).c_str(),
                    s.lastStepWallMs());
    const glm::vec3 c = laneColor(lane);
    const ImVec2 size = ImGui::CalcTextSize(text);
    draw->AddRectFilled(ImVec2(at.x, at.y), ImVec2(at.x + size.x + 12.0f, at.y + size.y + 6.0f),
                        IM_COL32(0, 0, 0, 150), 3.0f);
    draw->AddText(ImVec2(at.x + 6.0f, at.y + 3.0f), ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, 1.0f)), text);
    if (s.blownUp()) {
      const char* blew = "blew up: paused here";
      draw->AddText(ImVec2(at.x + 6.0f, at.y + size.y + 8.0f), IM_COL32(255, 115, 100, 255), blew);
    }
  };
  const std::vector<ScreenRect> cells = compareCells();
  if (!cells.empty()) {
    for (size_t i = 0; i < cells.size(); ++i) label(cells[i].min + glm::vec2(6.0f), i);
    return;
  }
  // Overlay: the legend top right of the free area, one line per lane.
  const float lineHeight = ImGui::GetTextLineHeight() + 10.0f;
  for (size_t i = 0; i < compare_->laneCount(); ++i)
    label(glm::vec2(panelRight() + 10.0f, 10.0f + float(i) * lineHeight), i);
  (void)display;
}

void App::applyCompareActions(const CompareActions& a) {
  if (a.stop) {
    stopCompare();
    reportNotice("compare mode off: " + std::string(solverDisplayName(session_->solver())) + " runs alone");
  }
  if (a.start)
    if (Status s = startCompare(*a.start); !s) reportError(s.error().message);
  if (a.view) compareView_ = *a.view;
  if (!compare_) return;
  if (a.equalCostMs) compare_->setEqualCostMs(*a.equalCostMs);
  if (a.probe) compare_->setProbe(*a.probe);
  if (a.setLane)
    if (Status s = compare_->setLane(a.setLane->first, a.setLane->second); !s)
      reportError("lane " + std::to_string(a.setLane->first + 1) + ": " + s.error().message);
}

void App::togglePause() {
  if (compare_) {
    compare_->setPaused(!compare_->paused());
    return;
  }
  session_->setPaused(!session_->paused());
}

void App::resetRun() {
  if (compare_)
    compare_->reset();
  else
    session_->reset();
}

}  // namespace tetlab
