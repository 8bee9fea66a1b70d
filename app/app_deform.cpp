// Deformer mode of the window (issue 15 items 1 and 2): the DeformSession's
// timeline advances in step(), its rest / animated / solved bodies are drawn
// side by side in render(), and the "Deformer" section's actions land here.
// The simulation stays loaded and paused behind it; closing the deformer
// brings it back as it was.
#include <algorithm>
#include <array>

#include <imgui.h>

#include "app/app.h"
#include "app/commands/deform_command.h"
#include "core/deform/held_vertices.h"

namespace tetlab {

Status App::openDeformer(std::string rest, std::string anim, const DeformSettings& settings, int targetTets) {
  resolveDeformPaths(rest, anim, options_.assetDirs);
  Result<std::unique_ptr<DeformSession>> session = DeformSession::open(rest, anim, settings, targetTets);
  if (!session) return session.error();
  Result<DeformRow> row = DeformRow::create((*session)->rest());
  if (!row) return row.error();
  if (compare_) stopCompare();
  if (session_) session_->setPaused(true);
  deform_ = std::move(*session);
  // The window keeps drawing while a frame solves; headless runs solve each frame inside its app frame.
  deform_->setBackground(!options_.headless);
  deformRow_.emplace(std::move(*row));
  fitView();
  reportNotice("deformer: " + std::to_string(deform_->frames()) + " frames of " + deform_->pattern() + " on " +
               std::to_string(deform_->deformer().tetCount()) + " tets");
  return Ok{};
}

void App::closeDeformer() {
  painting_ = false;
  deform_.reset();
  deformRow_.reset();
  fitView();
}

void App::applyDeformActions(const DeformActions& a) {
  if (a.open) {
    // The same defaults as `tetlab deform` with no flags.
    const DeformSettings defaults = *deformSettingsFrom(DeformArgs{});
    if (Status s = openDeformer(deformUi_.rest, deformUi_.anim, defaults, deformUi_.targetTets); !s)
      reportError("deformer: " + s.error().message);
    return;
  }
  if (!deform_) return;
  if (a.close) {
    closeDeformer();
    return;
  }
  if (a.scrub) {
    deform_->playing = false;
    (void)deform_->showFrame(*a.scrub);  // a failure is queued as an error and reported in step()
  }
  if (a.saveHold) {
    const std::string restName = std::filesystem::path(deform_->restPath()).filename().string();
    if (Status s = saveHeldVertices(*a.saveHold, deform_->settings().painted, restName); !s)
      reportError("deformer: " + s.error().message);
    else
      reportNotice("deformer: held vertices saved to " + *a.saveHold + " (tetlab deform --hold-vertices " +
                   *a.saveHold + ")");
  }
  if (a.loadHold) {
    Result<std::vector<uint8_t>> held = loadHeldVertices(*a.loadHold, deform_->rest().positions.size());
    if (!held) {
      reportError("deformer: " + held.error().message);
    } else {
      deform_->settings().painted = std::move(*held);
      deform_->settings().hold = DeformHold::Painted;
      (void)deform_->resolve();
    }
  }
  if (a.resolve) (void)deform_->resolve();
  if (a.exportTo) {
    auto writer = [](const std::filesystem::path& path, const DeformSession& d) {
      const ExportSurface surface{"deformed", d.solved(), {}, d.rest().triangles};
      return writeObj(path, std::span<const ExportSurface>(&surface, 1),
                      "tetlab deformer: " + d.frameFile() + " corrected toward " + d.restPath());
    };
    if (Status s = deform_->startExport(*a.exportTo, writer); !s) reportError("deformer: " + s.error().message);
  }
}

void App::stepDeformer() {
  // Headless runs step the timeline one frame per app frame; a window at the wall clock's pace.
  const double dt = options_.headless ? 1.0 / double(std::max(deform_->fps, 0.1f)) : timer_.frameSeconds();
  deform_->advance(dt);
  for (const std::string& e : deform_->takeErrors()) reportError("deformer: " + e);
  for (const std::string& n : deform_->takeNotices()) reportNotice(n);
}

void App::renderDeformer() {
  const DeformLayout layout = deformUi_.layout == 1 ? DeformLayout::Overlay : DeformLayout::SideBySide;
  if (deformRow_->layout() != layout) {
    Result<DeformRow> row = DeformRow::create(deform_->rest(), layout);
    if (row) {
      deformRow_.emplace(std::move(*row));
      fitView();
    } else {
      reportError(row.error().message);
      deformUi_.layout = 0;
    }
  }
  if (Status s = deformRow_->update(deform_->animated(), deform_->solved()); !s) reportError(s.error().message);
  deformRow_->draw(renderer_, camera_, target_->size(), settings_,
                   {deformUi_.show[0], deformUi_.show[1], deformUi_.show[2]});
}

}  // namespace tetlab

namespace tetlab {

bool App::paintDeformHold(glm::vec2 cursor) {
  if (!deform_ || !deformRow_) return false;
  const Ray ray = cameraRay(camera_, cursor, displaySize());
  const std::array<bool, 3> show{deformUi_.show[0], deformUi_.show[1], deformUi_.show[2]};
  std::optional<glm::vec3> at = deformRow_->pickRestPoint(ray, deform_->rest(), deform_->animated(), deform_->solved(), show);
  if (!at) return false;
  deform_->paintHold(*at, deformUi_.brushRadius, deformUi_.brush == DeformUiState::Brush::Erase);
  return true;
}

void App::drawDeformOverlay(glm::vec2 display) const {
  if (!deform_ || !deformRow_) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const DeformSettings& s = deform_->settings();
  const std::vector<glm::vec3>* bodies[3] = {&deform_->rest().positions, &deform_->animated(), &deform_->solved()};
  // Painted vertices: a yellow dot on every shown body.
  if (s.hold == DeformHold::Painted) {
    const ImU32 dot = IM_COL32(250, 215, 40, 255);
    for (size_t b = 0; b < 3; ++b) {
      if (!deformUi_.show[b] || bodies[b]->size() != s.painted.size()) continue;
      for (size_t i = 0; i < s.painted.size(); ++i) {
        if (!s.painted[i]) continue;
        std::optional<glm::vec2> p = projectToScreen(camera_, (*bodies[b])[i] + deformRow_->offset(b), display);
        if (p) draw->AddCircleFilled(ImVec2(p->x, p->y), 2.5f, dot, 6);
      }
    }
  }
  // Regions (PBD/XPBD): their boxes as orange frames on the rest body.
  if ((s.solver == SolverKind::Pbd || s.solver == SolverKind::Xpbd) && deformUi_.show[0]) {
    const ImU32 line = IM_COL32(255, 150, 40, 230);
    for (const DeformRegion& g : s.regions) {
      if (!g.enabled) continue;
      std::optional<glm::vec2> c[8];
      for (int k = 0; k < 8; ++k) {
        const glm::vec3 corner((k & 1) ? g.max.x : g.min.x, (k & 2) ? g.max.y : g.min.y, (k & 4) ? g.max.z : g.min.z);
        c[k] = projectToScreen(camera_, corner + deformRow_->offset(0), display);
      }
      for (int k = 0; k < 8; ++k)
        for (int bit : {1, 2, 4})
          if (!(k & bit) && c[k] && c[k | bit])
            draw->AddLine(ImVec2(c[k]->x, c[k]->y), ImVec2(c[k | bit]->x, c[k | bit]->y), line, 1.5f);
    }
  }
}

}  // namespace tetlab
