#pragma once
// OBJ loading for whatever users drop in (scans, game assets, Blender exports):
// tinyobjloader parses, then we triangulate, merge groups, weld, drop
// degenerate/duplicate faces and unreferenced vertices, and report every repair.
#include <string>
#include <vector>

#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

struct ObjLoadOptions {
  float weldRelativeEpsilon = 1e-6f;  // weld distance as a fraction of the bounding-box diagonal
  bool normalizeScale = false;        // fit the mesh into a cube of side fitSize, centred at origin
  float fitSize = 1.0f;               // [m] when normalizeScale
};

struct ObjLoadReport {
  std::vector<std::string> groups;    // shape/group names merged into the surface
  size_t inputVertices = 0;
  size_t inputFaces = 0;              // polygons as in the file
  size_t trianglesFromPolygons = 0;   // extra triangles created by splitting quads/n-gons
  size_t weldedVertices = 0;
  size_t degenerateFacesDropped = 0;
  size_t duplicateFacesDropped = 0;
  size_t unreferencedVerticesRemoved = 0;
  bool missingMaterialFile = false;
  std::vector<std::string> warnings;  // human-readable, one per repair/oddity
};

struct LoadedSurface {
  SurfaceMesh mesh;                   // in the (possibly normalized) working units
  float scaleToOriginal = 1.0f;       // multiply working coordinates by this ...
  glm::vec3 offsetToOriginal{0.0f};   // ... then add this to get the file's units
  ObjLoadReport report;
};

// Errors name the file and, where possible, the line: empty file, binary
// garbage, NaN/inf coordinates, out-of-range indices, no faces.
Result<LoadedSurface> loadObj(const std::string& path, const ObjLoadOptions& options = {});
// The same on the file's bytes already in memory (loadObj reads the file and
// calls this; the fuzz target feeds it directly). `path` names the text in
// messages and is where 'mtllib' files are looked for.
Result<LoadedSurface> loadObjText(const std::string& path, const std::string& text, const ObjLoadOptions& options = {});

// The file's polylines ('l' statements) as point lists, for strand bodies;
// consecutive repeated points are dropped (a zero-length segment), and with
// normalizeScale the points are fitted like a surface. Errors name the file:
// no polylines, a polyline left with fewer than two points.
struct LoadedPolylines {
  std::vector<std::vector<glm::vec3>> lines;
  std::vector<std::string> warnings;
};
Result<LoadedPolylines> loadObjPolylines(const std::string& path, const ObjLoadOptions& options = {});
Result<LoadedPolylines> loadObjPolylinesText(const std::string& path, const std::string& text,
                                             const ObjLoadOptions& options = {});

// How many faces and polylines the file has (the prescan alone: no parse), so a
// caller can choose a surface or strands before paying for either.
struct ObjContents {
  size_t faces = 0, polylines = 0;
};
Result<ObjContents> scanObjContents(const std::string& path);

}  // namespace tetlab
