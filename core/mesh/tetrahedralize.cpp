// The path decision of tetrahedralize.h: check, TetGen (isolated), fallback,
// cleanup. Every branch records its reason in plain words.
#include "core/mesh/tetrahedralize.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/mesh/diagonal_flips.h"
#include "core/mesh/surface_simplify.h"
#include "core/mesh/tet_improve.h"
#include "core/mesh/voxel_fallback.h"

namespace tetlab {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Why TetGen should not see this surface, or "" when it may.
std::string rejectReason(const SurfaceCheckReport& c) {
  if (c.triangles < 4) return "the surface has fewer than 4 triangles, so it cannot enclose a volume";
  if (!c.watertight()) return "the surface is not watertight (" + std::to_string(c.boundaryEdges) + " boundary edges)";
  if (c.nonManifoldEdges > 0) return "the surface is non-manifold (" + std::to_string(c.nonManifoldEdges) + " edges with more than two faces)";
  if (c.nonManifoldVertices > 0) return "the surface is non-manifold (" + std::to_string(c.nonManifoldVertices) + " bow-tie vertices)";
  if (c.selfIntersecting()) return "the surface intersects itself (" + std::to_string(c.selfIntersectingPairs) + " crossing triangle pairs)";
  if (!(c.relativeVolume() > kMinRelativeVolume)) return "the surface encloses (almost) no volume: it is flat";
  return "";
}

double meanEdgeLength(const SurfaceMesh& s) {
  double sum = 0.0;
  for (const glm::uvec3& t : s.triangles)
    for (int k = 0; k < 3; ++k) sum += glm::length(glm::dvec3(s.positions[t[k]]) - glm::dvec3(s.positions[t[(k + 1) % 3]]));
  return s.triangles.empty() ? 0.0 : sum / (3.0 * double(s.triangles.size()));
}

// The caller's progress callback and cancel flag, shared by every step.
struct TetContext {
  const TetProgress& progress;
  const std::atomic<bool>* cancel;
  void report(TetPhase phase, float fraction) const {
    if (progress) progress(phase, fraction);
  }
  bool cancelled() const { return cancel && cancel->load(); }
};

Error cancelledError() { return Error{"tetrahedralization cancelled"}; }

Status checkArguments(const SurfaceMesh& surface, const TetOptions& options) {
  if (surface.positions.empty() || surface.triangles.empty()) return Error{"cannot tetrahedralize an empty surface"};
  if (options.targetTets < 1) return Error{"the target tet count must be at least 1"};
  return Ok{};
}

// Fills out.surfaceChecks; with validateInput a flat bounding box is an error.
Status checkInputSurface(const SurfaceMesh& surface, const TetOptions& options, TetResult& out) {
  out.surfaceChecks = checkSurface(surface);
  if (options.validateInput) {
    // Flat whatever the topology: neither TetGen nor the fallback can find a volume.
    const glm::dvec3 e = out.surfaceChecks.boundsMax - out.surfaceChecks.boundsMin;
    if (!(std::min({e.x, e.y, e.z}) > kMinRelativeThickness * std::max({e.x, e.y, e.z}))) {
      return Error{"the surface is flat (its bounding box has no thickness), so it encloses no volume to fill "
                   "with tets"};
    }
  }
  return Ok{};
}

// Whether TetGen gets the surface; when it does not, out.reason says why.
Result<bool> chooseTetGen(const TetOptions& options, TetResult& out) {
  bool tryTetGen = options.method != TetMethod::VoxelOnly;
  if (options.method == TetMethod::VoxelOnly) out.reason = "the voxel fallback was requested";
  if (tryTetGen && options.validateInput) {
    const std::string why = rejectReason(out.surfaceChecks);
    if (!why.empty()) {
      if (options.method == TetMethod::TetGenOnly) return Error{"TetGen cannot mesh this surface: " + why};
      out.reason = "TetGen was not used because " + why + "; used the voxel fallback instead";
      tryTetGen = false;
    }
  }
  return tryTetGen;
}

// A surface much denser than the target would force far more tets than
// asked for (TetGen keeps every surface triangle): simplify the copy TetGen
// sees. Returns the surface TetGen gets (surface or simplified); note is
// appended to the reason.
Result<const SurfaceMesh*> simplifyDenseSurface(const SurfaceMesh& surface, const TetOptions& options,
                                                const TetContext& ctx, TetResult& out, SurfaceMesh& simplified,
                                                std::string& note) {
  if (!(options.simplifyDenseSurface &&
        double(surface.triangles.size()) > kDenseSurfaceTrianglesPerTet * double(options.targetTets))) {
    return &surface;
  }
  const SurfaceMesh* input = &surface;
  SimplifyReport sr;
  const size_t targetTriangles = size_t(std::max(4.0, kSimplifiedTrianglesPerTet * double(options.targetTets)));
  Result<SurfaceMesh> simple = simplifySurface(surface, targetTriangles, &sr);
  if (simple && checkSurface(*simple).selfIntersectingPairs == 0) {
    simplified = std::move(simple.value());
    input = &simplified;
    out.simplifiedTriangles = simplified.triangles.size();
    note = "; the surface was simplified from " + std::to_string(surface.triangles.size()) + " to " +
           std::to_string(simplified.triangles.size()) +
           " triangles for TetGen (the original surface is drawn through the embedding)";
  } else {
    note = "; the surface could not be simplified without self-intersections, so TetGen got all " +
           std::to_string(surface.triangles.size()) + " triangles";
  }
  if (ctx.cancelled()) return cancelledError();
  return input;
}

// TetGen's settings for the target: a volume bound per tet, and splitting of
// surface triangles much larger than the target tets (sets splitSurface).
TetGenSettings tetgenSettingsFor(const TetOptions& options, double volume, const SurfaceMesh& input,
                                 bool& splitSurface) {
  TetGenSettings settings;
  settings.quality = options.quality;
  settings.radiusEdgeRatio = options.radiusEdgeRatio;
  settings.preserveSurface = options.preserveSurface;
  splitSurface = false;
  if (volume > 0.0) {
    settings.maxVolume = kMaxVolumeSlack * volume / double(options.targetTets);
    // Edge of a regular tet of the mean target volume: V = L^3 / (6 sqrt 2).
    const double targetEdge = std::cbrt(6.0 * std::sqrt(2.0) * volume / double(options.targetTets));
    splitSurface = options.preserveSurface && options.splitCoarseSurface &&
                   meanEdgeLength(input) > kCoarseSurfaceEdgeRatio * targetEdge;
    if (splitSurface) settings.preserveSurface = false;
  }
  return settings;
}

// Same unit box as callTetGen uses, so the reported switches are the ones TetGen sees.
std::string switchesSeenByTetGen(const TetGenSettings& settings, const SurfaceMesh& input) {
  glm::dvec3 lo(input.positions[0]), hi = lo;
  for (const glm::vec3& p : input.positions) {
    lo = glm::min(lo, glm::dvec3(p));
    hi = glm::max(hi, glm::dvec3(p));
  }
  const double unit = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  return tetgenSwitches(settings, unit > 0.0 ? 1.0 / unit : 1.0);
}

// TetGen in its isolated process; returns whether it meshed. A TetGen failure
// is an error only for TetMethod::TetGenOnly, else out.reason leads to the fallback.
Result<bool> runTetGen(const SurfaceMesh& surface, const TetOptions& options, const TetContext& ctx, TetResult& out) {
  ctx.report(TetPhase::TetGen, 0.0f);
  const auto t0 = std::chrono::steady_clock::now();
  const double volume = std::fabs(out.surfaceChecks.signedVolume);
  SurfaceMesh simplified;
  std::string simplifyNote;
  Result<const SurfaceMesh*> input = simplifyDenseSurface(surface, options, ctx, out, simplified, simplifyNote);
  if (!input) return input.error();
  bool splitSurface = false;
  const TetGenSettings settings = tetgenSettingsFor(options, volume, **input, splitSurface);
  out.tetgenSwitches = switchesSeenByTetGen(settings, **input);
  IsolationOptions isolation;
  isolation.timeoutSeconds = options.tetgenTimeoutSeconds;
  isolation.fault = options.testFault;
  Result<TetMesh> tg = runTetGenIsolated(**input, settings, isolation, ctx.cancel);
  if (ctx.cancelled()) return cancelledError();
  if (!tg) {
    out.tetgenSeconds = secondsSince(t0);
    out.tetgenError = tg.error().message;
    if (options.method == TetMethod::TetGenOnly) return Error{tg.error().message};
    out.reason = "TetGen failed (" + tg.error().message + "); used the voxel fallback instead";
    return false;
  }
  // The volume bound sets the count only where it binds; a coarse surface TetGen
  // refines (-Y dropped) or a thin part makes its quality refinement add many
  // more (a low-poly 180-quad torus: 14,898 tets for 5,000). TetGen's count
  // follows 1 / maxVolume there, so rescale the bound by the overshoot and run
  // again, at most kTargetRetries times, keeping the run closest to the target.
  const double target = double(options.targetTets);
  const auto miss = [&](const TetMesh& m) { return std::fabs(std::log(double(m.tets.size()) / target)); };
  int retries = 0;
  const size_t first = tg->tets.size();
  TetGenSettings retry = settings;
  // A rerun may refine far more than the first run did (a radius-edge bound
  // near 1 on a split surface ran into the 120 s timeout, where the first run
  // took milliseconds): it gets kRetryTimeFactor times the first run's time
  // (at least kRetryMinSeconds), and a rerun that times out keeps the first mesh.
  IsolationOptions retryIsolation = isolation;
  retryIsolation.timeoutSeconds =
      std::min(isolation.timeoutSeconds, std::max(kRetryMinSeconds, kRetryTimeFactor * secondsSince(t0)));
  size_t lastCount = first;  // of the latest run, which the next bound is rescaled from
  while (retries < kTargetRetries && retry.maxVolume > 0.0 && miss(*tg) > std::log(kTargetTolerance)) {
    // Too few with -Y: the kept surface triangles leave a thin part no room
    // for interior points (a 180-quad torus of tube radius 0.15: 524 tets for
    // 2,000 at any bound), so let TetGen split them first.
    const bool split = retry.preserveSurface && double(lastCount) < target;
    if (split) {
      retry.preserveSurface = false;
    } else {
      retry.maxVolume *= double(lastCount) / target;
    }
    Result<TetMesh> again = runTetGenIsolated(**input, retry, retryIsolation, ctx.cancel);
    if (ctx.cancelled()) return cancelledError();
    ++retries;
    if (!again) break;  // keep the mesh we have
    lastCount = again->tets.size();
    const bool better = miss(*again) < miss(*tg);
    if (better) {
      splitSurface = splitSurface || (settings.preserveSurface && !retry.preserveSurface);
      tg = std::move(again);
      out.tetgenSwitches = switchesSeenByTetGen(retry, **input);
    }
    // A split surface that overshoots is rescaled next; any other miss stops.
    if (!better && !split) break;
  }
  out.tetgenSeconds = secondsSince(t0);
  out.mesh = std::move(tg.value());
  out.path = TetPath::TetGen;
  out.reason = "TetGen meshed the closed, manifold surface (switches " + out.tetgenSwitches + ")";
  if (splitSurface) out.reason += "; surface triangles were split because they are much larger than the target tets";
  if (retries > 0)
    out.reason += "; its first run made " + std::to_string(first) + " tets, so the volume bound was rescaled to the " +
                  "target (" + std::to_string(retries) + (retries == 1 ? " rerun)" : " reruns)");
  out.reason += simplifyNote;
  return true;
}

// The voxel fallback on the oriented surface; its resolution is appended to
// out.reason, which already says why TetGen was not used.
Status runFallback(const SurfaceMesh& oriented, const TetOptions& options, const TetContext& ctx, TetResult& out) {
  ctx.report(TetPhase::Fallback, 0.0f);
  const auto t0 = std::chrono::steady_clock::now();
  VoxelOptions voxel;
  voxel.resolution = options.voxelResolution;
  voxel.targetTets = options.targetTets;
  VoxelReport vr;
  Result<TetMesh> vm = voxelTetrahedralize(
      oriented, voxel, &vr, [&ctx](float f) { ctx.report(TetPhase::Fallback, f); }, ctx.cancel);
  out.fallbackSeconds = secondsSince(t0);
  if (!vm) {
    std::string msg = vm.error().message;
    if (!out.reason.empty()) msg = out.reason + ", but " + msg;
    return Error{msg};
  }
  out.mesh = std::move(vm.value());
  out.path = TetPath::VoxelFallback;
  out.voxelResolution = vr.resolution;
  std::ostringstream s;
  s << " (resolution " << vr.resolution << ", " << vr.insideCells << " inside cells)";
  out.reason += s.str();
  return Ok{};
}

// Orientation first: the sliver pass needs positive tets. It runs on TetGen's
// meshes only (the voxel lattice's tets are all alike, 6V/Lmax^3 = 1/(2 sqrt 3)
// or better), and a second cleanup compacts the vertices a removed hull sliver
// may leave unused.
Status cleanUp(const TetOptions& options, const TetContext& ctx, TetResult& out) {
  ctx.report(TetPhase::Cleanup, 0.0f);
  out.cleanup = cleanTetMesh(out.mesh);
  if (out.mesh.tets.empty()) return Error{"tetrahedralization produced no valid tetrahedra: " + out.reason};
  if (out.path == TetPath::TetGen && options.quality) {
    TetImproveOptions improve;
    improve.keepSurface = options.keepSurfaceExact;
    out.improve = improveTetQuality(out.mesh, improve);
    out.cleanup.unusedVerticesRemoved += cleanTetMesh(out.mesh).unusedVerticesRemoved;
    if (out.improve.changes() > 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "; sliver removal raised the least 6V/Lmax^3 from %.3f to %.3f", out.improve.minQualityBefore,
                    out.improve.minQualityAfter);
      out.reason += buf;
    }
  }
  return Ok{};
}

}  // namespace

