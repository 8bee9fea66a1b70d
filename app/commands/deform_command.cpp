// `tetlab deform --rest rest.obj --anim 'anim/frame_%04d.obj' ...`: the
// quasi-static deformer frame by frame (frames loaded one at a time, so a long
// sequence never sits in memory), with a line and a CSV row per frame and the
// corrected surfaces written under the input frames' own names.
#include "app/commands/deform_command.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <glm/geometric.hpp>

#include "app/commands/asset_paths.h"
#include "app/commands/deform_region_flag.h"
#include "app/commands/deform_view.h"
#include "app/output/obj_export.h"
#include "app/output/recording.h"
#include "core/deform/anim_sequence.h"
#include "core/deform/deformer.h"
#include "core/deform/held_vertices.h"
#include "core/scene/enum_names.h"

namespace tetlab {

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitNonFinite = 2;

int fail(const std::string& message) {
  std::fprintf(stderr, "tetlab deform: %s\n", message.c_str());
  return kExitFailure;
}

}  // namespace

Result<DeformSettings> deformSettingsFrom(const DeformArgs& a) {
  DeformSettings s;
  std::optional<SolverKind> solver = parseSolverName(a.solver);
  if (!solver) return Error{"--solver '" + a.solver + "': use pbd, xpbd, vbd or avbd"};
  s.solver = *solver;
  s.material.youngsModulus = a.youngs;
  s.material.poissonRatio = a.poisson;
  s.material.density = a.density;
  s.maxIterations = a.iterations;
  s.iterationsPerPass = a.pass;
  s.tolerance = a.tolerance;
  if (a.start == "animated") s.start = DeformStart::Animated;
  else if (a.start == "previous") s.start = DeformStart::Previous;
  else return Error{"--start '" + a.start + "': use animated or previous"};
  if (a.hold == "none") s.hold = a.holdVertices.empty() ? DeformHold::None : DeformHold::Painted;
  else if (a.hold == "all") s.hold = DeformHold::All;
  else if (a.hold == "box") s.hold = DeformHold::Box;
  else if (a.hold == "painted") s.hold = DeformHold::Painted;
  else return Error{"--hold '" + a.hold + "': use none, all, box or painted"};
  if (s.hold == DeformHold::Painted && a.holdVertices.empty())
    return Error{"--hold painted: give the held vertices with --hold-vertices FILE (saved from the window's "
                 "Deformer section)"};
  if (s.hold != DeformHold::Painted && !a.holdVertices.empty())
    return Error{"--hold-vertices holds the vertices in its file: leave out --hold " + a.hold + " (or use --hold painted)"};
  s.holdMin = {a.holdBox[0], a.holdBox[1], a.holdBox[2]};
  s.holdMax = {a.holdBox[3], a.holdBox[4], a.holdBox[5]};
  if (s.hold == DeformHold::Box && !(s.holdMin.x <= s.holdMax.x && s.holdMin.y <= s.holdMax.y && s.holdMin.z <= s.holdMax.z))
    return Error{"--hold-box: give x0,y0,z0,x1,y1,z1 with each minimum at most its maximum"};
  s.attraction = a.attract;
  s.gravity = {a.gravity[0], a.gravity[1], a.gravity[2]};
  s.stretchScale = {a.stretch[0], a.stretch[1], a.stretch[2]};
  s.shearScale = {a.shear[0], a.shear[1], a.shear[2]};
  s.restScale = {a.restScale[0], a.restScale[1], a.restScale[2]};
  s.materialAxis = {a.axis[0], a.axis[1], a.axis[2]};
  if (!(glm::length(s.materialAxis) > 0.0f)) return Error{"--axis: give a non-zero direction x,y,z"};
  s.volume = !a.noVolume;
  for (size_t i = 0; i < a.regions.size(); ++i) {
    Result<DeformRegion> r = parseDeformRegion(a.regions[i]);
    if (!r) return Error{"--region " + std::to_string(i + 1) + " ('" + a.regions[i] + "'): " + r.error().message};
    s.regions.push_back(*r);
  }
  if (!s.regions.empty() && s.solver != SolverKind::Pbd && s.solver != SolverKind::Xpbd)
    return Error{"--region: regions set strain-based stiffness, which only --solver xpbd or pbd use (VBD and AVBD "
                 "solve the isotropic Neo-Hookean energy)"};
  return s;
}

