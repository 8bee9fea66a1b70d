// TetGen glue: SurfaceMesh -> tetgenio (one triangle polygon per facet) ->
// tetrahedralize() -> TetMesh. tetgenio frees its lists with delete[], so
// every list we hand it is allocated with new[] and owned by it afterwards.
#include "core/mesh/tetgen_call.h"

#include <tetgen.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <sstream>

#include <glm/common.hpp>

namespace tetlab {
namespace {

struct UnitBox {
  glm::dvec3 centre{0.0};
  double scale = 1.0;  // unit = (p - centre) * scale
};

UnitBox unitBoxOf(const SurfaceMesh& surface) {
  glm::dvec3 lo(surface.positions[0]), hi = lo;
  for (const glm::vec3& p : surface.positions) {
    lo = glm::min(lo, glm::dvec3(p));
    hi = glm::max(hi, glm::dvec3(p));
  }
  const glm::dvec3 e = hi - lo;
  const double largest = std::max({e.x, e.y, e.z});
  return {0.5 * (lo + hi), largest > 0.0 ? 1.0 / largest : 1.0};
}

}  // namespace

std::string describeTetGenError(int code) {
  switch (code) {
    case 1: return "TetGen ran out of memory (code 1); lower the target tet count";
    case 2: return "TetGen hit an internal error (code 2) on this input";
    case 3: return "TetGen found a self-intersection in the surface (code 3)";
    case 4: return "TetGen found a very small input feature, e.g. a segment almost touching a facet (code 4)";
    case 5: return "TetGen found two almost coincident facets (code 5)";
    case 10: return "TetGen rejected the input as invalid (code 10)";
    default: return "TetGen failed with code " + std::to_string(code);
  }
}

std::string tetgenSwitches(const TetGenSettings& settings, double unitScale) {
  std::ostringstream s;
  s << "pzQ";
  if (settings.quality) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "q%.4f", std::max(settings.radiusEdgeRatio, 1.0));
    s << buf;
  }
  if (settings.maxVolume > 0.0) {
    // TetGen reads the number with its own digit scanner: print it without an exponent.
    const double a = settings.maxVolume * unitScale * unitScale * unitScale;
    char buf[64];
    std::snprintf(buf, sizeof buf, "a%.12f", std::max(a, 1e-12));
    s << buf;
  }
  if (settings.preserveSurface) s << "Y";
  return s.str();
}

Result<TetMesh> callTetGen(const SurfaceMesh& surface, const TetGenSettings& settings) {
  if (surface.positions.empty() || surface.triangles.empty()) return Error{"TetGen needs a non-empty surface"};
  const UnitBox box = unitBoxOf(surface);

  tetgenio in, out;
  in.firstnumber = 0;
  in.numberofpoints = int(surface.positions.size());
  in.pointlist = new REAL[surface.positions.size() * 3];
  for (size_t i = 0; i < surface.positions.size(); ++i) {
    const glm::dvec3 p = (glm::dvec3(surface.positions[i]) - box.centre) * box.scale;
    in.pointlist[3 * i + 0] = p.x;
    in.pointlist[3 * i + 1] = p.y;
    in.pointlist[3 * i + 2] = p.z;
  }
  in.numberoffacets = int(surface.triangles.size());
  in.facetlist = new tetgenio::facet[surface.triangles.size()];
  for (size_t f = 0; f < surface.triangles.size(); ++f) {
    tetgenio::facet& facet = in.facetlist[f];
    tetgenio::init(&facet);
    facet.numberofpolygons = 1;
    facet.polygonlist = new tetgenio::polygon[1];
    tetgenio::init(&facet.polygonlist[0]);
    facet.polygonlist[0].numberofvertices = 3;
    facet.polygonlist[0].vertexlist = new int[3];
    for (int k = 0; k < 3; ++k) facet.polygonlist[0].vertexlist[k] = int(surface.triangles[f][k]);
  }

  std::string switches = tetgenSwitches(settings, box.scale);
  try {
    tetrahedralize(switches.data(), &in, &out);
  } catch (int code) {
    return Error{describeTetGenError(code) + " [switches " + switches + "]"};
  } catch (const std::exception& e) {
    return Error{std::string("TetGen threw: ") + e.what()};
  } catch (...) {
    return Error{"TetGen threw an unknown exception"};
  }
  if (out.numberofcorners != 4) return Error{"TetGen returned elements with " + std::to_string(out.numberofcorners) + " corners"};
  if (out.numberoftetrahedra <= 0) return Error{"TetGen produced no tetrahedra (is the surface closed?)"};

  TetMesh mesh;
  mesh.positions.resize(size_t(out.numberofpoints));
  const double inv = 1.0 / box.scale;
  for (int i = 0; i < out.numberofpoints; ++i) {
    const glm::dvec3 p(out.pointlist[3 * i], out.pointlist[3 * i + 1], out.pointlist[3 * i + 2]);
    mesh.positions[size_t(i)] = glm::vec3(p * inv + box.centre);
  }
  mesh.tets.resize(size_t(out.numberoftetrahedra));
  for (int t = 0; t < out.numberoftetrahedra; ++t) {
    const int* c = &out.tetrahedronlist[4 * t];
    for (int k = 0; k < 4; ++k) {
      if (c[k] < 0 || c[k] >= out.numberofpoints) return Error{"TetGen returned a tet with an invalid vertex index"};
    }
    mesh.tets[size_t(t)] = glm::uvec4(uint32_t(c[0]), uint32_t(c[1]), uint32_t(c[2]), uint32_t(c[3]));
  }
  return mesh;
}

}  // namespace tetlab