const char* toString(TetPath path) {
  switch (path) {
    case TetPath::TetGen: return "tetgen";
    case TetPath::VoxelFallback: return "voxel-fallback";
  }
  return "?";
}

const char* toString(TetPhase phase) {
  switch (phase) {
    case TetPhase::Checking: return "checking surface";
    case TetPhase::TetGen: return "running TetGen";
    case TetPhase::Fallback: return "voxel fallback";
    case TetPhase::Cleanup: return "cleaning up";
    case TetPhase::Done: return "done";
  }
  return "?";
}

Result<TetResult> tetrahedralizeSurface(const SurfaceMesh& surface, const TetOptions& options,
                                        const TetProgress& progress, const std::atomic<bool>* cancel) {
  const auto start = std::chrono::steady_clock::now();
  const TetContext ctx{progress, cancel};
  if (Status s = checkArguments(surface, options); !s) return s.error();

  TetResult out;
  ctx.report(TetPhase::Checking, 0.0f);
  if (Status s = checkInputSurface(surface, options, out); !s) return s.error();
  // A surface that crosses itself only through the diagonals its polygons
  // were split along is mended by taking the other diagonals (diagonal_flips.h).
  SurfaceMesh flipped;
  const SurfaceMesh* input = &surface;
  if (options.validateInput && out.surfaceChecks.selfIntersecting() && out.surfaceChecks.watertight() &&
      out.surfaceChecks.manifold()) {
    flipped = surface;
    out.diagonalFlips = flipCrossingDiagonals(flipped);
    if (out.diagonalFlips.flipped > 0 && out.diagonalFlips.crossingAfter == 0) {
      input = &flipped;
      out.surfaceChecks = checkSurface(flipped);
    }
  }
  // TetGen ignores facet orientation, but the winding number does not.
  SurfaceMesh oriented = *input;
  out.orientationFix = fixOrientation(oriented);
  out.checkSeconds = secondsSince(start);
  if (ctx.cancelled()) return cancelledError();

  Result<bool> tryTetGen = chooseTetGen(options, out);
  if (!tryTetGen) return tryTetGen.error();
  bool meshed = false;
  if (*tryTetGen) {
    Result<bool> tetgen = runTetGen(*input, options, ctx, out);
    if (!tetgen) return tetgen.error();
    meshed = *tetgen;
  }
  // Also after TetGen failed: out.reason then says why, and the fallback adds to it.
  if (!meshed) {
    if (Status s = runFallback(oriented, options, ctx, out); !s) return s.error();
  }

  if (input == &flipped)
    out.reason += std::string(out.reason.empty() ? "" : "; ") + "the surface crossed itself in " +
                  std::to_string(out.diagonalFlips.crossingBefore) + " triangle pairs only through how its polygons "
                  "were split: " + std::to_string(out.diagonalFlips.flipped) +
                  (out.diagonalFlips.flipped == 1 ? " diagonal was" : " diagonals were") + " flipped";
  if (Status s = cleanUp(options, ctx, out); !s) return s.error();
  out.totalSeconds = secondsSince(start);
  ctx.report(TetPhase::Done, 1.0f);
  return out;
}

}  // namespace tetlab
