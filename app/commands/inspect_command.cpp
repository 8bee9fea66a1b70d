// `tetlab inspect FILE.obj [--target-tets N] [--json]`: the whole mesh
// pipeline without a window, reporting what each stage did:
//   load (repairs) -> surface checks -> tetrahedralize (path + why, cached)
//   -> SimModel (counts, colourings) -> embedding of the loaded surface.
// The report is built once as JSON; the text form is printed from it, so the
// two never disagree. No GL here: this runs on headless machines and in CI.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/commands/commands.h"
#include "core/mesh/embedding.h"
#include "core/mesh/obj_loader.h"
#include "core/mesh/surface_checks.h"
#include "core/mesh/tet_cache.h"
#include "core/mesh/tetrahedralize.h"
#include "core/model/model_builder.h"

namespace tetlab {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

Json loadJson(const LoadedSurface& s, double ms) {
  const ObjLoadReport& r = s.report;
  return Json{{"ms", ms},
              {"inputVertices", r.inputVertices},
              {"inputFaces", r.inputFaces},
              {"groups", r.groups},
              {"trianglesFromPolygons", r.trianglesFromPolygons},
              {"weldedVertices", r.weldedVertices},
              {"degenerateFacesDropped", r.degenerateFacesDropped},
              {"duplicateFacesDropped", r.duplicateFacesDropped},
              {"unreferencedVerticesRemoved", r.unreferencedVerticesRemoved},
              {"missingMaterialFile", r.missingMaterialFile},
              {"warnings", r.warnings},
              {"vertices", s.mesh.positions.size()},
              {"triangles", s.mesh.triangles.size()}};
}

Json surfaceJson(const SurfaceCheckReport& c, const OrientationFixReport& fix, double ms) {
  Json examples = Json::array();
  for (const glm::uvec2& p : c.selfIntersectionExamples) examples.push_back({p.x, p.y});
  return Json{{"ms", ms},
              {"watertight", c.watertight()},
              {"manifold", c.manifold()},
              {"consistentlyOriented", c.consistentlyOriented()},
              {"outwardOriented", c.outwardOriented()},
              {"selfIntersecting", c.selfIntersecting()},
              {"boundaryEdges", c.boundaryEdges},
              {"nonManifoldEdges", c.nonManifoldEdges},
              {"nonManifoldVertices", c.nonManifoldVertices},
              {"inconsistentEdges", c.inconsistentEdges},
              {"selfIntersectingPairs", c.selfIntersectingPairs},
              {"selfIntersectionExamples", examples},
              {"components", c.components},
              {"signedVolume", c.signedVolume},
              {"problems", c.problems()},
              {"orientationFix",
               {{"trianglesFlipped", fix.trianglesFlipped},
                {"componentsFlippedOutward", fix.componentsFlippedOutward},
                {"nonOrientableComponents", fix.nonOrientableComponents}}}};
}

Json coloringJson(const ColoringSummary& c) {
  return Json{{"colors", c.colors}, {"lowerBound", c.lowerBound}, {"greedyBound", c.greedyBound},
              {"smallest", c.smallest}, {"largest", c.largest}};
}

std::string yesNo(bool b) { return b ? "yes" : "no"; }

std::string fmt(double v, int precision = 1) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(precision);
  s << v;
  return s.str();
}

