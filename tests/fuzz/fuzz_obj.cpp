// Fuzz target: the OBJ loader and the surface checks, on the bytes as a file.
// Whatever users drop in goes through exactly this (obj_loader.h): our
// validator, tinyobjloader, ear clipping, welding; then the checks that pick
// TetGen or the voxel fallback. Loading as a surface and as polylines both run,
// since a scene body may ask for either. A bad file must end in an Error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/mesh/obj_loader.h"
#include "core/mesh/surface_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tetlab;
  const std::string text(reinterpret_cast<const char*>(data), size);
  // A path in no folder: 'mtllib' names are looked up next to it, i.e. nowhere useful.
  const std::string path = "/nonexistent/fuzz.obj";
  ObjLoadOptions options;
  options.normalizeScale = true;  // as scene bodies load (fitted to fitSize)
  options.fitSize = 0.3f;

  Result<LoadedSurface> surface = loadObjText(path, text, options);
  if (surface) {
    SurfaceCheckReport report = checkSurface(surface->mesh);
    (void)report.problems();
    (void)report.relativeVolume();
    SurfaceMesh oriented = surface->mesh;
    (void)fixOrientation(oriented);
  }
  Result<LoadedPolylines> lines = loadObjPolylinesText(path, text, options);
  (void)lines;
  return 0;
}
