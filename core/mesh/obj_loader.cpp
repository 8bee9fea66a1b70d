// OBJ loading: our validator first (obj_prescan), then tinyobjloader parses
// without triangulating so we can split n-gons by ear clipping ourselves and
// count them, then surface_repair welds and cleans. Materials are never used,
// so tinyobjloader gets a material reader that reads nothing; we only check
// whether the named .mtl files exist, to report them missing.
//
//   bytes --prescan--> validated text --tinyobjloader--> polygons
//         --ear clipping--> triangle soup --weld/drop/compact--> SurfaceMesh
#include "core/mesh/obj_loader.h"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/mesh/obj_prescan.h"
#include "core/mesh/polygon_triangulation.h"
#include "core/mesh/surface_repair.h"

namespace tetlab {
namespace {

// Materials carry no geometry; do not let the parser open other files.
class NoMaterialReader : public tinyobj::MaterialReader {
 public:
  bool operator()(const std::string&, std::vector<tinyobj::material_t>*, std::map<std::string, int>*, std::string*,
                  std::string*) override {
    return true;
  }
};

Result<std::string> readFileBytes(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{path + ": is a directory, not an OBJ file"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the file (does it exist and is it readable?)"};
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{path + ": read error"};
  return bytes;
}

std::string plural(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// Parsed OBJ as tinyobjloader returns it (materials are never read).
struct ParsedObj {
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
};

// What the validator found that is worth a warning but not an error.
void reportPrescanFindings(const std::string& path, const ObjPrescan& scan, ObjLoadReport& report) {
  report.inputVertices = scan.vertexCount;
  report.inputFaces = scan.faceCount;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  for (const std::string& lib : scan.materialLibraries) {
    std::error_code ec;
    if (!std::filesystem::exists(dir / lib, ec)) {
      report.missingMaterialFile = true;
      report.warnings.push_back("material library '" + lib + "' not found next to the OBJ (ignored: materials are not used)");
    }
  }
  if (scan.unknownStatements > 0) {
    report.warnings.push_back(plural(scan.unknownStatements, "unknown OBJ statement") + " ignored");
  }
}

// tinyobjloader on the validated text, polygons kept whole; its vertex count
// must agree with the validator's or the two read different syntax.
Result<ParsedObj> parseWithTinyObj(const std::string& path, const std::string& bytes, const ObjPrescan& scan) {
  ParsedObj parsed;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  std::istringstream stream(bytes);
  NoMaterialReader noMaterials;
  const bool ok = tinyobj::LoadObj(&parsed.attrib, &parsed.shapes, &materials, &warn, &err, &stream, &noMaterials,
                                   /*triangulate=*/false, /*default_vcols_fallback=*/false);
  if (!ok) {
    return Error{path + ": tinyobjloader could not parse the file: " + (err.empty() ? std::string("unknown error") : err)};
  }
  const size_t vertexCount = parsed.attrib.vertices.size() / 3;
  if (vertexCount != scan.vertexCount) {
    return Error{path + ": the parser read " + std::to_string(vertexCount) + " vertices where the validator counted " +
                 std::to_string(scan.vertexCount) + " (unsupported syntax such as '\\' line continuations?)"};
  }
  return parsed;
}

// The vertices as tinyobjloader read them. Its number parser is not ours: the
// validator's std::from_chars reads "0e500" as 0, tinyobjloader as 0 * 5^500
// = NaN; so what it read is checked again, and a NaN never reaches the weld.
Status collectPositions(const std::string& path, const tinyobj::attrib_t& attrib, SurfaceMesh& mesh) {
  const size_t vertexCount = attrib.vertices.size() / 3;
  mesh.positions.resize(vertexCount);
  for (size_t i = 0; i < vertexCount; ++i) {
    mesh.positions[i] = {attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]};
    const glm::vec3& p = mesh.positions[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
      return Error{path + ": vertex " + std::to_string(i + 1) + " (the 'v' statement number " + std::to_string(i + 1) +
                   ") has a coordinate the OBJ parser reads as NaN or inf (an exponent such as '0e500'?): "
                   "write its coordinates as plain numbers within single precision (|x| < 3.4e38)"};
    }
  }
  return Ok{};
}

// Appends one group's polygons to mesh.triangles, each split by ear clipping;
// adds to polygonCount.
Status triangulateShape(const std::string& path, const tinyobj::shape_t& shape, SurfaceMesh& mesh,
                        ObjLoadReport& report, size_t& polygonCount) {
  const size_t vertexCount = mesh.positions.size();
  size_t cornerTotal = 0;
  for (unsigned char c : shape.mesh.num_face_vertices) cornerTotal += c;
  if (cornerTotal != shape.mesh.indices.size()) {
    return Error{path + ": group '" + shape.name + "' has inconsistent face corner counts after parsing"};
  }
  report.groups.push_back(shape.name.empty() ? std::string("(unnamed)") : shape.name);
  std::vector<glm::dvec3> corners;
  std::vector<glm::uvec3> local;
  size_t offset = 0;
  for (unsigned char corners_in_face : shape.mesh.num_face_vertices) {
    const size_t n = corners_in_face;
    ++polygonCount;
    corners.resize(n);
    for (size_t k = 0; k < n; ++k) {
      const int vi = shape.mesh.indices[offset + k].vertex_index;
      if (vi < 0 || size_t(vi) >= vertexCount) {
        return Error{path + ": a face of group '" + shape.name + "' uses vertex " + std::to_string(vi + 1) +
                     " outside 1.." + std::to_string(vertexCount)};
      }
      corners[k] = glm::dvec3(mesh.positions[size_t(vi)]);
    }
    local.clear();
    triangulatePolygon(corners, local);
    if (n > 3) report.trianglesFromPolygons += local.size() - 1;
    for (const glm::uvec3& t : local) {
      mesh.triangles.push_back({uint32_t(shape.mesh.indices[offset + t.x].vertex_index),
                                uint32_t(shape.mesh.indices[offset + t.y].vertex_index),
                                uint32_t(shape.mesh.indices[offset + t.z].vertex_index)});
    }
    offset += n;
  }
  return Ok{};
}

// Merges every shape/group into one triangle soup, then checks the polygon
// count against the validator's (tinyobjloader drops faces under 3 corners).
Status triangulateShapes(const std::string& path, const std::vector<tinyobj::shape_t>& shapes, const ObjPrescan& scan,
                         SurfaceMesh& mesh, ObjLoadReport& report) {
  size_t polygonCount = 0;
  for (const tinyobj::shape_t& shape : shapes) {
    if (shape.mesh.num_face_vertices.empty()) continue;
    if (Status s = triangulateShape(path, shape, mesh, report, polygonCount); !s) return s;
  }
  if (polygonCount + scan.shortFaceCount != scan.faceCount) {
    return Error{path + ": the parser read " + std::to_string(polygonCount) + " faces where the validator counted " +
                 std::to_string(scan.faceCount - scan.shortFaceCount)};
  }
  return Ok{};
}

void boundsOf(const std::vector<glm::vec3>& positions, glm::dvec3& lo, glm::dvec3& hi) {
  lo = hi = glm::dvec3(positions[0]);
  for (const glm::vec3& p : positions) {
    lo = glm::min(lo, glm::dvec3(p));
    hi = glm::max(hi, glm::dvec3(p));
  }
}

// Welds relative to the bounding-box diagonal so the result does not depend on
// units, drops degenerate/duplicate faces and unused vertices; returns the
// relative weld epsilon used (for the warning).
Result<double> repairMesh(const std::string& path, const ObjLoadOptions& options, const ObjPrescan& scan,
                          SurfaceMesh& mesh, ObjLoadReport& report) {
  glm::dvec3 lo, hi;
  boundsOf(mesh.positions, lo, hi);
  const double diagonal = glm::length(hi - lo);
  if (!(diagonal > 0.0)) return Error{path + ": all vertices are at the same point; the mesh has no extent"};
  const double relEps = std::max(double(options.weldRelativeEpsilon), 0.0);
  const SurfaceRepairCounts counts = repairSurface(mesh, relEps * diagonal);
  report.weldedVertices = counts.weldedVertices;
  report.degenerateFacesDropped = counts.degenerateFacesDropped + scan.shortFaceCount;
  report.duplicateFacesDropped = counts.duplicateFacesDropped;
  report.unreferencedVerticesRemoved = counts.unreferencedVerticesRemoved;
  return relEps;
}

void reportRepairs(ObjLoadReport& report, double relEps) {
  if (report.trianglesFromPolygons > 0)
    report.warnings.push_back("split polygons into triangles: " + plural(report.trianglesFromPolygons, "extra triangle"));
  if (report.weldedVertices > 0)
    report.warnings.push_back("welded " + plural(report.weldedVertices, "duplicate vertex") + " (within " +
                              std::to_string(relEps) + " of the bounding-box diagonal)");
  if (report.degenerateFacesDropped > 0)
    report.warnings.push_back("dropped " + plural(report.degenerateFacesDropped, "degenerate face"));
  if (report.duplicateFacesDropped > 0)
    report.warnings.push_back("dropped " + plural(report.duplicateFacesDropped, "duplicate face"));
  if (report.unreferencedVerticesRemoved > 0)
    report.warnings.push_back("removed " + plural(report.unreferencedVerticesRemoved, "unreferenced vertex"));
}

// Centres the mesh and scales its largest extent to options.fitSize, keeping
// the transform back to the file's units.
Status fitToSize(const std::string& path, const ObjLoadOptions& options, LoadedSurface& out) {
  if (!(options.fitSize > 0.0f) || !std::isfinite(options.fitSize)) {
    return Error{path + ": fitSize must be a positive number to normalize the scale"};
  }
  glm::dvec3 lo, hi;
  boundsOf(out.mesh.positions, lo, hi);
  const glm::dvec3 centre = 0.5 * (lo + hi);
  const glm::dvec3 extent = hi - lo;
  const double largest = std::max({extent.x, extent.y, extent.z});
  const double scale = double(options.fitSize) / largest;
  for (glm::vec3& p : out.mesh.positions) p = glm::vec3((glm::dvec3(p) - centre) * scale);
  out.scaleToOriginal = float(1.0 / scale);
  out.offsetToOriginal = glm::vec3(centre);
  return Ok{};
}

}  // namespace

Result<LoadedSurface> loadObj(const std::string& path, const ObjLoadOptions& options) {
  Result<std::string> bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  return loadObjText(path, *bytes, options);
}

Result<LoadedSurface> loadObjText(const std::string& path, const std::string& text, const ObjLoadOptions& options) {
  Result<ObjPrescan> scan = prescanObjText(path, text);
  if (!scan) return scan.error();

  LoadedSurface out;
  ObjLoadReport& report = out.report;
  reportPrescanFindings(path, *scan, report);

  if (scan->faceCount == 0)
    return Error{path + ": no faces ('f' lines), only " + plural(scan->lineCount, "polyline") +
                 ": load it as strands (a scene body with \"kind\": \"strand\" or \"auto\")"};
  Result<ParsedObj> parsed = parseWithTinyObj(path, text, *scan);
  if (!parsed) return parsed.error();
  SurfaceMesh& mesh = out.mesh;
  if (Status s = collectPositions(path, parsed->attrib, mesh); !s) return s.error();
  if (Status s = triangulateShapes(path, parsed->shapes, *scan, mesh, report); !s) return s.error();
  // Only faces of fewer than three corners (dropped, as tinyobjloader does):
  // no surface, and perhaps no vertex to measure the weld distance by.
  if (mesh.triangles.empty())
    return Error{path + ": no usable triangles: every face has fewer than three corners (" +
                 plural(scan->shortFaceCount, "short face") + "): a face needs three vertex indices, e.g. 'f 1 2 3'"};

  Result<double> relEps = repairMesh(path, options, *scan, mesh, report);
  if (!relEps) return relEps.error();
  reportRepairs(report, *relEps);
  if (mesh.triangles.empty()) {
    return Error{path + ": no usable triangles remain after dropping " + plural(report.degenerateFacesDropped, "degenerate face") +
                 " and " + plural(report.duplicateFacesDropped, "duplicate face")};
  }

  // After the repairs, so removed unreferenced vertices do not count in the fitted bounds.
  if (options.normalizeScale) {
    if (Status s = fitToSize(path, options, out); !s) return s.error();
  }
  return out;
}

Result<ObjContents> scanObjContents(const std::string& path) {
  Result<std::string> bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  Result<ObjPrescan> scan = prescanObjText(path, *bytes);
  if (!scan) return scan.error();
  return ObjContents{scan->faceCount, scan->lineCount};
}

Result<LoadedPolylines> loadObjPolylines(const std::string& path, const ObjLoadOptions& options) {
  Result<std::string> bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  return loadObjPolylinesText(path, *bytes, options);
}

Result<LoadedPolylines> loadObjPolylinesText(const std::string& path, const std::string& text,
                                             const ObjLoadOptions& options) {
  Result<ObjPrescan> scan = prescanObjText(path, text);
  if (!scan) return scan.error();
  if (scan->lineCount == 0)
    return Error{path + ": no polylines ('l' lines) to make strands of; the file has " +
                 plural(scan->faceCount, "face") + " (load it as a solid or a cloth)"};
  Result<ParsedObj> parsed = parseWithTinyObj(path, text, *scan);
  if (!parsed) return parsed.error();
  SurfaceMesh points;
  if (Status s = collectPositions(path, parsed->attrib, points); !s) return s.error();
  LoadedPolylines out;
  size_t dropped = 0;
  for (const tinyobj::shape_t& shape : parsed->shapes) {
    size_t offset = 0;
    for (int count : shape.lines.num_line_vertices) {
      std::vector<glm::vec3> line;
      for (int k = 0; k < count; ++k) {
        const int vi = shape.lines.indices[offset + size_t(k)].vertex_index;
        if (vi < 0 || size_t(vi) >= points.positions.size())
          return Error{path + ": a polyline uses vertex " + std::to_string(vi + 1) + " outside 1.." +
                       std::to_string(points.positions.size())};
        const glm::vec3 p = points.positions[size_t(vi)];
        if (!line.empty() && line.back() == p) {
          ++dropped;
          continue;
        }
        line.push_back(p);
      }
      offset += size_t(count);
      if (line.size() < 2)
        return Error{path + ": polyline " + std::to_string(out.lines.size() + 1) +
                     " has fewer than two distinct points; remove it"};
      out.lines.push_back(std::move(line));
    }
  }
  if (out.lines.empty()) return Error{path + ": the parser found no polylines with two or more points"};
  if (dropped > 0) out.warnings.push_back(plural(dropped, "repeated polyline point") + " dropped");
  if (options.normalizeScale) {
    LoadedSurface fit;
    for (const auto& line : out.lines) fit.mesh.positions.insert(fit.mesh.positions.end(), line.begin(), line.end());
    glm::dvec3 lo, hi;
    boundsOf(fit.mesh.positions, lo, hi);
    const double largest = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    if (!(largest > 0.0)) return Error{path + ": the polylines have no extent"};
    if (Status st = fitToSize(path, options, fit); !st) return st.error();
    size_t k = 0;
    for (auto& line : out.lines)
      for (glm::vec3& p : line) p = fit.mesh.positions[k++];
  }
  return out;
}

}  // namespace tetlab
