#include "core/scene/settings_json.h"

#include <cmath>

#include <glm/geometric.hpp>

#include "core/scene/rotation.h"
#include "core/sim/sdf_grid.h"

namespace tetlab {

namespace {

using nlohmann::json;  // read side
using Out = JsonOut;  // write side (keeps key order)

constexpr int kMaxSubsteps = 10000;
constexpr int kMaxIterations = 10000;

// ---- writing ----

Out writeConstraints(const ConstraintToggles& c) {
  return {{"edges", c.edges},         {"tet_volume", c.tetVolume}, {"strain_based", c.strainBased},
          {"neo_hookean", c.neoHookean}, {"tethers", c.tethers},     {"collisions", c.collisions},
          {"body_contacts", c.bodyContacts}, {"bending", c.bending}, {"membrane", c.membrane}};
}

Out writeVbd(const VbdParams& p) {
  return {{"initial_guess", enumName(vbdInitialGuessNames(), p.initialGuess)},
          {"accelerate", p.accelerate},
          {"chebyshev_rho", jsonFloat(p.chebyshevRho)},
          {"safeguard", enumName(hessianSafeguardNames(), p.safeguard)},
          {"determinant_threshold", jsonFloat(p.determinantThreshold)},
          {"contact_stiffness", jsonFloat(p.contactStiffness)},
          {"contact_thickness", jsonFloat(p.contactThickness)},
          {"friction_epsilon", jsonFloat(p.frictionEpsilon)},
          {"body_contact_stiffness", jsonFloat(p.bodyContactStiffness)}};
}

Out writeRotationRows(const glm::mat3& m) {
  Out rows = Out::array();
  for (int r = 0; r < 3; ++r) rows.push_back(jsonVec3(glm::vec3(m[0][r], m[1][r], m[2][r])));
  return rows;
}

Out writeColliders(const Colliders& c) {
  Out out;
  out["ground"] = {{"enabled", c.ground.enabled},
                   {"height", jsonFloat(c.ground.height)},
                   {"friction", jsonFloat(c.ground.friction)}};
  Out planes = Out::array(), spheres = Out::array(), boxes = Out::array(), capsules = Out::array(),
      tori = Out::array(), meshes = Out::array();
  for (const PlaneCollider& p : c.planes)
    planes.push_back(
        {{"point", jsonVec3(p.point)}, {"normal", jsonVec3(p.normal)}, {"friction", jsonFloat(p.friction)}});
  for (const SphereCollider& s : c.spheres)
    spheres.push_back(
        {{"center", jsonVec3(s.center)}, {"radius", jsonFloat(s.radius)}, {"friction", jsonFloat(s.friction)}});
  for (const BoxCollider& b : c.boxes)
    boxes.push_back({{"center", jsonVec3(b.center)},
                     {"half_extents", jsonVec3(b.halfExtents)},
                     {"rotation", writeRotationRows(b.rotation)},
                     {"friction", jsonFloat(b.friction)}});
  for (const CapsuleCollider& k : c.capsules)
    capsules.push_back({{"a", jsonVec3(k.a)},
                        {"b", jsonVec3(k.b)},
                        {"radius", jsonFloat(k.radius)},
                        {"friction", jsonFloat(k.friction)}});
  for (const TorusCollider& t : c.tori)
    tori.push_back({{"center", jsonVec3(t.center)},
                    {"major_radius", jsonFloat(t.majorRadius)},
                    {"minor_radius", jsonFloat(t.minorRadius)},
                    {"rotation", writeRotationRows(t.rotation)},
                    {"friction", jsonFloat(t.friction)}});
  for (const MeshCollider& m : c.meshes)
    meshes.push_back({{"mesh", m.mesh},
                      {"center", jsonVec3(m.center)},
                      {"size", jsonFloat(m.size)},
                      {"rotation", writeRotationRows(m.rotation)},
                      {"resolution", m.resolution},
                      {"friction", jsonFloat(m.friction)}});
  out["planes"] = planes;
  out["spheres"] = spheres;
  out["boxes"] = boxes;
  out["capsules"] = capsules;
  out["tori"] = tori;
  out["meshes"] = meshes;
  return out;
}

// ---- reading ----

void readConstraints(JsonObject o, ConstraintToggles& c) {
  o.read("edges", c.edges);
  o.read("tet_volume", c.tetVolume);
  o.read("strain_based", c.strainBased);
  o.read("neo_hookean", c.neoHookean);
  o.read("tethers", c.tethers);
  o.read("bending", c.bending);
  o.read("membrane", c.membrane);
  o.read("collisions", c.collisions);
  o.read("body_contacts", c.bodyContacts);
  o.finish();
}

void readStep(JsonObject o, StepSettings& s) {
  o.read("dt", s.dt, {0.0, 1.0, true, false});
  o.read("substeps", s.substeps, 1, kMaxSubsteps);
  o.read("iterations", s.iterations, 1, kMaxIterations);
  o.read("gravity", s.gravity);
  o.read("velocity_damping", s.velocityDamping, NumberRange::nonNegative());
  if (auto c = o.object("constraints")) readConstraints(*c, s.constraints);
  if (auto r = o.object("rayleigh_damping")) {
    r->read("max_iterations", s.rayleigh.maxIterations, 0, kMaxIterations);
    r->read("tolerance", s.rayleigh.tolerance, {0.0, 1.0, false, true});
    r->finish();
  }
  o.readEnum("gpu_schedule", s.gpuSchedule, gpuScheduleNames());
  o.finish();
}

void readPositionBased(JsonObject o, PositionBasedConstraintParams& p) {
  o.read("stretch_scale", p.stretchScale, NumberRange::nonNegative());
  o.read("shear_scale", p.shearScale, NumberRange::nonNegative());
  o.read("rest_scale", p.restScale, NumberRange::closed(1e-3, 1e3));
  if (o.has("material_axis")) {
    o.read("material_axis", p.materialAxis, NumberRange::closed(-1e6, 1e6));
    if (!(glm::length(p.materialAxis) > 0.0f))
      JsonObject::fail(o.childPath("material_axis"), "the material x axis needs a direction: give a non-zero [x, y, z]");
  }
  o.read("tether_slack", p.tetherSlack, NumberRange::nonNegative());
  o.read("contact_offset", p.contactOffset, NumberRange::nonNegative());
  o.finish();
}

void readPbd(JsonObject o, PbdParams& p) {
  o.readEnum("scheme", p.scheme, pbdSchemeNames());
  o.read("jacobi_omega", p.jacobiOmega, {1.0, 2.0, false, true});
  o.readEnum("mapping", p.mapping, pbdMappingNames());
  o.read("reference_rate", p.referenceRate, NumberRange::positive());
  o.finish();
}

void readXpbd(JsonObject o, XpbdParams& p) {
  o.read("compliance_scale", p.complianceScale, NumberRange::nonNegative());
  // Files from before the Rayleigh pass may say whether XPBD used Material::damping
  // (its Eq. 26); every solver now damps with the pass, so the key is read and ignored.
  bool legacyMaterialDamping = true;
  o.read("material_damping", legacyMaterialDamping);
  o.finish();
}

void readVbdFields(JsonObject& o, VbdParams& p) {
  o.readEnum("initial_guess", p.initialGuess, vbdInitialGuessNames());
  o.read("accelerate", p.accelerate);
  o.read("chebyshev_rho", p.chebyshevRho, {0.0, 1.0, true, true});
  o.readEnum("safeguard", p.safeguard, hessianSafeguardNames());
  o.read("determinant_threshold", p.determinantThreshold, NumberRange::nonNegative());
  o.read("contact_stiffness", p.contactStiffness, NumberRange::positive());
  o.read("contact_thickness", p.contactThickness, NumberRange::nonNegative());
  o.read("friction_epsilon", p.frictionEpsilon, NumberRange::positive());
  o.read("body_contact_stiffness", p.bodyContactStiffness, NumberRange::positive());
}

void readVbd(JsonObject o, VbdParams& p) {
  readVbdFields(o, p);
  o.finish();
}

void readAvbd(JsonObject o, AvbdParams& p) {
  if (auto primal = o.object("primal")) readVbd(*primal, p.primal);
  o.read("alpha", p.alpha, NumberRange::closed(0.0, 1.0));
  o.read("gamma", p.gamma, {0.0, 1.0, false, true});
  o.read("beta", p.beta, NumberRange::nonNegative());
  o.read("k_start", p.kStart, NumberRange::positive());
  o.read("k_start_inertia", p.kStartInertia, NumberRange::nonNegative());
  o.read("k_max", p.kMax, NumberRange::positive());
  o.read("hard_contacts", p.hardContacts);
  o.read("hard_pins", p.hardPins);
  o.read("hard_attachment", p.hardAttachment);
  o.read("hard_edges", p.hardEdges);
  o.read("friction", p.friction);
  o.finish();
  if (p.kStart > p.kMax)
    JsonObject::fail(o.path() + "/k_start", "must not exceed k_max (" + std::to_string(p.kMax) + ")");
}

// Each array element is read into a default-constructed T by fn(JsonObject&, T&).
template <class T, class Fn>
void readArray(JsonObject& parent, const char* key, std::vector<T>& out, Fn&& fn) {
  const json* a = parent.array(key);
  if (!a) return;
  std::vector<T> items;
  for (size_t i = 0; i < a->size(); ++i) {
    JsonObject item((*a)[i], parent.childPath(key) + "/" + std::to_string(i));
    T value{};
    fn(item, value);
    item.finish();
    items.push_back(value);
  }
  out = std::move(items);
}

void readRotation(JsonObject& o, glm::mat3& out) {
  const bool hasRows = o.has("rotation"), hasDegrees = o.has("rotate_deg");
  if (hasRows && hasDegrees)
    JsonObject::fail(o.childPath("rotate_deg"), "give either 'rotation' (3 rows) or 'rotate_deg', not both");
  if (hasDegrees) {
    glm::vec3 degrees(0.0f);
    o.read("rotate_deg", degrees);
    out = rotationFromDegrees(degrees);
    return;
  }
  const json* rows = o.array("rotation");
  if (!rows) return;
  const std::string path = o.childPath("rotation");
  if (rows->size() != 3) JsonObject::fail(path, "expected 3 rows of 3 numbers (a rotation matrix)");
  glm::mat3 m(1.0f);
  for (int r = 0; r < 3; ++r) {
    const json& row = (*rows)[size_t(r)];
    if (!row.is_array() || row.size() != 3 || !row[0].is_number() || !row[1].is_number() || !row[2].is_number())
      JsonObject::fail(path + "/" + std::to_string(r), "expected a row of 3 numbers");
    for (int c = 0; c < 3; ++c) m[c][r] = row[size_t(c)].get<float>();
  }
  // A rotation keeps lengths and orientation: R^T R = I, det R = 1 (to float accuracy).
  const glm::mat3 rtr = glm::transpose(m) * m;
  float err = 0.0f;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) err = std::max(err, std::fabs(rtr[c][r] - (c == r ? 1.0f : 0.0f)));
  if (!(err <= 1e-4f) || !(glm::determinant(m) > 0.0f))  // NaN (huge entries) fails too
    JsonObject::fail(path, "is not a rotation matrix (rows must be orthonormal, determinant +1); "
                           "use 'rotate_deg': [x, y, z] instead");
  out = m;
}

void readColliders(JsonObject o, Colliders& c) {
  if (auto g = o.object("ground")) {
    g->read("enabled", c.ground.enabled);
    g->read("height", c.ground.height);
    g->read("friction", c.ground.friction, NumberRange::nonNegative());
    g->finish();
  }
  readArray(o, "planes", c.planes, [](JsonObject& p, PlaneCollider& v) {
    p.read("point", v.point);
    p.read("normal", v.normal);
    p.read("friction", v.friction, NumberRange::nonNegative());
    if (!(glm::length(v.normal) > 1e-6f))
      JsonObject::fail(p.path() + "/normal", "must be a non-zero vector (the side of the plane that is free)");
  });
  readArray(o, "spheres", c.spheres, [](JsonObject& s, SphereCollider& v) {
    s.read("center", v.center);
    s.read("radius", v.radius, NumberRange::positive());
    s.read("friction", v.friction, NumberRange::nonNegative());
  });
  readArray(o, "boxes", c.boxes, [](JsonObject& b, BoxCollider& v) {
    b.read("center", v.center);
    b.read("half_extents", v.halfExtents, NumberRange::positive());
    readRotation(b, v.rotation);
    b.read("friction", v.friction, NumberRange::nonNegative());
  });
  readArray(o, "capsules", c.capsules, [](JsonObject& k, CapsuleCollider& v) {
    k.read("a", v.a);
    k.read("b", v.b);
    k.read("radius", v.radius, NumberRange::positive());
    k.read("friction", v.friction, NumberRange::nonNegative());
  });
  readArray(o, "tori", c.tori, [](JsonObject& t, TorusCollider& v) {
    t.read("center", v.center);
    t.read("major_radius", v.majorRadius, NumberRange::positive());
    t.read("minor_radius", v.minorRadius, NumberRange::positive());
    readRotation(t, v.rotation);
    t.read("friction", v.friction, NumberRange::nonNegative());
    if (v.minorRadius >= v.majorRadius)
      JsonObject::fail(t.childPath("minor_radius"), "must be smaller than major_radius (" +
                                                        std::to_string(v.majorRadius) +
                                                        " m): a torus whose tube crosses its axis has no hole");
  });
  readArray(o, "meshes", c.meshes, [](JsonObject& m, MeshCollider& v) {
    m.read("mesh", v.mesh);
    if (v.mesh.empty()) JsonObject::fail(m.childPath("mesh"), "is missing or empty: give the path of a closed OBJ");
    m.read("center", v.center);
    m.read("size", v.size, NumberRange::positive());
    readRotation(m, v.rotation);
    m.read("resolution", v.resolution, kSdfMinResolution, kSdfMaxResolution);
    m.read("friction", v.friction, NumberRange::nonNegative());
  });
  o.finish();
}

void readBodyContacts(JsonObject o, BodyContactParams& p) {
  o.read("thickness", p.thickness, NumberRange::nonNegative());
  o.read("search_radius", p.searchRadius, NumberRange::positive());
  o.read("friction", p.friction, NumberRange::nonNegative());
  o.read("self_collision", p.selfCollision);
  o.finish();
  if (p.thickness >= p.searchRadius)
    JsonObject::fail(o.path() + "/thickness", "must be smaller than search_radius (" +
                                                  std::to_string(p.searchRadius) +
                                                  " m): a contact is only found within the search radius");
}

}  // namespace