void printText(const Json& j) {
  std::ostringstream o;
  const Json& l = j["load"];
  o << "tetlab inspect " << j["file"].get<std::string>() << "\n\n";
  o << "load (" << fmt(l["ms"]) << " ms)\n";
  o << "  input        " << l["inputVertices"] << " vertices, " << l["inputFaces"] << " faces, groups:";
  for (const auto& g : l["groups"]) o << " " << g.get<std::string>();
  o << "\n  surface      " << l["vertices"] << " vertices, " << l["triangles"] << " triangles\n";
  if (l["warnings"].empty()) o << "  repairs      none\n";
  for (const auto& w : l["warnings"]) o << "  repair       " << w.get<std::string>() << "\n";

  const Json& s = j["surface"];
  o << "\nsurface checks (" << fmt(s["ms"]) << " ms)\n";
  o << "  watertight   " << yesNo(s["watertight"]) << " (" << s["boundaryEdges"] << " boundary edges)\n";
  o << "  manifold     " << yesNo(s["manifold"]) << " (" << s["nonManifoldEdges"] << " edges, "
    << s["nonManifoldVertices"] << " vertices)\n";
  o << "  oriented     " << (s["consistentlyOriented"].get<bool>() ? "consistently" : "inconsistently") << ", "
    << (s["outwardOriented"].get<bool>() ? "outward" : "inward or open") << " (signed volume "
    << s["signedVolume"].get<double>() << ")\n";
  o << "  self-inter.  " << s["selfIntersectingPairs"] << " crossing triangle pairs\n";
  o << "  components   " << s["components"] << "\n";
  const Json& fix = s["orientationFix"];
  if (fix["trianglesFlipped"].get<size_t>() > 0)
    o << "  fixed        " << fix["trianglesFlipped"] << " triangles flipped (" << fix["componentsFlippedOutward"]
      << " components turned outward)\n";

  const Json& t = j["tetrahedralization"];
  o << "\ntetrahedralization (" << fmt(t["ms"]) << " ms, cache " << t["cache"].get<std::string>() << ")\n";
  o << "  path         " << t["path"].get<std::string>() << "\n";
  o << "  why          " << t["reason"].get<std::string>() << "\n";
  if (!t["tetgenError"].get<std::string>().empty()) o << "  tetgen error " << t["tetgenError"].get<std::string>() << "\n";
  o << "  target tets  " << t["targetTets"] << "\n";
  if (t.contains("cleanup"))
    o << "  cleanup      " << t["cleanup"]["reoriented"] << " reoriented, " << t["cleanup"]["degenerateDropped"]
      << " degenerate dropped\n";
  if (t.contains("slivers") && t["slivers"]["minQualityAfter"].get<double>() > 0.0) {
    const Json& v = t["slivers"];
    o << "  slivers      least 6V/Lmax^3 " << fmt(v["minQualityBefore"].get<double>(), 4) << " -> "
      << fmt(v["minQualityAfter"].get<double>(), 4) << " (" << v["faceFlips"] << " face flips, " << v["edgeRemovals"]
      << " edge removals, " << v["vertexMoves"] << " vertex moves, " << v["hullSliversRemoved"]
      << " hull slivers removed)\n";
  }

  const Json& m = j["model"];
  o << "\nmodel (" << fmt(m["ms"]) << " ms)\n";
  o << "  vertices     " << m["vertices"] << "\n  tets         " << m["tets"] << "\n  edges        " << m["edges"]
    << "\n  boundary     " << m["boundaryTriangles"] << " triangles\n";
  o << "  min quality  " << fmt(m["minQuality"].get<double>(), 4) << " (6 V / Lmax^3; regular tet 0.707)\n";
  for (const char* k : {"tets", "edges", "vertices"}) {
    const Json& c = m["coloring"][k];
    o << "  colours " << k << std::string(9 - std::string(k).size(), ' ') << c["colors"] << " (lower bound "
      << c["lowerBound"] << ", greedy bound " << c["greedyBound"] << ", sizes " << c["smallest"] << ".."
      << c["largest"] << ")\n";
  }
  const Json& e = j["embedding"];
  o << "\nembedding (" << fmt(e["ms"]) << " ms)\n";
  o << "  render verts " << e["renderVertices"] << ", " << e["outsideVertices"] << " outside the tets (max distance "
    << e["maxOutsideDistance"].get<double>() << ")\n";
  o << "\ntotal " << fmt(j["totalMs"]) << " ms\n";
  std::cout << o.str();
}

int fail(const InspectArgs& args, const std::string& message) {
  std::cerr << "tetlab inspect: " << message << "\n";
  if (args.json) std::cout << Json{{"file", args.file}, {"ok", false}, {"error", message}}.dump(2) << "\n";
  return 1;
}

}  // namespace

