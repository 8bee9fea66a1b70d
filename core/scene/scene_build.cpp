#include "core/scene/scene_build.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <glm/common.hpp>

#include "core/mesh/obj_loader.h"
#include "core/mesh/surface_checks.h"
#include "core/mesh/tet_cache.h"
#include "core/mesh/tetrahedralize.h"
#include "core/model/generators.h"
#include "core/model/splitmix64.h"
#include "core/scene/mesh_collider_load.h"
#include "core/scene/enum_names.h"
#include "core/scene/rotation.h"
#include "core/sim/state_setup.h"

namespace tetlab {

namespace {

// A solid's tets, or a cloth's vertices (tets.positions, no tets) and triangles.
struct BodyGeometry {
  TetMesh tets;
  BodyKind kind = BodyKind::Solid;
  std::vector<glm::uvec3> clothTriangles;
  std::vector<glm::uvec2> strandSegments;
  std::vector<uint32_t> roots;         // body-local vertices pinned by the generator (hair roots)
  std::optional<SurfaceMesh> surface;  // OBJ bodies: the user's surface
  std::string note;
  std::vector<std::string> warnings;
};

TetOptions tetOptionsFor(const TetSpec& spec) {
  TetOptions o;
  o.targetTets = spec.targetTets;
  o.quality = spec.quality;
  o.radiusEdgeRatio = spec.radiusEdgeRatio;
  o.method = spec.method;
  o.voxelResolution = spec.voxelResolution;
  return o;
}

// One progress window [begin, end) of the whole build per body.
struct ProgressWindow {
  const SceneBuildProgress* report = nullptr;
  float begin = 0.0f, end = 1.0f;
  void operator()(const std::string& stage, float f) const {
    if (report && *report) (*report)(stage, begin + (end - begin) * std::clamp(f, 0.0f, 1.0f));
  }
};

Result<BodyGeometry> makeMeshGeometry(const BodySpec& spec, const SceneBuildOptions& options,
                                      const ProgressWindow& progress, const std::atomic<bool>* cancel) {
  Result<std::filesystem::path> path = resolveSceneMeshPath(spec.meshPath, options.searchDirs);
  if (!path) return path.error();
  const std::string file = path->string();
  progress("loading " + path->filename().string(), 0.0f);
  ObjLoadOptions load;
  load.normalizeScale = true;
  load.fitSize = spec.fitSize;
  // Strands: kind "strand", or "auto" on a file of polylines without faces.
  bool strands = spec.kind == BodyKindChoice::Strand;
  if (spec.kind == BodyKindChoice::Auto) {
    Result<ObjContents> contents = scanObjContents(file);
    if (!contents) return contents.error();
    strands = contents->faces == 0 && contents->polylines > 0;
  }
  if (strands) {
    Result<LoadedPolylines> lines = loadObjPolylines(file, load);
    if (!lines) return lines.error();
    BodyDesc made = strandBody(lines->lines);
    BodyGeometry g;
    g.kind = BodyKind::Strand;
    g.warnings = lines->warnings;
    g.tets.positions = std::move(made.mesh.positions);
    g.strandSegments = std::move(made.segments);
    g.note = "strands (" + std::to_string(lines->lines.size()) + " polylines" +
             (spec.kind == BodyKindChoice::Strand ? ", kind \"strand\")" : "; no faces)");
    return g;
  }
  Result<LoadedSurface> loaded = loadObj(file, load);
  if (!loaded) return loaded.error();

  BodyGeometry g;
  g.warnings = loaded->report.warnings;
  if (spec.kind != BodyKindChoice::Solid) {
    // Auto: an open surface cannot enclose tets, so it is a sheet.
    SurfaceCheckOptions quick;
    quick.checkSelfIntersections = false;
    const size_t openEdges = checkSurface(loaded->mesh, quick).boundaryEdges;
    if (spec.kind == BodyKindChoice::Cloth || openEdges > 0) {
      g.kind = BodyKind::Cloth;
      g.tets.positions = std::move(loaded->mesh.positions);
      g.clothTriangles = std::move(loaded->mesh.triangles);
      g.note = spec.kind == BodyKindChoice::Cloth
                   ? "cloth (kind \"cloth\")"
                   : "cloth (open surface, " + std::to_string(openEdges) + " boundary edges; kind \"solid\" to fill it)";
      return g;
    }
  }
  const TetOptions tetOptions = tetOptionsFor(spec.tets);
  const TetCache cache(defaultTetCacheDir());
  std::optional<TetResult> tets;
  Result<uint64_t> key = tetCacheKeyForFile(file, load, tetOptions);
  if (options.useTetCache && key) tets = cache.load(*key);
  if (!tets) {
    const TetProgress tetProgress = [&](TetPhase phase, float fraction) {
      const float base = phase == TetPhase::Checking ? 0.05f : phase == TetPhase::Cleanup ? 0.9f : 0.15f;
      const float width = phase == TetPhase::Checking ? 0.1f : phase == TetPhase::Cleanup ? 0.1f : 0.75f;
      progress(std::string("tetrahedralizing ") + path->filename().string() + " (" + toString(phase) + ")",
               base + width * fraction);
    };
    Result<TetResult> made = tetrahedralizeSurface(loaded->mesh, tetOptions, tetProgress, cancel);
    if (!made) return Error{file + ": tetrahedralization failed: " + made.error().message};
    tets = std::move(made).value();
    if (options.useTetCache && key) (void)cache.store(*key, *tets);  // a failed cache write only costs time
  }
  g.note = std::string(toString(tets->path)) + (tets->fromCache ? " (cached)" : "") +
           (tets->reason.empty() ? "" : ": " + tets->reason);
  if (tets->mesh.tets.empty()) return Error{file + ": tetrahedralization produced no tets: raise target_tets"};
  g.tets = std::move(tets->mesh);
  g.surface = std::move(loaded->mesh);
  return g;
}

// Keeps the tets whose centroid lies in one of the regions (each lattice cell's
// tets have their centroids inside the cell, so whole cells are kept) and
// drops the vertices no kept tet uses.
TetMesh keepCells(const TetMesh& mesh, const std::vector<Region>& keep) {
  TetMesh out;
  std::vector<uint32_t> remap(mesh.positions.size(), UINT32_MAX);
  for (const glm::uvec4& t : mesh.tets) {
    const glm::vec3 c =
        0.25f * (mesh.positions[t.x] + mesh.positions[t.y] + mesh.positions[t.z] + mesh.positions[t.w]);
    bool inside = false;
    for (const Region& r : keep) inside = inside || r.contains(c);
    if (!inside) continue;
    glm::uvec4 mapped;
    for (int k = 0; k < 4; ++k) {
      uint32_t& id = remap[t[k]];
      if (id == UINT32_MAX) {
        id = uint32_t(out.positions.size());
        out.positions.push_back(mesh.positions[t[k]]);
      }
      mapped[k] = id;
    }
    out.tets.push_back(mapped);
  }
  return out;
}

Result<BodyGeometry> makeGeneratedGeometry(const BodySpec& spec, uint64_t seed) {
  BodyGeometry g;
  switch (spec.source) {
    case BodySource::Box:
      g.tets = makeBoxTetMesh(spec.box.min, spec.box.size, spec.box.cells, spec.box.split);
      g.note = "box generator";
      if (!spec.box.keep.empty()) {
        g.tets = keepCells(g.tets, spec.box.keep);
        g.note += ", " + std::to_string(g.tets.tets.size()) + " tets in the kept regions";
        if (g.tets.tets.empty())
          return Error{"box: no lattice cell has its centre inside a 'keep' region: check the regions against "
                       "the box's min and size"};
      }
      break;
    case BodySource::Sphere:
      g.tets = makeSphereTetMesh(spec.sphere.center, spec.sphere.radius, spec.sphere.cellsAcross);
      g.note = "sphere generator";
      break;
    case BodySource::Torus:
      g.tets = makeTorusTetMesh(spec.torus.center, spec.torus.majorRadius, spec.torus.minorRadius,
                                spec.torus.ringSegments, spec.torus.cellsAcross);
      g.note = "torus generator";
      break;
    case BodySource::Cloth: {
      SurfaceMesh patch = makeClothPatch(spec.cloth.min, spec.cloth.size, spec.cloth.cells);
      g.kind = BodyKind::Cloth;
      g.tets.positions = std::move(patch.positions);
      g.clothTriangles = std::move(patch.triangles);
      g.note = "cloth patch generator";
      break;
    }
    case BodySource::Hair: {
      const HairGenerator& h = spec.hair;
      BodyDesc strands = strandBody(
          makeHair(h.center, h.radius, h.strands, h.points, h.length, h.capDegrees, h.jitter, seed, h.curlRadius,
                   h.curlTurn));
      g.kind = BodyKind::Strand;
      g.tets.positions = std::move(strands.mesh.positions);
      g.strandSegments = std::move(strands.segments);
      // The root and the next point: a clamped root, so a strand leaves the scalp along its normal
      // (one pinned point would be a free hinge there: no bending term acts at a strand's end).
      for (uint32_t s = 0; s < h.strands; ++s) {
        g.roots.push_back(s * h.points);
        if (h.points > 2) g.roots.push_back(s * h.points + 1);
      }
      g.note = "hair generator (" + std::to_string(h.strands) + " strands of " + std::to_string(h.points) +
               " points, roots clamped)";
      break;
    }
    case BodySource::Mesh:
      return Error{"internal: mesh body passed to the generator"};
  }
  return g;
}

// Applies the transform (scale, rotate, translate, random yaw and offset, lift) to
// the tets and the surface alike. Rotations keep tet orientation positive.
void placeBody(const BodyTransform& t, SplitMix64& rng, BodyGeometry& g) {
  // Always draw the same count per body, so one body's random ranges never shift another's numbers.
  const float yawUnit = rng.symmetric();
  const glm::vec3 offsetUnit(rng.symmetric(), rng.symmetric(), rng.symmetric());

  // Each step only when it does something, so an unmoved body keeps its generator's exact floats.
  auto apply = [&g](auto&& f) {
    for (glm::vec3& p : g.tets.positions) p = f(p);
    if (g.surface)
      for (glm::vec3& p : g.surface->positions) p = f(p);
  };
  if (t.scale != 1.0f || t.rotateDegrees != glm::vec3(0.0f)) {
    const glm::mat3 R = rotationFromDegrees(t.rotateDegrees);
    apply([&](glm::vec3 p) { return R * (t.scale * p); });
  }
  if (t.translate != glm::vec3(0.0f)) apply([&](glm::vec3 p) { return p + t.translate; });
  if (yawUnit * t.randomYawDegrees != 0.0f) {
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : g.tets.positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
    const glm::vec3 pivot = 0.5f * (lo + hi);
    const glm::mat3 yaw = rotationFromDegrees(glm::vec3(0.0f, yawUnit * t.randomYawDegrees, 0.0f));
    apply([&](glm::vec3 p) { return yaw * (p - pivot) + pivot; });
  }
  const glm::vec3 offset = offsetUnit * t.randomOffset;
  if (offset != glm::vec3(0.0f)) apply([&](glm::vec3 p) { return p + offset; });

  if (t.lift) {
    float minY = INFINITY;
    for (const glm::vec3& p : g.tets.positions) minY = std::min(minY, p.y);
    if (g.surface)
      for (const glm::vec3& p : g.surface->positions) minY = std::min(minY, p.y);
    const float dy = t.liftTo - minY;
    for (glm::vec3& p : g.tets.positions) p.y += dy;
    if (g.surface)
      for (glm::vec3& p : g.surface->positions) p.y += dy;
  }
}

// The body's boundary triangles with body-local surface vertices, each
// embedded with weight 1 on its model vertex.
BodySurface boundarySurface(const SimModel& model, const BodyRange& range, uint32_t body) {
  BodySurface r;
  r.name = range.name;
  r.body = body;
  r.fromBoundary = true;
  std::vector<uint32_t> local(range.vertexEnd - range.vertexBegin, UINT32_MAX);
  for (const glm::uvec3& t : model.boundaryTriangles) {
    if (t.x < range.vertexBegin || t.x >= range.vertexEnd) continue;
    glm::uvec3 tri;
    for (int k = 0; k < 3; ++k) {
      uint32_t& id = local[t[k] - range.vertexBegin];
      if (id == UINT32_MAX) {
        id = uint32_t(r.surface.positions.size());
        r.surface.positions.push_back(model.restPositions[t[k]]);
        r.embedding.vertices.push_back(glm::uvec4(t[k]));
        r.embedding.weights.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
        r.embedding.tet.push_back(0);
      }
      tri[k] = id;
    }
    r.surface.triangles.push_back(tri);
  }
  return r;
}

bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

// The collider `ref` names, or an error naming where the scene file asked for it.
Result<ColliderFrame> followedFrame(const Colliders& colliders, ColliderRef ref, const std::string& where) {
  if (const std::optional<ColliderFrame> frame = colliderFrame(colliders, ref)) return *frame;
  return Error{where + ": there is no " + enumName(colliderListNames(), ref.list) + "[" + std::to_string(ref.index) +
               "] collider (the scene has " + std::to_string(colliderListSize(colliders, ref.list)) +
               "): give the index of one in the scene's \"colliders\""};
}

// The pins of regions that follow a collider, and hair roots that follow one,
// in the collider's frame as the scene places it (a pin the file's
// unpinned_vertices released is left out).
Status addPinFollowers(const SceneDesc& desc, std::span<const BodyRange> bodies, std::span<const uint8_t> pinned,
                       const std::vector<std::vector<uint32_t>>& roots, Scene& scene) {
  const SimModel& m = scene.model;
  const Colliders& colliders = desc.settings.colliders;
  const std::string scenePrefix = "scene '" + desc.name + "', body '";
  auto follow = [&](ColliderRef ref, const ColliderFrame& frame, auto&& take, uint32_t begin, uint32_t end) {
    std::vector<uint32_t> vertices;
    std::vector<glm::vec3> positions;
    for (uint32_t v = begin; v < end; ++v)
      if (pinned[v] && take(v)) {
        vertices.push_back(v);
        positions.push_back(m.restPositions[v]);
      }
    if (!vertices.empty()) scene.followers.push_back(makePinFollower(ref, frame, vertices, positions));
  };
  for (size_t i = 0; i < desc.bodies.size() && i < bodies.size(); ++i) {
    const BodySpec& body = desc.bodies[i];
    const std::vector<PinRegion>& regions = body.pins;
    for (size_t r = 0; r < regions.size(); ++r) {
      const PinRegion& region = regions[r];
      if (region.animation.active()) {
        // Keyed pins (core/sim/pin_animation.h): the region's pinned vertices and their rest places.
        AnimatedPins a;
        a.body = uint32_t(i);
        a.region = uint32_t(r);
        a.animation = region.animation;
        a.pivot = region.animation.pivotSet ? region.animation.pivot : 0.5f * (region.min + region.max);
        if (region.stiffness > 0.0f) {
          // A compliant region: its anchor spring's patch, whose anchors follow the keys.
          const AnchorSprings& sp = scene.springs;
          for (uint32_t s = 0; s < sp.springs.size(); ++s)
            if (sp.springs[s].body == uint32_t(i) && sp.springs[s].pinRegion == int32_t(r)) a.spring = int32_t(s);
          if (a.spring >= 0)
            for (uint32_t j = sp.springs[size_t(a.spring)].first;
                 j < sp.springs[size_t(a.spring)].first + sp.springs[size_t(a.spring)].count; ++j) {
              a.vertices.push_back(sp.vertex[j]);
              a.rest.push_back(m.restPositions[sp.vertex[j]]);
            }
        } else {
          for (uint32_t v = bodies[i].vertexBegin; v < bodies[i].vertexEnd; ++v)
            if (pinned[v] && region.contains(m.restPositions[v])) {
              a.vertices.push_back(v);
              a.rest.push_back(m.restPositions[v]);
            }
        }
        if (!a.vertices.empty()) scene.animatedPins.push_back(std::move(a));
      }
      if (!region.follow.valid()) continue;
      Result<ColliderFrame> frame =
          followedFrame(colliders, region.follow, scenePrefix + body.name + "', pins[" + std::to_string(r) + "].follow");
      if (!frame) return frame.error();
      follow(region.follow, *frame, [&](uint32_t v) { return region.contains(m.restPositions[v]); },
             bodies[i].vertexBegin, bodies[i].vertexEnd);
    }
    if (body.source == BodySource::Hair && body.hair.rootsFollow.valid() && i < roots.size()) {
      Result<ColliderFrame> frame =
          followedFrame(colliders, body.hair.rootsFollow, scenePrefix + body.name + "', hair.roots_follow");
      if (!frame) return frame.error();
      std::vector<uint8_t> isRoot(bodies[i].vertexEnd - bodies[i].vertexBegin, 0);
      for (uint32_t local : roots[i])
        if (local < isRoot.size()) isRoot[local] = 1;
      follow(body.hair.rootsFollow, *frame, [&](uint32_t v) { return isRoot[v - bodies[i].vertexBegin] != 0; },
             bodies[i].vertexBegin, bodies[i].vertexEnd);
    }
  }
  return Ok{};
}

}  // namespace

Result<std::filesystem::path> resolveSceneMeshPath(const std::string& path,
                                                   const std::vector<std::filesystem::path>& searchDirs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path given(path);
  // A relative path belongs to the scene: its folder and the asset folders come
  // before the working directory, so a scene loads the same meshes wherever it
  // is run from and a stray file in the working directory cannot shadow them.
  std::vector<fs::path> candidates;
  if (given.is_relative())
    for (const fs::path& dir : searchDirs)
      for (const fs::path& candidate : {dir / given, dir / "meshes" / given}) candidates.push_back(candidate);
  candidates.push_back(given);
  std::string tried;
  std::vector<fs::path> seen;
  for (const fs::path& candidate : candidates) {
    const fs::path normal = candidate.lexically_normal();
    if (std::find(seen.begin(), seen.end(), normal) != seen.end()) continue;
    seen.push_back(normal);
    if (fs::is_regular_file(candidate, ec)) return candidate;
    if (fs::exists(candidate, ec))
      return Error{"the mesh '" + path + "' at '" + normal.string() +
                   "' is not a regular file (a folder or a device): give the path of an OBJ file"};
    tried += (tried.empty() ? "'" : ", '") + normal.string() + "'";
  }
  return Error{"cannot find the mesh '" + path + "' (tried " + tried +
               "): fix the path (relative paths are looked up next to the scene file, then in assets/, then in "
               "the working directory)"};
}

Result<BuiltScene> buildScene(const SceneDesc& desc, const SceneBuildOptions& options,
                              const SceneBuildProgress& progress, const std::atomic<bool>* cancel) {
  if (desc.bodies.empty()) return Error{"scene '" + desc.name + "' has no bodies: add at least one"};
  const size_t n = desc.bodies.size();
  // Mesh bodies dominate the time; generated ones are near-instant.
  const float geometryShare = 0.85f;
  SplitMix64 rng(desc.seed);
  std::vector<BodyDesc> bodies;
  std::vector<std::optional<SurfaceMesh>> surfaces;
  std::vector<std::vector<uint32_t>> roots;  // per body, body-local
  BuiltScene built;
  for (size_t i = 0; i < n; ++i) {
    if (cancelled(cancel)) return Error{"loading cancelled"};
    const BodySpec& spec = desc.bodies[i];
    const std::string name = spec.name.empty() ? "body " + std::to_string(i + 1) : spec.name;
    const ProgressWindow window{&progress, geometryShare * float(i) / float(n), geometryShare * float(i + 1) / float(n)};
    window("preparing " + name, 0.0f);
    Result<BodyGeometry> g = spec.source == BodySource::Mesh ? makeMeshGeometry(spec, options, window, cancel)
                                                              : makeGeneratedGeometry(spec, desc.seed + i);
    if (!g) return Error{"body '" + name + "': " + g.error().message};
    placeBody(spec.transform, rng, *g);
    for (const std::string& w : g->warnings) built.warnings.push_back(name + ": " + w);
    BodyRange range;
    range.name = name;
    range.note = g->note;
    range.tets = uint32_t(g->tets.tets.size());
    built.bodies.push_back(range);
    surfaces.push_back(std::move(g->surface));
    roots.push_back(std::move(g->roots));
    bodies.push_back(BodyDesc{std::move(g->tets), spec.material, name, g->kind, std::move(g->clothTriangles),
                              std::move(g->strandSegments)});
  }
  if (cancelled(cancel)) return Error{"loading cancelled"};
  if (progress) progress("building the model (colouring, adjacency)", geometryShare);

  // Embeddings need the tet meshes before buildSimModel takes them over; ids are body-local here.
  std::vector<std::optional<SurfaceEmbedding>> embeddings(n);
  uint32_t base = 0;
  for (size_t i = 0; i < n; ++i) {
    built.bodies[i].vertexBegin = base;
    base += uint32_t(bodies[i].mesh.positions.size());
    built.bodies[i].vertexEnd = base;
    if (!surfaces[i]) continue;
    Result<SurfaceEmbedding> e = embedPoints(bodies[i].mesh, surfaces[i]->positions);
    if (!e) return Error{"body '" + built.bodies[i].name + "': embedding the surface failed: " + e.error().message};
    embeddings[i] = std::move(*e);
  }

  Result<SimModel> model = buildSimModel(bodies, {}, &built.report);
  if (!model) return Error{"scene '" + desc.name + "': " + model.error().message};
  built.scene.name = desc.name;
  built.scene.model = std::move(model).value();
  built.scene.settings = desc.settings;
  if (Status st = loadMeshColliders(built.scene.settings.colliders, options.searchDirs); !st)
    return Error{"scene '" + desc.name + "': " + st.error().message};
  const SimModel& m = built.scene.model;
  if (progress) progress("render surfaces and pins", 0.97f);

  for (size_t i = 0; i < n; ++i) {
    const BodyRange& range = built.bodies[i];
    if (embeddings[i]) {
      BodySurface r;
      r.name = range.name;
      r.body = uint32_t(i);
      r.surface = std::move(*surfaces[i]);
      r.embedding = std::move(*embeddings[i]);
      for (glm::uvec4& ids : r.embedding.vertices) ids += glm::uvec4(range.vertexBegin);
      built.surfaces.push_back(std::move(r));
    } else {
      built.surfaces.push_back(boundarySurface(m, range, uint32_t(i)));
    }
    built.surfaces.back().cloth = m.isCloth(uint32_t(i));
    built.initialVelocity.push_back(desc.bodies[i].initialVelocity);
  }

  // Pins: the bodies' regions, plus the file's explicit lists.
  std::vector<uint8_t> pinned(m.vertexCount(), 0);
  for (size_t i = 0; i < n; ++i) {
    const BodyRange& range = built.bodies[i];
    for (const PinRegion& region : desc.bodies[i].pins)
      for (uint32_t v = range.vertexBegin; v < range.vertexEnd && !(region.stiffness > 0.0f); ++v) {
        const glm::vec3 p = m.restPositions[v];
        if (glm::all(glm::greaterThanEqual(p, region.min)) && glm::all(glm::lessThanEqual(p, region.max))) pinned[v] = 1;
      }
    for (uint32_t local : roots[i]) pinned[range.vertexBegin + local] = 1;
  }
  for (uint32_t v = 0; v < m.vertexCount(); ++v)
    if (pinned[v]) built.regionPins.push_back(v);
  for (const auto* list : {&desc.pinnedVertices, &desc.unpinnedVertices}) {
    for (uint32_t v : *list)
      if (v >= m.vertexCount())
        return Error{"scene '" + desc.name + "': " + (list == &desc.pinnedVertices ? "pinned_vertices" : "unpinned_vertices") +
                     " names vertex " + std::to_string(v) + " but the model has " + std::to_string(m.vertexCount()) +
                     " vertices (the meshes or tet options changed since it was saved): remove the entry"};
  }
  // Anchor springs (core/sim/anchor_springs.h), attached in the pin regions' coordinates.
  // Compliant pin regions (PinRegion::stiffness) are zero-length springs on their vertices, after the file's.
  std::vector<BodySprings> springBodies;
  for (size_t i = 0; i < n; ++i) {
    BodySprings b{built.bodies[i].name, uint32_t(i), built.bodies[i].vertexBegin, built.bodies[i].vertexEnd,
                  desc.bodies[i].springs};
    const std::vector<PinRegion>& regions = desc.bodies[i].pins;
    for (size_t r = 0; r < regions.size(); ++r) {
      if (!(regions[r].stiffness > 0.0f)) continue;
      AnchorSpringSpec spec;
      spec.name = "pins[" + std::to_string(r) + "] (compliant)";
      spec.stiffness = regions[r].stiffness;
      spec.breakForce = regions[r].breakForce;
      spec.restLength = 0.0f;
      spec.pinRegion = int32_t(r);
      for (uint32_t v = b.vertexBegin; v < b.vertexEnd; ++v)
        if (regions[r].contains(m.restPositions[v])) spec.vertices.push_back(v);
      if (spec.vertices.empty())
        return Error{"scene '" + desc.name + "', body '" + b.bodyName + "', pins[" + std::to_string(r) +
                     "]: a compliant region holds no vertex: move or grow its box"};
      b.specs.push_back(std::move(spec));
    }
    if (!b.specs.empty()) springBodies.push_back(std::move(b));
  }
  if (!springBodies.empty()) {
    Result<AnchorSprings> springs = buildAnchorSprings(m, springBodies);
    if (!springs) return Error{"scene '" + desc.name + "': " + springs.error().message};
    built.scene.springs = std::move(springs).value();
  }
  // Density regions: per-tet scale on the body's density, then the lumped masses again.
  bool anyDensityRegion = false;
  for (const BodySpec& b : desc.bodies) anyDensityRegion = anyDensityRegion || !b.densityRegions.empty();
  if (anyDensityRegion) {
    built.tetDensityScale.assign(m.tetCount(), 1.0f);
    for (uint32_t t = 0; t < m.tetCount(); ++t) {
      const BodySpec& spec = desc.bodies[m.tetBody[t]];
      const glm::uvec4 tet = m.tets[t];
      const glm::vec3 c = 0.25f * (m.restPositions[tet.x] + m.restPositions[tet.y] + m.restPositions[tet.z] +
                                   m.restPositions[tet.w]);
      for (const DensityRegion& d : spec.densityRegions)
        if (d.region.contains(c)) built.tetDensityScale[t] = d.density / spec.material.density;
    }
    recomputeLumpedMass(built.scene.model, built.tetDensityScale);
  }
  for (uint32_t v : desc.pinnedVertices) pinned[v] = 1;
  for (uint32_t v : desc.unpinnedVertices) pinned[v] = 0;
  for (uint32_t v = 0; v < m.vertexCount(); ++v)
    if (pinned[v]) built.scene.pinned.push_back(v);
  if (Status s = addPinFollowers(desc, built.bodies, pinned, roots, built.scene); !s) return s.error();
  if (progress) progress("done", 1.0f);
  return built;
}

void recomputeLumpedMass(SimModel& model, std::span<const float> tetDensityScale) {
  std::vector<double> mass(model.vertexCount(), 0.0);
  for (uint32_t t = 0; t < model.tetCount(); ++t) {
    const double scale = t < tetDensityScale.size() ? double(tetDensityScale[t]) : 1.0;
    const double quarter = double(model.materials[model.tetBody[t]].density) * scale * double(model.restVolume[t]) / 4.0;
    for (int c = 0; c < 4; ++c) mass[model.tets[t][c]] += quarter;
  }
  for (uint32_t i = 0; i < model.vertexCount(); ++i) model.mass[i] = float(mass[i]);
  addClothMass(model);
}

State makeInitialState(const BuiltScene& built) {
  State state = makeSceneState(built.scene);
  for (size_t b = 0; b < built.bodies.size() && b < built.initialVelocity.size(); ++b)
    for (uint32_t v = built.bodies[b].vertexBegin; v < built.bodies[b].vertexEnd; ++v)
      if (state.x[v].w > 0.0f) state.v[v] = glm::vec4(built.initialVelocity[b], 0.0f);
  return state;
}

// ---- SceneBuildJob ----

namespace {
double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

SceneBuildJob::~SceneBuildJob() { stop(); }

void SceneBuildJob::stop() {
  cancel_ = true;
  if (worker_.joinable()) worker_.join();
  running_ = false;
}

void SceneBuildJob::start(SceneDesc desc, SceneBuildOptions options) {
  stop();
  cancel_ = false;
  finished_ = false;
  desc_ = desc;
  {
    std::lock_guard lock(mutex_);
    result_.reset();
    progress_ = Progress{"starting", 0.0f, 0.0};
  }
  startSeconds_ = nowSeconds();
  running_ = true;
  worker_ = std::thread([this, desc = std::move(desc), options = std::move(options)] {
    const SceneBuildProgress report = [this](const std::string& stage, float fraction) {
      std::lock_guard lock(mutex_);
      progress_.stage = stage;
      progress_.fraction = fraction;
    };
    Result<BuiltScene> r = buildScene(desc, options, report, &cancel_);
    {
      std::lock_guard lock(mutex_);
      result_ = std::move(r);
    }
    running_ = false;
    finished_ = true;
  });
}

void SceneBuildJob::cancel() { cancel_ = true; }

SceneBuildJob::Progress SceneBuildJob::progress() const {
  std::lock_guard lock(mutex_);
  Progress p = progress_;
  p.elapsedSeconds = nowSeconds() - startSeconds_;
  return p;
}

std::optional<Result<BuiltScene>> SceneBuildJob::take() {
  if (!finished_) return std::nullopt;
  if (worker_.joinable()) worker_.join();
  std::lock_guard lock(mutex_);
  std::optional<Result<BuiltScene>> out = std::move(result_);
  result_.reset();
  finished_ = false;
  return out;
}

}  // namespace tetlab