void writeSolverSettings(const SolverSettings& s, Out& out) {
  out["solver"] = solverName(s.solver);
  out["step"] = {{"dt", jsonFloat(s.step.dt)},
                 {"substeps", s.step.substeps},
                 {"iterations", s.step.iterations},
                 {"gravity", jsonVec3(s.step.gravity)},
                 {"velocity_damping", jsonFloat(s.step.velocityDamping)},
                 {"constraints", writeConstraints(s.step.constraints)},
                 {"rayleigh_damping",
                  {{"max_iterations", s.step.rayleigh.maxIterations},
                   {"tolerance", jsonFloat(s.step.rayleigh.tolerance)}}},
                 {"gpu_schedule", enumName(gpuScheduleNames(), s.step.gpuSchedule)}};
  const PositionBasedConstraintParams& pb = s.positionBased;
  out["position_based"] = {{"stretch_scale", jsonVec3(pb.stretchScale)},
                           {"shear_scale", jsonVec3(pb.shearScale)},
                           {"rest_scale", jsonVec3(pb.restScale)},
                           {"material_axis", jsonVec3(pb.materialAxis)},
                           {"tether_slack", jsonFloat(pb.tetherSlack)},
                           {"contact_offset", jsonFloat(pb.contactOffset)}};
  out["pbd"] = {{"scheme", enumName(pbdSchemeNames(), s.pbd.scheme)},
                {"jacobi_omega", jsonFloat(s.pbd.jacobiOmega)},
                {"mapping", enumName(pbdMappingNames(), s.pbd.mapping)},
                {"reference_rate", jsonFloat(s.pbd.referenceRate)}};
  out["xpbd"] = {{"compliance_scale", jsonFloat(s.xpbd.complianceScale)}};
  out["vbd"] = writeVbd(s.vbd);
  const AvbdParams& a = s.avbd;
  out["avbd"] = {{"primal", writeVbd(a.primal)},
                 {"alpha", jsonFloat(a.alpha)},
                 {"gamma", jsonFloat(a.gamma)},
                 {"beta", jsonFloat(a.beta)},
                 {"k_start", jsonFloat(a.kStart)},
                 {"k_start_inertia", jsonFloat(a.kStartInertia)},
                 {"k_max", jsonFloat(a.kMax)},
                 {"hard_contacts", a.hardContacts},
                 {"hard_pins", a.hardPins},
                 {"hard_attachment", a.hardAttachment},
                 {"hard_edges", a.hardEdges},
                 {"friction", a.friction}};
  out["colliders"] = writeColliders(s.colliders);
  const BodyContactParams& bc = s.bodyContacts;
  out["body_contacts"] = {{"thickness", jsonFloat(bc.thickness)},
                          {"search_radius", jsonFloat(bc.searchRadius)},
                          {"friction", jsonFloat(bc.friction)},
                          {"self_collision", bc.selfCollision}};
  const WindSettings& w = s.wind;
  out["wind"] = {{"enabled", w.enabled},
                 {"velocity", jsonVec3(w.velocity)},
                 {"fluid_density", jsonFloat(w.fluidDensity)},
                 {"drag", jsonFloat(w.drag)},
                 {"lift", jsonFloat(w.lift)},
                 {"gust", jsonFloat(w.gust)},
                 {"gust_period", jsonFloat(w.gustPeriod)},
                 {"seed", w.seed}};
  const SphereSettings& sp = s.spheres;
  out["spheres"] = {{"motion", sp.motion},
                    {"motion_scale", jsonFloat(sp.motionScale)},
                    {"motion_bias", jsonFloat(sp.motionBias)},
                    {"separation", sp.separation},
                    {"separation_radius", jsonFloat(sp.separationRadius)},
                    {"stiffness", jsonFloat(sp.stiffness)}};
  JsonOut fields = JsonOut::array();
  for (const ForceField& f : s.forceFields.fields)
    fields.push_back({{"enabled", f.enabled},
                      {"kind", enumName(forceFieldKindNames(), f.kind)},
                      {"center", jsonVec3(f.center)},
                      {"direction", jsonVec3(f.direction)},
                      {"strength", jsonFloat(f.strength)},
                      {"radius", jsonFloat(f.radius)},
                      {"falloff", jsonFloat(f.falloff)},
                      {"per_mass", f.perMass}});
  out["force_fields"] = fields;
}