int runInspectCommand(const InspectArgs& args) {
  const auto start = Clock::now();
  if (args.targetTets < 1) return fail(args, "--target-tets must be at least 1 (got " + std::to_string(args.targetTets) + ")");

  Json j;
  j["file"] = args.file;
  j["ok"] = true;
  auto t = Clock::now();
  const ObjLoadOptions loadOptions;
  Result<LoadedSurface> loaded = loadObj(args.file, loadOptions);
  if (!loaded) return fail(args, loaded.error().message);
  j["load"] = loadJson(*loaded, msSince(t));

  t = Clock::now();
  const SurfaceCheckReport checks = checkSurface(loaded->mesh);
  SurfaceMesh oriented = loaded->mesh;
  const OrientationFixReport fix = fixOrientation(oriented);
  j["surface"] = surfaceJson(checks, fix, msSince(t));

  // Tetrahedralize, through the cache.
  TetOptions tetOptions;
  tetOptions.targetTets = args.targetTets;
  t = Clock::now();
  const TetCache cache(defaultTetCacheDir());
  Result<uint64_t> key = tetCacheKeyForFile(args.file, loadOptions, tetOptions);
  std::string cacheState = "miss";
  std::string rejected;
  std::optional<TetResult> cached = key ? cache.load(*key, &rejected) : std::nullopt;
  TetResult tets;
  if (cached) {
    cacheState = "hit";
    tets = std::move(*cached);
  } else {
    Result<TetResult> r = tetrahedralizeSurface(loaded->mesh, tetOptions);
    if (!r) return fail(args, args.file + ": " + r.error().message);
    tets = std::move(r.value());
    if (key) {
      const Status stored = cache.store(*key, tets);
      cacheState = stored ? "miss, stored" : "miss, not stored: " + stored.error().message;
    }
  }
  if (!rejected.empty()) cacheState += " (" + rejected + ")";
  Json tj{{"ms", msSince(t)},
          {"cache", cacheState},
          {"cacheDir", cache.dir().string()},
          {"targetTets", args.targetTets},
          {"path", toString(tets.path)},
          {"reason", tets.reason},
          {"tetgenSwitches", tets.tetgenSwitches},
          {"tetgenError", tets.tetgenError},
          {"voxelResolution", tets.voxelResolution}};
  if (!tets.fromCache) {
    tj["cleanup"] = {{"reoriented", tets.cleanup.reoriented},
                     {"degenerateDropped", tets.cleanup.degenerateDropped},
                     {"invalidDropped", tets.cleanup.invalidDropped},
                     {"unusedVerticesRemoved", tets.cleanup.unusedVerticesRemoved}};
    tj["slivers"] = {{"minQualityBefore", tets.improve.minQualityBefore},
                     {"minQualityAfter", tets.improve.minQualityAfter},
                     {"faceFlips", tets.improve.flips23},
                     {"edgeRemovals", tets.improve.flips32},
                     {"vertexMoves", tets.improve.smoothed},
                     {"hullSliversRemoved", tets.improve.hullSliversRemoved}};
    tj["checkMs"] = tets.checkSeconds * 1e3;
    tj["tetgenMs"] = tets.tetgenSeconds * 1e3;
    tj["fallbackMs"] = tets.fallbackSeconds * 1e3;
  }
  j["tetrahedralization"] = tj;

  t = Clock::now();
  const BodyDesc body{tets.mesh, Material{}, args.file};
  ModelBuildReport report;
  Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1), {}, &report);
  if (!model) return fail(args, args.file + ": " + model.error().message);
  j["model"] = Json{{"ms", msSince(t)},
                    {"vertices", model->vertexCount()},
                    {"tets", model->tetCount()},
                    {"edges", model->edgeCount()},
                    {"boundaryTriangles", model->boundaryTriangles.size()},
                    {"minQuality", report.minQuality},
                    {"flippedTets", report.flippedTets},
                    {"coloring",
                     {{"tets", coloringJson(report.tetColoring)},
                      {"edges", coloringJson(report.edgeColoring)},
                      {"vertices", coloringJson(report.vertexColoring)}}}};

  t = Clock::now();
  Result<SurfaceEmbedding> embedding = embedPoints(tets.mesh, oriented.positions);
  if (!embedding) return fail(args, args.file + ": " + embedding.error().message);
  j["embedding"] = Json{{"ms", msSince(t)},
                        {"renderVertices", oriented.positions.size()},
                        {"outsideVertices", embedding->outsideVertices},
                        {"maxOutsideDistance", embedding->maxOutsideDistance}};
  j["totalMs"] = msSince(start);

  if (args.json) std::cout << j.dump(2) << "\n";
  else printText(j);
  std::cout.flush();
  return 0;
}

}  // namespace tetlab
