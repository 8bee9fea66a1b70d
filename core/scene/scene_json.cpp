#include "core/scene/scene_json.h"

#include "core/atomic_file.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/scene/compare_json.h"
#include "core/scene/json_reader.h"
#include "core/scene/pin_animation_json.h"
#include "core/scene/settings_json.h"

namespace tetlab {

namespace {

using nlohmann::json;

constexpr uint32_t kMaxCells = 512;

// What one scene may hold. Past these the build would exhaust the machine's
// memory instead of failing with a message (a box of 512^3 cells is 805
// million tets: std::bad_alloc after a minute). 10 million tets is also the
// most a mesh body may ask TetGen for (target_tets), about 1.5 GB of model.
constexpr uint64_t kMaxSceneTets = 10'000'000;
constexpr uint64_t kMaxScenePoints = 4'000'000;  // cloth and strand points
constexpr size_t kMaxBodies = 1000;

// An upper bound on what a body builds: tets of a solid (a generator's cells
// times the tets per cell, a mesh body's target), points of a sheet or strands.
struct BodySize {
  uint64_t tets = 0, points = 0;
  const char* field = "";  // the key that sets it, for the error's path
};

BodySize bodySize(const BodySpec& b) {
  const auto even = [](uint64_t n) { return n + (n & 1u); };
  switch (b.source) {
    case BodySource::Mesh: return {uint64_t(b.tets.targetTets), 0, "tets/target_tets"};
    case BodySource::Box:
      return {uint64_t(b.box.cells.x) * b.box.cells.y * b.box.cells.z * (b.box.split == CubeSplit::Five ? 5u : 6u),
              0, "box/cells"};
    case BodySource::Sphere: {
      const uint64_t n = even(b.sphere.cellsAcross);
      return {n * n * n * 6u, 0, "sphere/cells_across"};
    }
    case BodySource::Torus: {
      const uint64_t n = even(b.torus.cellsAcross);
      return {std::max<uint64_t>(3u, b.torus.ringSegments) * n * n * 6u, 0, "torus/cells_across"};
    }
    case BodySource::Cloth:
      return {0, uint64_t(b.cloth.cells.x + 1u) * uint64_t(b.cloth.cells.y + 1u), "cloth/cells"};
    case BodySource::Hair: return {0, uint64_t(b.hair.strands) * b.hair.points, "hair/strands"};
  }
  return {};
}

std::string withThousands(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// Fails when body `index` (whose size is `size`) takes the scene past its
// limits; `total` is what the bodies before it make, updated.
void checkSceneSize(size_t index, const BodySize& size, BodySize& total) {
  const std::string path = "/bodies/" + std::to_string(index);
  total.tets += size.tets;
  total.points += size.points;
  if (size.tets > kMaxSceneTets || size.points > kMaxScenePoints)
    JsonObject::fail(path + "/" + size.field,
                     size.tets > kMaxSceneTets
                         ? "makes up to " + withThousands(size.tets) + " tets; a scene holds at most " +
                               withThousands(kMaxSceneTets) + " (about 1.5 GB): use fewer cells"
                         : "makes " + withThousands(size.points) + " points; a scene holds at most " +
                               withThousands(kMaxScenePoints) + ": use fewer cells, strands or points");
  if (total.tets > kMaxSceneTets || total.points > kMaxScenePoints)
    JsonObject::fail(path, "the bodies up to this one make up to " + withThousands(total.tets) + " tets and " +
                               withThousands(total.points) + " cloth/strand points; a scene holds at most " +
                               withThousands(kMaxSceneTets) + " tets and " + withThousands(kMaxScenePoints) +
                               " points: use fewer or coarser bodies");
}

// ---- writing ----

JsonOut writeMaterial(const Material& m) {
  return {{"youngs_modulus", jsonFloat(m.youngsModulus)},
          {"poisson_ratio", jsonFloat(m.poissonRatio)},
          {"density", jsonFloat(m.density)},
          {"damping", jsonFloat(m.damping)},
          {"thickness", jsonFloat(m.thickness)},
          {"bending_stiffness", m.bendingStiffness < 0.0f ? JsonOut("plate") : JsonOut(jsonFloat(m.bendingStiffness))}};
}

JsonOut writeRegion(const Region& r) { return {{"min", jsonVec3(r.min)}, {"max", jsonVec3(r.max)}}; }

JsonOut writeTransform(const BodyTransform& t) {
  JsonOut out = {{"translate", jsonVec3(t.translate)},
                 {"rotate_deg", jsonVec3(t.rotateDegrees)},
                 {"scale", jsonFloat(t.scale)},
                 {"random_offset", jsonVec3(t.randomOffset)},
                 {"random_yaw_deg", jsonFloat(t.randomYawDegrees)}};
  if (t.lift) out["lift_to"] = jsonFloat(t.liftTo);
  return out;
}

JsonOut writeBody(const BodySpec& b) {
  JsonOut out;
  out["name"] = b.name;
  switch (b.source) {
    case BodySource::Mesh:
      out["mesh"] = b.meshPath;
      out["fit_size"] = jsonFloat(b.fitSize);
      out["tets"] = {{"target_tets", b.tets.targetTets},
                     {"quality", b.tets.quality},
                     {"radius_edge_ratio", b.tets.radiusEdgeRatio},
                     {"method", enumName(tetMethodNames(), b.tets.method)},
                     {"voxel_resolution", b.tets.voxelResolution}};
      out["kind"] = enumName(bodyKindNames(), b.kind);
      break;
    case BodySource::Box:
      out["box"] = {{"min", jsonVec3(b.box.min)},
                    {"size", jsonVec3(b.box.size)},
                    {"cells", jsonUvec3(b.box.cells)},
                    {"split", enumName(cubeSplitNames(), b.box.split)}};
      if (!b.box.keep.empty()) {
        JsonOut keep = JsonOut::array();
        for (const Region& r : b.box.keep) keep.push_back(writeRegion(r));
        out["box"]["keep"] = keep;
      }
      break;
    case BodySource::Sphere:
      out["sphere"] = {{"center", jsonVec3(b.sphere.center)},
                       {"radius", jsonFloat(b.sphere.radius)},
                       {"cells_across", b.sphere.cellsAcross}};
      break;
    case BodySource::Torus:
      out["torus"] = {{"center", jsonVec3(b.torus.center)},
                      {"major_radius", jsonFloat(b.torus.majorRadius)},
                      {"minor_radius", jsonFloat(b.torus.minorRadius)},
                      {"ring_segments", b.torus.ringSegments},
                      {"cells_across", b.torus.cellsAcross}};
      break;
    case BodySource::Cloth:
      out["cloth"] = {{"min", jsonVec3(b.cloth.min)}, {"size", jsonVec2(b.cloth.size)}, {"cells", jsonUvec2(b.cloth.cells)}};
      break;
    case BodySource::Hair:
      out["hair"] = {{"center", jsonVec3(b.hair.center)},   {"radius", jsonFloat(b.hair.radius)},
                     {"strands", b.hair.strands},            {"points", b.hair.points},
                     {"length", jsonFloat(b.hair.length)},   {"cap_deg", jsonFloat(b.hair.capDegrees)},
                     {"jitter", jsonFloat(b.hair.jitter)},   {"curl_radius", jsonFloat(b.hair.curlRadius)},
                     {"curl_turn", jsonFloat(b.hair.curlTurn)}};
      if (b.hair.rootsFollow.valid())
        out["hair"]["roots_follow"] = {{"collider", std::string(enumName(colliderListNames(), b.hair.rootsFollow.list))},
                                       {"index", b.hair.rootsFollow.index}};
      break;
  }
  out["transform"] = writeTransform(b.transform);
  out["material"] = writeMaterial(b.material);
  JsonOut pins = JsonOut::array();
  for (const PinRegion& p : b.pins) {
    JsonOut r = writeRegion(p);
    if (p.follow.valid())
      r["follow"] = {{"collider", std::string(enumName(colliderListNames(), p.follow.list))}, {"index", p.follow.index}};
    writePinAnimation(p.animation, r);
    if (p.stiffness > 0.0f) {
      r["stiffness"] = jsonFloat(p.stiffness);
      r["break_force"] = jsonFloat(p.breakForce);
    }
    pins.push_back(r);
  }
  out["pins"] = pins;
  JsonOut densities = JsonOut::array();
  for (const DensityRegion& d : b.densityRegions) {
    JsonOut r = writeRegion(d.region);
    r["density"] = jsonFloat(d.density);
    densities.push_back(r);
  }
  out["density_regions"] = densities;
  JsonOut springs = JsonOut::array();
  for (const AnchorSpringSpec& sp : b.springs) {
    JsonOut r = {{"attach", jsonVec3(sp.attach)},         {"radius", jsonFloat(sp.radius)},
                 {"anchor", jsonVec3(sp.anchor)},         {"stiffness", jsonFloat(sp.stiffness)},
                 {"break_force", jsonFloat(sp.breakForce)}, {"break_strain", jsonFloat(sp.breakStrain)}};
    if (!sp.name.empty()) r["name"] = sp.name;
    if (sp.restLength >= 0.0f) r["rest_length"] = jsonFloat(sp.restLength);
    springs.push_back(r);
  }
  if (!b.springs.empty()) out["springs"] = springs;
  out["initial_velocity"] = jsonVec3(b.initialVelocity);
  return out;
}

// ---- reading ----

void readMaterial(JsonObject o, Material& m) {
  o.read("youngs_modulus", m.youngsModulus, NumberRange::positive());
  o.read("poisson_ratio", m.poissonRatio, {0.0, 0.5, false, true});
  o.read("density", m.density, NumberRange::positive());
  o.read("damping", m.damping, NumberRange::nonNegative());
  o.read("thickness", m.thickness, NumberRange::positive());
  // Cloth bending D [N m]: a number >= 0, or "plate" for E h^3 / (12 (1 - nu^2)) (core/model/cloth_bending.h).
  if (const nlohmann::json* d = o.find("bending_stiffness")) {
    if (d->is_string() && d->get<std::string>() == "plate") {
      m.bendingStiffness = -1.0f;
    } else if (d->is_number() && std::isfinite(d->get<double>()) && d->get<double>() >= 0.0 &&
               d->get<double>() <= 3.0e38) {
      m.bendingStiffness = float(d->get<double>());
    } else {
      JsonObject::fail(o.childPath("bending_stiffness"),
                       "expected a bending stiffness D >= 0 in N m (e.g. 1e-5, 0 for none) or \"plate\", got " +
                           JsonObject::describe(*d));
    }
  }
  o.finish();
}

// {"collider": list, "index": i}: a collider a pin region or hair roots follow.
void readColliderRef(JsonObject& f, ColliderRef& out) {
  if (!f.has("collider"))
    JsonObject::fail(f.path(), "needs \"collider\": the list (" + enumNameList(colliderListNames()) +
                                   ") and \"index\" in it");
  f.readEnum("collider", out.list, colliderListNames());
  f.read("index", out.index, 0u, 1u << 20);
  f.finish();
}

// Reads "min"/"max" of a region object (the caller finishes it).
Region readRegion(JsonObject& o) {
  Region r;
  if (!o.has("min") || !o.has("max")) JsonObject::fail(o.path(), "a region needs \"min\": [x, y, z] and \"max\": [x, y, z]");
  o.read("min", r.min);
  o.read("max", r.max);
  if (!(r.min.x <= r.max.x && r.min.y <= r.max.y && r.min.z <= r.max.z))
    JsonObject::fail(o.path(), "min must not exceed max on any axis");
  return r;
}

// An array of region objects; extra(item, index) may read more keys of each.
template <class Fn>
void readRegions(JsonObject& parent, const char* key, Fn&& extra) {
  const json* a = parent.array(key);
  if (!a) return;
  for (size_t i = 0; i < a->size(); ++i) {
    JsonObject item((*a)[i], parent.childPath(key) + "/" + std::to_string(i));
    const Region r = readRegion(item);
    extra(item, r);
    item.finish();
  }
}

void readTransform(JsonObject o, BodyTransform& t) {
  o.read("translate", t.translate);
  o.read("rotate_deg", t.rotateDegrees);
  o.read("scale", t.scale, NumberRange::positive());
  o.read("random_offset", t.randomOffset, NumberRange::nonNegative());
  o.read("random_yaw_deg", t.randomYawDegrees, NumberRange::closed(0.0, 180.0));
  if (o.has("lift_to")) {
    t.lift = true;
    o.read("lift_to", t.liftTo);
  }
  o.finish();
}

void readTets(JsonObject o, TetSpec& t) {
  o.read("target_tets", t.targetTets, 1, 10'000'000);
  o.read("quality", t.quality);
  o.read("radius_edge_ratio", t.radiusEdgeRatio, NumberRange::closed(1.0, 100.0));
  o.readEnum("method", t.method, tetMethodNames());
  o.read("voxel_resolution", t.voxelResolution, 0, 1024);
  o.finish();
}

void readBody(JsonObject o, size_t index, BodySpec& b) {
  b.name = "body " + std::to_string(index + 1);
  o.read("name", b.name);
  int sources = 0;
  for (const char* key : {"mesh", "box", "sphere", "torus", "cloth", "hair"}) sources += o.has(key) ? 1 : 0;
  if (sources != 1)
    JsonObject::fail(o.path(), sources == 0 ? "a body needs its geometry: one of \"mesh\": \"file.obj\", \"box\": {...}, "
                                              "\"sphere\": {...}, \"torus\": {...}, \"cloth\": {...} or \"hair\": {...}"
                                            : "a body has exactly one of \"mesh\", \"box\", \"sphere\", \"torus\", \"cloth\" or \"hair\"");
  if (o.has("mesh")) {
    b.source = BodySource::Mesh;
    o.read("mesh", b.meshPath);
    if (b.meshPath.empty()) JsonObject::fail(o.childPath("mesh"), "is empty: give the path of an OBJ file");
  }
  o.read("fit_size", b.fitSize, NumberRange::positive());
  o.readEnum("kind", b.kind, bodyKindNames());
  if (o.has("kind") && b.source != BodySource::Mesh)
    JsonObject::fail(o.childPath("kind"), "applies to \"mesh\" bodies only (a generator's kind is fixed)");
  if (auto t = o.object("tets")) readTets(*t, b.tets);
  if (auto g = o.object("box")) {
    b.source = BodySource::Box;
    g->read("min", b.box.min);
    g->read("size", b.box.size, NumberRange::positive());
    g->read("cells", b.box.cells, 1, kMaxCells);
    g->readEnum("split", b.box.split, cubeSplitNames());
    readRegions(*g, "keep", [&](JsonObject&, const Region& r) { b.box.keep.push_back(r); });
    g->finish();
  }
  if (auto g = o.object("sphere")) {
    b.source = BodySource::Sphere;
    g->read("center", b.sphere.center);
    g->read("radius", b.sphere.radius, NumberRange::positive());
    g->read("cells_across", b.sphere.cellsAcross, 1, kMaxCells);
    g->finish();
  }
  if (auto g = o.object("torus")) {
    b.source = BodySource::Torus;
    g->read("center", b.torus.center);
    g->read("major_radius", b.torus.majorRadius, NumberRange::positive());
    g->read("minor_radius", b.torus.minorRadius, NumberRange::positive());
    g->read("ring_segments", b.torus.ringSegments, 3, kMaxCells);
    g->read("cells_across", b.torus.cellsAcross, 1, kMaxCells);
    g->finish();
    if (!(b.torus.minorRadius < b.torus.majorRadius))
      JsonObject::fail(g->childPath("minor_radius"), "must be smaller than major_radius");
  }
  if (auto g = o.object("cloth")) {
    b.source = BodySource::Cloth;
    g->read("min", b.cloth.min);
    g->read("size", b.cloth.size, NumberRange::positive());
    g->read("cells", b.cloth.cells, 1, kMaxCells);
    g->finish();
  }
  if (auto g = o.object("hair")) {
    b.source = BodySource::Hair;
    g->read("center", b.hair.center);
    g->read("radius", b.hair.radius, NumberRange::positive());
    g->read("strands", b.hair.strands, 1, 4096);
    g->read("points", b.hair.points, 2, 256);
    g->read("length", b.hair.length, NumberRange::positive());
    g->read("cap_deg", b.hair.capDegrees, NumberRange::closed(0.0, 180.0));
    g->read("jitter", b.hair.jitter, NumberRange::closed(0.0, 2.0));
    g->read("curl_radius", b.hair.curlRadius, NumberRange::closed(0.0, 10.0));
    g->read("curl_turn", b.hair.curlTurn, NumberRange::positive());
    if (auto f = g->object("roots_follow")) readColliderRef(*f, b.hair.rootsFollow);
    g->finish();
  }
  if (auto t = o.object("transform")) readTransform(*t, b.transform);
  if (auto m = o.object("material")) readMaterial(*m, b.material);
  readRegions(o, "pins", [&](JsonObject& item, const Region& r) {
    PinRegion pin(r);
    if (auto f = item.object("follow")) readColliderRef(*f, pin.follow);
    readPinAnimation(item, pin.animation);
    item.read("stiffness", pin.stiffness, {0.0, 1e12, false, false});
    item.read("break_force", pin.breakForce, NumberRange::nonNegative());
    if (pin.breakForce > 0.0f && !(pin.stiffness > 0.0f))
      JsonObject::fail(item.path(), "break_force needs a compliant region: give \"stiffness\" [N/m] too (hard pins "
                                    "do not break)");
    if (pin.follow.valid() && pin.stiffness > 0.0f)
      JsonObject::fail(item.path(), "a pin region that follows a collider is hard: remove \"stiffness\" or \"follow\"");
    if (pin.follow.valid() && pin.animation.active())
      JsonObject::fail(item.path(), "a pin region follows a collider or its own keys, not both: remove \"follow\" or "
                                    "the keys and release_at");
    b.pins.push_back(pin);
  });
  readRegions(o, "density_regions", [&](JsonObject& item, const Region& r) {
    DensityRegion d{r, b.material.density};
    if (!item.has("density")) JsonObject::fail(item.path(), "a density region needs \"density\" [kg/m^3]");
    item.read("density", d.density, NumberRange::positive());
    b.densityRegions.push_back(d);
  });
  if (const json* a = o.array("springs")) {
    for (size_t i = 0; i < a->size(); ++i) {
      JsonObject item((*a)[i], o.childPath("springs") + "/" + std::to_string(i));
      AnchorSpringSpec sp;
      item.read("name", sp.name);
      if (!item.has("attach") || !item.has("anchor"))
        JsonObject::fail(item.path(), "a spring needs \"attach\" (a point on the body [m]) and \"anchor\" (the "
                                      "world point it hangs from [m])");
      item.read("attach", sp.attach);
      item.read("anchor", sp.anchor);
      item.read("radius", sp.radius, NumberRange::closed(0.0, 1e6));
      item.read("stiffness", sp.stiffness, {0.0, 1e12, true, false});
      item.read("rest_length", sp.restLength, NumberRange::closed(0.0, 1e6));
      item.read("break_force", sp.breakForce, NumberRange::nonNegative());
      item.read("break_strain", sp.breakStrain, NumberRange::nonNegative());
      item.finish();
      b.springs.push_back(sp);
    }
  }
  o.read("initial_velocity", b.initialVelocity);
  o.finish();
}

SceneDesc readScene(const json& doc) {
  JsonObject root(doc, "");
  std::string format = kSceneFormat;
  root.read("format", format);
  if (format != kSceneFormat)
    JsonObject::fail("/format", "is '" + format + "', expected '" + kSceneFormat + "': this is not a tetlab scene");
  int version = kSceneFormatVersion;
  root.read("version", version, 1, 1'000'000);
  if (version > kSceneFormatVersion)
    JsonObject::fail("/version", "is " + std::to_string(version) + ", this tetlab reads up to version " +
                                     std::to_string(kSceneFormatVersion) + ": update tetlab");
  SceneDesc scene;
  root.read("name", scene.name);
  root.read("description", scene.description);
  root.read("seed", scene.seed);
  const json* bodies = root.array("bodies");
  if (!bodies || bodies->empty())
    JsonObject::fail("/bodies", "a scene needs at least one body: \"bodies\": [ { \"mesh\": \"file.obj\" } ]");
  if (bodies->size() > kMaxBodies)
    JsonObject::fail("/bodies", "has " + withThousands(bodies->size()) + " bodies; a scene holds at most " +
                                    std::to_string(kMaxBodies));
  BodySize total;
  for (size_t i = 0; i < bodies->size(); ++i) {
    BodySpec body;
    readBody(JsonObject((*bodies)[i], "/bodies/" + std::to_string(i)), i, body);
    checkSceneSize(i, bodySize(body), total);
    scene.bodies.push_back(std::move(body));
  }
  root.read("pinned_vertices", scene.pinnedVertices);
  root.read("unpinned_vertices", scene.unpinnedVertices);
  readSolverSettings(root, scene.settings);
  if (auto c = root.object("camera")) {
    scene.camera.set = true;
    c->read("target", scene.camera.target);
    c->read("distance", scene.camera.distance, NumberRange::positive());
    c->read("yaw_deg", scene.camera.yawDegrees);
    c->read("pitch_deg", scene.camera.pitchDegrees, NumberRange::closed(-89.0, 89.0));
    c->finish();
  }
  if (auto m = root.object("mouse")) {
    m->read("stiffness", scene.mouse.stiffness, NumberRange::nonNegative());
    m->read("max_force", scene.mouse.maxForce, NumberRange::nonNegative());
    m->read("break_force", scene.mouse.breakForce, NumberRange::nonNegative());
    m->finish();
  }
  readCompareSpec(root, scene.compare);
  root.finish();
  return scene;
}

JsonOut sceneToJson(const SceneDesc& scene) {
  JsonOut out;
  out["format"] = kSceneFormat;
  out["version"] = kSceneFormatVersion;
  out["name"] = scene.name;
  out["description"] = scene.description;
  out["seed"] = scene.seed;
  JsonOut bodies = JsonOut::array();
  for (const BodySpec& b : scene.bodies) bodies.push_back(writeBody(b));
  out["bodies"] = bodies;
  out["pinned_vertices"] = scene.pinnedVertices;
  out["unpinned_vertices"] = scene.unpinnedVertices;
  writeSolverSettings(scene.settings, out);
  if (scene.camera.set)
    out["camera"] = {{"target", jsonVec3(scene.camera.target)},
                     {"distance", jsonFloat(scene.camera.distance)},
                     {"yaw_deg", jsonFloat(scene.camera.yawDegrees)},
                     {"pitch_deg", jsonFloat(scene.camera.pitchDegrees)}};
  out["mouse"] = {{"stiffness", jsonFloat(scene.mouse.stiffness)}, {"max_force", jsonFloat(scene.mouse.maxForce)},
                  {"break_force", jsonFloat(scene.mouse.breakForce)}};
  writeCompareSpec(scene.compare, out);
  return out;
}

}  // namespace

std::string sceneToJsonText(const SceneDesc& scene) { return prettyJson(sceneToJson(scene)); }

namespace {

// "line:column" of the 0-based byte offset `at` of `text`, as editors count them.
std::string lineColumn(std::string_view text, size_t at) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

Result<SceneDesc> parseSceneJson(std::string_view text, const std::string& sourceName) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // e.byte is 1-based.
    std::string what = e.what();
    if (const size_t at = what.find("syntax error"); at != std::string::npos) what = what.substr(at);
    return Error{sourceName + ":" + lineColumn(text, e.byte > 0 ? e.byte - 1 : 0) + ": not valid JSON (" + what +
                 "): check for a missing comma or quote, or a trailing comma"};
  } catch (const json::out_of_range& e) {
    // A number beyond double's range: the parser names the token ("number
    // overflow parsing '1e400'") but not where it is, so find it in the text.
    const std::string what = e.what();
    const size_t open = what.find('\''), close = open == std::string::npos ? open : what.find('\'', open + 1);
    const std::string token = close == std::string::npos ? std::string() : what.substr(open + 1, close - open - 1);
    const size_t at = token.empty() ? std::string_view::npos : text.find(token);
    return Error{sourceName + (at == std::string_view::npos ? std::string() : ":" + lineColumn(text, at)) +
                 ": the number " + (token.empty() ? std::string("here") : "'" + token + "'") +
                 " is beyond the range of a double (about 1.8e308): write a finite value in the field's range "
                 "(docs/sandbox.md)"};
  }
  try {
    return readScene(doc);
  } catch (const JsonReadError& e) {
    return Error{sourceName + ": at " + (e.path.empty() ? std::string("/") : e.path) + ": " + e.message};
  } catch (const json::exception& e) {
    return Error{sourceName + ": " + e.what() + ": check the value types against docs/sandbox.md"};
  }
}

Result<SceneDesc> loadSceneFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return Error{"cannot open scene file '" + path.string() + "': no such file: check the path (presets are in "
                 "assets/scenes/)"};
  if (std::filesystem::is_directory(path, ec))
    return Error{"cannot open scene file '" + path.string() + "': it is a folder: give a .json file"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open scene file '" + path.string() + "': permission denied or unreadable"};
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parseSceneJson(buffer.str(), path.string());
}

Status saveSceneFile(const std::filesystem::path& path, const SceneDesc& scene) {
  if (Status s = writeFileAtomically(path, sceneToJsonText(scene)); !s)
    return Error{"cannot save the scene to '" + path.string() + "': " + s.error().message +
                 "; the file there, if any, is unchanged"};
  return Ok{};
}

}  // namespace tetlab