namespace {
void readWind(JsonObject o, WindSettings& w) {
  o.read("enabled", w.enabled);
  o.read("velocity", w.velocity);
  o.read("fluid_density", w.fluidDensity, NumberRange::nonNegative());
  o.read("drag", w.drag, NumberRange::nonNegative());
  o.read("lift", w.lift, NumberRange::nonNegative());
  o.read("gust", w.gust, NumberRange::closed(0.0, 1.0));
  o.read("gust_period", w.gustPeriod, NumberRange::positive());
  o.read("seed", w.seed, 0, UINT32_MAX);
  o.finish();
}

void readSpheres(JsonObject o, SphereSettings& s) {
  o.read("motion", s.motion);
  o.read("motion_scale", s.motionScale, NumberRange::closed(0.0, 100.0));
  o.read("motion_bias", s.motionBias, NumberRange::closed(-100.0, 100.0));
  o.read("separation", s.separation);
  o.read("separation_radius", s.separationRadius, NumberRange::positive());
  o.read("stiffness", s.stiffness, NumberRange::closed(0.0, 1.0));
  o.finish();
}
}  // namespace

void readSolverSettings(JsonObject& root, SolverSettings& s) {
  root.readEnum("solver", s.solver, solverKindNames());
  if (auto o = root.object("step")) readStep(*o, s.step);
  if (auto o = root.object("position_based")) readPositionBased(*o, s.positionBased);
  if (auto o = root.object("pbd")) readPbd(*o, s.pbd);
  if (auto o = root.object("xpbd")) readXpbd(*o, s.xpbd);
  if (auto o = root.object("vbd")) readVbd(*o, s.vbd);
  if (auto o = root.object("avbd")) readAvbd(*o, s.avbd);
  if (auto o = root.object("colliders")) readColliders(*o, s.colliders);
  if (auto o = root.object("body_contacts")) readBodyContacts(*o, s.bodyContacts);
  if (auto o = root.object("wind")) readWind(*o, s.wind);
  if (auto o = root.object("spheres")) readSpheres(*o, s.spheres);
  readArray(root, "force_fields", s.forceFields.fields, [](JsonObject& f, ForceField& v) {
    v = ForceField{};
    f.read("enabled", v.enabled);
    f.readEnum("kind", v.kind, forceFieldKindNames());
    f.read("center", v.center);
    f.read("direction", v.direction);
    f.read("strength", v.strength);
    f.read("radius", v.radius, NumberRange::nonNegative());
    f.read("falloff", v.falloff, NumberRange::closed(0.0, 16.0));
    f.read("per_mass", v.perMass);
    if (v.kind != ForceFieldKind::Radial && !(glm::length(v.direction) > 1e-6f))
      JsonObject::fail(f.path() + "/direction",
                       "must be a non-zero vector (a directional field's push, a vortex's axis)");
  });
}

}  // namespace tetlab
