#pragma once
// TetGen alone (no voxel fallback) at a tet target: the meshing tests' call,
// so a TetGen failure fails the test instead of falling back silently.
#include "core/mesh/tetrahedralize.h"

namespace tetlab::test {

inline Result<TetResult> tetGenOnly(const SurfaceMesh& surface, int targetTets) {
  TetOptions options;
  options.targetTets = targetTets;
  options.method = TetMethod::TetGenOnly;
  return tetrahedralizeSurface(surface, options);
}

}  // namespace tetlab::test
