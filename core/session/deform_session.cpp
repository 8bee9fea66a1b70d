#include "core/session/deform_session.h"

#include <chrono>
#include <system_error>

#include <glm/geometric.hpp>

namespace tetlab {

Result<std::unique_ptr<DeformSession>> DeformSession::open(const std::string& restPath, const std::string& animPattern,
                                                           const DeformSettings& settings, int targetTets) {
  Result<SurfaceMesh> rest = loadDeformRestMesh(restPath);
  if (!rest) return rest.error();
  Result<AnimSequence> sequence = findAnimSequence(animPattern);
  if (!sequence) return sequence.error();
  Result<Deformer> deformer = Deformer::create(*rest, settings.material, targetTets);
  if (!deformer) return deformer.error();
  std::unique_ptr<DeformSession> s(new DeformSession());
  s->restPath_ = restPath;
  s->sequence_ = std::move(*sequence);
  s->deformer_ = std::make_unique<Deformer>(std::move(*deformer));
  s->settings_ = settings;
  s->animated_ = rest->positions;
  if (Status shown = s->showFrame(0); !shown) return shown.error();
  return s;
}

Status DeformSession::showFrame(size_t i) {
  if (frames() == 0) return Error{"the animation has no frames"};
  i = std::min(i, frames() - 1);
  const std::string restName = std::filesystem::path(restPath_).filename().string();
  Result<std::vector<glm::vec3>> frame = loadAnimFrame(sequence_, i, deformer_->restSurface(), restName);
  if (!frame) {
    playing = false;
    errors_.push_back(frame.error().message);
    return frame.error();
  }
  animated_ = std::move(*frame);
  frame_ = i;
  frameFile_ = sequence_.files[i].filename().string();
  return solveShown();
}

Status DeformSession::solveShown() {
  const auto t0 = std::chrono::steady_clock::now();
  report_ = deformer_->solveFrame(animated_, settings_);
  solveMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!report_.finite) {
    playing = false;
    errors_.push_back(frameFile_ + ": " + report_.problem);
    return Error{report_.problem};
  }
  return Ok{};
}

Status DeformSession::resolve() { return solveShown(); }

size_t DeformSession::paintHold(glm::vec3 restPoint, float radius, bool erase) {
  const std::vector<glm::vec3>& rest = deformer_->restSurface().positions;
  settings_.painted.resize(rest.size(), 0);
  settings_.hold = DeformHold::Painted;
  const float r2 = radius * radius;
  const uint8_t value = erase ? 0 : 1;
  size_t changed = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    const glm::vec3 d = rest[i] - restPoint;
    if (glm::dot(d, d) > r2 || settings_.painted[i] == value) continue;
    settings_.painted[i] = value;
    ++changed;
  }
  return changed;
}

void DeformSession::advance(double wallSeconds) {
  if (exporting()) {
    exportStep();
    return;
  }
  if (!playing || frames() == 0) return;
  sinceFrame_ += wallSeconds;
  if (sinceFrame_ + 1e-9 < 1.0 / double(std::max(fps, 0.1f))) return;
  sinceFrame_ = 0.0;
  size_t next = frame_ + 1;
  if (next >= frames()) {
    if (!loop) {
      playing = false;
      return;
    }
    next = 0;
  }
  (void)showFrame(next);
}

Status DeformSession::startExport(const std::filesystem::path& dir, FrameWriter writer) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{"cannot create the export folder '" + dir.string() + "': " + ec.message()};
  exportDir_ = dir;
  exportWriter_ = std::move(writer);
  exportNext_ = 0;
  playing = false;
  return Ok{};
}

void DeformSession::exportStep() {
  const size_t i = exportNext_;
  if (Status s = showFrame(i); !s) {
    exportDir_.clear();  // the error is already queued
    return;
  }
  if (Status s = exportWriter_(exportDir_ / frameFile_, *this); !s) {
    errors_.push_back(s.error().message);
    exportDir_.clear();
    return;
  }
  ++exportNext_;
  if (exportNext_ >= frames()) {
    notices_.push_back("deformer: wrote " + std::to_string(frames()) + " corrected frames to " + exportDir_.string());
    exportDir_.clear();
  }
}

std::vector<std::string> DeformSession::takeErrors() { return std::exchange(errors_, {}); }
std::vector<std::string> DeformSession::takeNotices() { return std::exchange(notices_, {}); }

}  // namespace tetlab
