// The path decision of tetrahedralize.h: check, TetGen (isolated), fallback,
// cleanup. Every branch records its reason in plain words.
#include "core/mesh/tetrahedralize.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/mesh/surface_simplify.h"
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
  auto report = [&](TetPhase phase, float fraction) {
    if (progress) progress(phase, fraction);
  };
  auto cancelled = [&] { return cancel && cancel->load(); };
  if (surface.positions.empty() || surface.triangles.empty()) return Error{"cannot tetrahedralize an empty surface"};
  if (options.targetTets < 1) return Error{"the target tet count must be at least 1"};

  TetResult out;
  report(TetPhase::Checking, 0.0f);
  out.surfaceChecks = checkSurface(surface);
  if (options.validateInput) {
    // Flat whatever the topology: neither TetGen nor the fallback can find a volume.
    const glm::dvec3 e = out.surfaceChecks.boundsMax - out.surfaceChecks.boundsMin;
    if (!(std::min({e.x, e.y, e.z}) > kMinRelativeThickness * std::max({e.x, e.y, e.z}))) {
      return Error{"the surface is flat (its bounding box has no thickness), so it encloses no volume to fill "
                   "with tets"};
    }
  }
  // TetGen ignores facet orientation, but the winding number does not.
  SurfaceMesh oriented = surface;
  out.orientationFix = fixOrientation(oriented);
  out.checkSeconds = secondsSince(start);
  if (cancelled()) return Error{"tetrahedralization cancelled"};

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

  bool meshed = false;
  if (tryTetGen) {
    report(TetPhase::TetGen, 0.0f);
    const auto t0 = std::chrono::steady_clock::now();
    const double volume = std::fabs(out.surfaceChecks.signedVolume);
    // A surface much denser than the target would force far more tets than
    // asked for (TetGen keeps every surface triangle): simplify the copy TetGen sees.
    SurfaceMesh simplified;
    const SurfaceMesh* input = &surface;
    std::string simplifyNote;
    if (options.simplifyDenseSurface &&
        double(surface.triangles.size()) > kDenseSurfaceTrianglesPerTet * double(options.targetTets)) {
      SimplifyReport sr;
      const size_t targetTriangles = size_t(std::max(4.0, kSimplifiedTrianglesPerTet * double(options.targetTets)));
      Result<SurfaceMesh> simple = simplifySurface(surface, targetTriangles, &sr);
      if (simple && checkSurface(*simple).selfIntersectingPairs == 0) {
        simplified = std::move(simple.value());
        input = &simplified;
        out.simplifiedTriangles = simplified.triangles.size();
        simplifyNote = "; the surface was simplified from " + std::to_string(surface.triangles.size()) + " to " +
                       std::to_string(simplified.triangles.size()) +
                       " triangles for TetGen (the original surface is drawn through the embedding)";
      } else {
        simplifyNote = "; the surface could not be simplified without self-intersections, so TetGen got all " +
                       std::to_string(surface.triangles.size()) + " triangles";
      }
      if (cancelled()) return Error{"tetrahedralization cancelled"};
    }
    TetGenSettings settings;
    settings.quality = options.quality;
    settings.radiusEdgeRatio = options.radiusEdgeRatio;
    settings.preserveSurface = options.preserveSurface;
    bool splitSurface = false;
    if (volume > 0.0) {
      settings.maxVolume = kMaxVolumeSlack * volume / double(options.targetTets);
      // Edge of a regular tet of the mean target volume: V = L^3 / (6 sqrt 2).
      const double targetEdge = std::cbrt(6.0 * std::sqrt(2.0) * volume / double(options.targetTets));
      splitSurface = options.preserveSurface && options.splitCoarseSurface &&
                     meanEdgeLength(*input) > kCoarseSurfaceEdgeRatio * targetEdge;
      if (splitSurface) settings.preserveSurface = false;
    }
    // Same unit box as callTetGen uses, so the reported switches are the ones TetGen sees.
    glm::dvec3 lo(input->positions[0]), hi = lo;
    for (const glm::vec3& p : input->positions) {
      lo = glm::min(lo, glm::dvec3(p));
      hi = glm::max(hi, glm::dvec3(p));
    }
    const double unit = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    out.tetgenSwitches = tetgenSwitches(settings, unit > 0.0 ? 1.0 / unit : 1.0);
    IsolationOptions isolation;
    isolation.timeoutSeconds = options.tetgenTimeoutSeconds;
    isolation.fault = options.testFault;
    Result<TetMesh> tg = runTetGenIsolated(*input, settings, isolation, cancel);
    out.tetgenSeconds = secondsSince(t0);
    if (cancelled()) return Error{"tetrahedralization cancelled"};
    if (tg) {
      out.mesh = std::move(tg.value());
      out.path = TetPath::TetGen;
      out.reason = "TetGen meshed the closed, manifold surface (switches " + out.tetgenSwitches + ")";
      if (splitSurface) out.reason += "; surface triangles were split because they are much larger than the target tets";
      out.reason += simplifyNote;
      meshed = true;
    } else {
      out.tetgenError = tg.error().message;
      if (options.method == TetMethod::TetGenOnly) return Error{tg.error().message};
      out.reason = "TetGen failed (" + tg.error().message + "); used the voxel fallback instead";
    }
  }

  if (!meshed) {
    report(TetPhase::Fallback, 0.0f);
    const auto t0 = std::chrono::steady_clock::now();
    VoxelOptions voxel;
    voxel.resolution = options.voxelResolution;
    voxel.targetTets = options.targetTets;
    VoxelReport vr;
    Result<TetMesh> vm = voxelTetrahedralize(
        oriented, voxel, &vr, [&](float f) { report(TetPhase::Fallback, f); }, cancel);
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
  }

  report(TetPhase::Cleanup, 0.0f);
  out.cleanup = cleanTetMesh(out.mesh);
  if (out.mesh.tets.empty()) return Error{"tetrahedralization produced no valid tetrahedra: " + out.reason};
  out.totalSeconds = secondsSince(start);
  report(TetPhase::Done, 1.0f);
  return out;
}

}  // namespace tetlab