Status loadDeformHold(const DeformArgs& a, size_t restVertices, DeformSettings& s) {
  if (a.holdVertices.empty()) return Ok{};
  Result<std::vector<uint8_t>> held = loadHeldVertices(a.holdVertices, restVertices);
  if (!held) return Error{"--hold-vertices: " + held.error().message};
  s.painted = std::move(*held);
  return Ok{};
}

void resolveDeformPaths(std::string& rest, std::string& anim, const std::vector<std::filesystem::path>& assetDirs) {
  if (Result<std::filesystem::path> path = resolveMeshPath(rest, assetDirs); path) rest = path->string();
  if (!findAnimSequence(anim) && std::filesystem::path(anim).is_relative())
    for (const std::filesystem::path& dir : assetDirs)
      if (findAnimSequence((dir / anim).string())) {
        anim = (dir / anim).string();
        return;
      }
}

namespace {

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f %%", 100.0 * fraction);
  return buf;
}

}  // namespace

int runDeformCommand(const DeformArgs& a) {
  Result<DeformSettings> settings = deformSettingsFrom(a);
  if (!settings) return fail(settings.error().message);
  Result<SurfaceMesh> rest = loadDeformRestMesh(a.rest);
  if (!rest) return fail(rest.error().message);
  if (Status s = loadDeformHold(a, rest->positions.size(), *settings); !s) return fail(s.error().message);
  Result<AnimSequence> sequence = findAnimSequence(a.anim);
  if (!sequence) return fail(sequence.error().message);
  const std::string restName = std::filesystem::path(a.rest).filename().string();

  Result<Deformer> deformer = Deformer::create(*rest, settings->material, a.targetTets);
  if (!deformer) return fail(deformer.error().message);
  const size_t frames = a.frames > 0 ? std::min(size_t(a.frames), sequence->frames()) : sequence->frames();
  std::printf("tetlab deform: %s (%zu vertices, %zu tets), %zu frames of %s, %s, at most %d iterations, tolerance %g\n",
              restName.c_str(), rest->positions.size(), deformer->tetCount(), frames, a.anim.c_str(),
              a.solver.c_str(), settings->maxIterations, double(settings->tolerance));

  std::ofstream csv;
  if (!a.csv.empty()) {
    csv.open(a.csv);
    if (!csv) return fail("cannot write the CSV '" + a.csv + "' (check the folder exists and is writable)");
    csv << "frame,file,iterations,first_residual,residual,converged,animated_volume_error,solved_volume_error,ms,"
           "remaining_move_m\n";
  }
  if (!a.exportDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.exportDir, ec);
    if (ec) return fail("cannot create the export folder '" + a.exportDir + "': " + ec.message());
  }

  // The picture: opened before the first frame so a missing display or
  // ffmpeg is said before any work.
  std::unique_ptr<DeformPicture> picture;
  std::unique_ptr<Recorder> recorder;
  if (!a.screenshot.empty() || !a.record.empty()) {
    Result<std::unique_ptr<DeformPicture>> p = DeformPicture::create(
        *rest, {a.width, a.height}, a.overlay ? DeformLayout::Overlay : DeformLayout::SideBySide);
    if (!p) return fail("--screenshot/--record: " + p.error().message);
    picture = std::move(*p);
  }
  if (!a.record.empty()) {
    RecordingOptions options;
    options.output = a.record;
    options.format = recordFormatForPath(a.record);
    options.fps = a.fps;
    Result<std::unique_ptr<Recorder>> r = Recorder::start(options);
    if (!r) return fail("--record: " + r.error().message);
    recorder = std::move(*r);
  }
  Image lastPicture;

  int exitCode = 0;
  int converged = 0;
  double worstBefore = 0.0, worstAfter = 0.0;
  for (size_t i = 0; i < frames; ++i) {
    Result<std::vector<glm::vec3>> animated = loadAnimFrame(*sequence, i, *rest, restName);
    if (!animated) return fail(animated.error().message + " (frames before it were written)");
    const auto t0 = std::chrono::steady_clock::now();
    DeformFrameReport r = deformer->solveFrame(*animated, *settings);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const std::string file = sequence->files[i].filename().string();
    if (!r.finite) {
      std::fprintf(stderr, "tetlab deform: %s: %s\n", file.c_str(), r.problem.c_str());
      exitCode = kExitNonFinite;
    }
    converged += r.converged ? 1 : 0;
    worstBefore = std::max(worstBefore, std::abs(r.volumeError(r.animatedVolume)));
    worstAfter = std::max(worstAfter, std::abs(r.volumeError(r.solvedVolume)));
    const char* how = r.convergedByMotion ? " (converged: the moves left are under the tolerance of an edge)"
                      : r.converged       ? ""
                      : r.stalled         ? " (stalled: not converged)"
                                          : " (not converged: cap reached)";
    char left[64] = "";
    if (!r.converged && r.remainingMove >= 0.0f)
      std::snprintf(left, sizeof left, " (about %.2g m of moves left)", double(r.remainingMove));
    std::printf("frame %zu/%zu %s: %d iterations, residual %.2e%s%s, volume %s -> %s, %.0f ms\n", i + 1, frames,
                file.c_str(), r.iterations, double(r.residual), how, left,
                percent(r.volumeError(r.animatedVolume)).c_str(), percent(r.volumeError(r.solvedVolume)).c_str(), ms);
    std::fflush(stdout);
    if (csv) {
      csv << sequence->firstIndex + int(i) << ',' << file << ',' << r.iterations << ',' << r.firstResidual << ',' << r.residual << ','
          << (r.converged ? 1 : 0) << ',' << r.volumeError(r.animatedVolume) << ','
          << r.volumeError(r.solvedVolume) << ',' << ms << ',' << r.remainingMove << '\n';
    }
    if (picture) {
      Result<Image> image = picture->draw(*animated, deformer->solvedSurface());
      if (!image) return fail(image.error().message);
      if (recorder)
        if (Status s = recorder->addFrame(*image); !s) return fail("--record: " + s.error().message);
      lastPicture = std::move(*image);
    }
    if (!a.exportDir.empty()) {
      const ExportSurface surface{"deformed", deformer->solvedSurface(), {}, rest->triangles};
      if (Status s = writeObj(std::filesystem::path(a.exportDir) / file, std::span<const ExportSurface>(&surface, 1),
                              "tetlab deform: " + file + " corrected toward the rest shape of " + restName);
          !s)
        return fail(s.error().message);
    }
  }
  if (recorder)
    if (Status s = recorder->stop(); !s) return fail("--record: " + s.error().message);
  if (!a.screenshot.empty())
    if (Status s = writePng(a.screenshot, lastPicture); !s) return fail("--screenshot: " + s.error().message);
  if (csv) {
    csv.flush();
    if (!csv) return fail("writing the CSV '" + a.csv + "' failed (disk full?)");
  }
  if (picture)
    std::printf("tetlab deform: picture: rest (blue), animated (red), solved (green)%s%s\n",
                a.screenshot.empty() ? "" : (", last frame in " + a.screenshot).c_str(),
                a.record.empty() ? "" : (", every frame in " + a.record).c_str());
  std::printf("tetlab deform: %d of %zu frames converged; largest volume error %s in the animation, %s solved%s\n",
              converged, frames, percent(worstBefore).c_str(), percent(worstAfter).c_str(),
              a.exportDir.empty() ? "" : (", written to " + a.exportDir).c_str());
  return exitCode;
}

}  // namespace tetlab
