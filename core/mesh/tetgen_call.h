#pragma once
// The one place that includes tetgen.h (TetGen 1.5, AGPL-3.0). Everything
// else goes through core/mesh/tetrahedralize.h, so TetGen can be swapped.
// Calling this directly runs TetGen in the current process, where a crash
// takes the process down: use runTetGenIsolated (tetgen_isolated.h).
#include <string>

#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

struct TetGenSettings {
  bool quality = true;             // -q: refine until radius-edge ratio <= radiusEdgeRatio
  double radiusEdgeRatio = 1.414;  // TetGen's default is 2.0; sqrt(2) gives rounder tets
  double maxVolume = 0.0;          // -a: max tet volume in the surface's units; 0 = unbounded
  bool preserveSurface = true;     // -Y: no Steiner points on the boundary (surface kept exactly)
};

// Switch string for a surface normalized to unit size: maxVolume is given
// in the surface's units, `unitScale` maps those units to the unit box.
// Always "p" (PLC input), "z" (zero-based), "Q" (quiet).
std::string tetgenSwitches(const TetGenSettings& settings, double unitScale);

// Runs TetGen on a closed triangle surface. The surface is moved into a unit
// box first (TetGen's tolerances are tuned for that) and the result moved
// back. TetGen's thrown int codes become messages.
Result<TetMesh> callTetGen(const SurfaceMesh& surface, const TetGenSettings& settings);

// Meaning of the int TetGen 1.5 throws (terminatetetgen in tetgen.h).
std::string describeTetGenError(int code);

}  // namespace tetlab
