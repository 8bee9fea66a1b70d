// Deformer mode of the window (issue 15 items 1 and 2): the DeformSession's
// timeline advances in step(), its rest / animated / solved bodies are drawn
// side by side in render(), and the "Deformer" section's actions land here.
// The simulation stays loaded and paused behind it; closing the deformer
// brings it back as it was.
#include <algorithm>

#include "app/app.h"
#include "app/commands/deform_command.h"

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
  deformRow_.emplace(std::move(*row));
  fitView();
  reportNotice("deformer: " + std::to_string(deform_->frames()) + " frames of " + deform_->pattern() + " on " +
               std::to_string(deform_->deformer().tetCount()) + " tets");
  return Ok{};
}

void App::closeDeformer() {
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
