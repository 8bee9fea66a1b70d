#pragma once
// Surface -> tet mesh, the one entry point the rest of tetlab uses. TetGen
// (AGPL-3.0) stays behind this header so it can be swapped.
//
//   SurfaceMesh --checks--> closed, manifold, not self-intersecting, has volume?
//        |  yes                                   | no (reason recorded)
//        v                                        |
//   (simplify a copy if much denser than the target tets)
//        v                                        v
//   TetGen in a child process --fails/crashes--> voxel fallback (winding number)
//        \___________________  _____________________/
//                            v
//                 cleanup: positive orientation, no degenerate tets
//
// TetResult says which path was taken and why; the UI and `tetlab inspect`
// show that sentence to the user.
#include <atomic>
#include <functional>
#include <string>

#include "core/mesh/diagonal_flips.h"
#include "core/mesh/surface_checks.h"
#include "core/mesh/tet_cleanup.h"
#include "core/mesh/tet_improve.h"
#include "core/mesh/tet_mesh.h"
#include "core/mesh/tet_target.h"
#include "core/mesh/tetgen_isolated.h"
#include "core/result.h"

namespace tetlab {

enum class TetMethod {
  Auto,        // TetGen when the surface allows it, else (or on failure) the voxel fallback
  TetGenOnly,  // TetGen or an error
  VoxelOnly,   // always the voxel lattice
};

enum class TetPath { TetGen, VoxelFallback };
enum class TetPhase { Checking, TetGen, Fallback, Cleanup, Done };

const char* toString(TetPath path);
const char* toString(TetPhase phase);

struct TetOptions {
  TetMethod method = TetMethod::Auto;
  int targetTets = kDefaultTargetTets;  // approximate; sets TetGen's max volume and the fallback's resolution.
                                    // TetGen keeps every surface triangle, so a dense surface can need more.
  bool quality = true;              // TetGen -q
  double radiusEdgeRatio = 1.414;   // TetGen -q bound on circumradius / shortest edge (>= 1.0)
  bool preserveSurface = true;      // TetGen -Y: keep the surface triangles unsplit (far fewer tets on
                                    // dense scans: bunny 36k vs 175k tets at a 3000 target) ...
  bool splitCoarseSurface = true;   // ... unless the surface is much coarser than the target tets (a
                                    // 12-triangle box), where -Y would block all refinement: then drop -Y.
                                    // The boundary lies on the input surface either way.
  bool simplifyDenseSurface = true; // a surface with more than kDenseSurfaceTrianglesPerTet * targetTets
                                    // triangles is simplified (quadric edge collapse) for TetGen only
  bool keepSurfaceExact = false;    // the sliver pass leaves every surface vertex and triangle as TetGen
                                    // made it (the deformer finds the input's vertices among the tets')
  bool validateInput = true;        // reject open/non-manifold/self-intersecting/flat input before TetGen
  double tetgenTimeoutSeconds = 120.0;
  int voxelResolution = 0;          // fallback cells along the longest axis; 0 = from targetTets
  ChildFault testFault = ChildFault::None;  // test hook: make TetGen's child process fail
};

struct TetResult {
  TetMesh mesh;
  TetPath path = TetPath::TetGen;
  std::string reason;               // why this path, one sentence for the user
  std::string tetgenSwitches;       // when TetGen was called
  std::string tetgenError;          // when TetGen was called and failed
  int voxelResolution = 0;          // when the fallback ran
  size_t simplifiedTriangles = 0;   // triangles TetGen got when the surface was simplified, else 0
  SurfaceCheckReport surfaceChecks; // of the surface as given, or as mended by diagonal flips (below)
  DiagonalFlipReport diagonalFlips; // a self-crossing surface: the diagonals flipped (diagonal_flips.h)
  OrientationFixReport orientationFix;
  TetCleanupReport cleanup;
  TetImproveReport improve;         // TetGen path with quality on: the sliver pass (tet_improve.h)
  double checkSeconds = 0.0, tetgenSeconds = 0.0, fallbackSeconds = 0.0, totalSeconds = 0.0;
  bool fromCache = false;           // loaded by TetCache (checks and timings then empty)
};

using TetProgress = std::function<void(TetPhase phase, float fraction)>;

// Max tet volume handed to TetGen for a target count: a quality mesh's mean
// tet is smaller than the bound, so the bound is kMaxVolumeSlack times the mean.
inline constexpr double kMaxVolumeSlack = 1.5;
// TetGen's count may miss the target by more than kTargetTolerance either way
// (quality refinement near a coarse or thin surface); the bound is then
// rescaled by the miss and TetGen run again, at most kTargetRetries times.
inline constexpr double kTargetTolerance = 1.5;
inline constexpr int kTargetRetries = 3;
// Each rerun may take this many times the first run's wall time, at least
// kRetryMinSeconds; past that it is stopped and the first mesh kept.
inline constexpr double kRetryTimeFactor = 20.0;
inline constexpr double kRetryMinSeconds = 2.0;
// TetGen with -Y makes about 3 tets per surface triangle on the shared meshes
// (bunny 1000 triangles -> 3689 tets at a 3000 target), so a surface is dense
// above targetTets / 2 triangles and is simplified to targetTets / 3.
inline constexpr double kDenseSurfaceTrianglesPerTet = 0.5;
inline constexpr double kSimplifiedTrianglesPerTet = 1.0 / 3.0;
// "Much coarser": mean surface edge above this times the target tet edge.
inline constexpr double kCoarseSurfaceEdgeRatio = 2.0;
// Below this |volume| / diagonal^3 a closed surface counts as flat (TetGen aborts on it).
inline constexpr double kMinRelativeVolume = 1e-7;
// Below this smallest / largest bounding-box side any surface is flat.
inline constexpr double kMinRelativeThickness = 1e-6;

// Never throws; cancel may be null; progress may be empty and is called
// from the calling thread.
Result<TetResult> tetrahedralizeSurface(const SurfaceMesh& surface, const TetOptions& options = {},
                                        const TetProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace tetlab
