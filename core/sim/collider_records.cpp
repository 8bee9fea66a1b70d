#include "core/sim/collider_records.h"

#include <cstring>

#include <glm/geometric.hpp>

#include "core/sim/sdf_grid.h"

namespace tetlab {
namespace {

void header(std::vector<glm::vec4>& out, uint32_t kind, float friction) {
  out.emplace_back(float(kind), friction, 0.0f, 0.0f);
}

// Pads the record started at `begin` to the fixed stride.
void pad(std::vector<glm::vec4>& out, size_t begin) {
  while (out.size() < begin + TL_COLLIDER_STRIDE) out.emplace_back(0.0f);
}

}  // namespace

void packColliders(const Colliders& c, ColliderRecords& outRecords) {
  std::vector<glm::vec4>& out = outRecords.data;
  out.clear();
  outRecords.records = colliderRecordCount(c);
  size_t begin = out.size();
  if (c.ground.enabled) {
    header(out, TL_COLLIDER_PLANE, c.ground.friction);
    out.emplace_back(0.0f, 1.0f, 0.0f, c.ground.height);
  } else {
    header(out, TL_COLLIDER_NONE, 0.0f);
  }
  pad(out, begin);
  for (const PlaneCollider& p : c.planes) {
    begin = out.size();
    const float len = glm::length(p.normal);
    const glm::vec3 n = len > 0.0f ? p.normal / len : glm::vec3(0.0f, 1.0f, 0.0f);
    header(out, TL_COLLIDER_PLANE, p.friction);
    out.emplace_back(n, glm::dot(n, p.point));
    pad(out, begin);
  }
  for (const SphereCollider& s : c.spheres) {
    begin = out.size();
    header(out, TL_COLLIDER_SPHERE, s.friction);
    out.emplace_back(s.center, s.radius);
    pad(out, begin);
  }
  for (const BoxCollider& b : c.boxes) {
    begin = out.size();
    header(out, TL_COLLIDER_BOX, b.friction);
    out.emplace_back(b.center, 0.0f);
    out.emplace_back(b.halfExtents, 0.0f);
    for (int k = 0; k < 3; ++k) out.emplace_back(b.rotation[k], 0.0f);
    pad(out, begin);
  }
  for (const CapsuleCollider& s : c.capsules) {
    begin = out.size();
    header(out, TL_COLLIDER_CAPSULE, s.friction);
    out.emplace_back(s.a, s.radius);
    out.emplace_back(s.b, 0.0f);
    pad(out, begin);
  }
  for (const TorusCollider& t : c.tori) {
    begin = out.size();
    header(out, TL_COLLIDER_TORUS, t.friction);
    out.emplace_back(t.center, t.majorRadius);
    out.emplace_back(t.minorRadius, 0.0f, 0.0f, 0.0f);
    for (int k = 0; k < 3; ++k) out.emplace_back(t.rotation[k], 0.0f);
    pad(out, begin);
  }
  // Mesh colliders: records now, their grids after the last record.
  size_t payloadFloats = size_t(outRecords.records) * TL_COLLIDER_STRIDE * 4;
  std::vector<size_t> payloadAt(c.meshes.size(), 0);
  for (size_t m = 0; m < c.meshes.size(); ++m) {
    const MeshCollider& mesh = c.meshes[m];
    begin = out.size();
    const SdfGrid* g = mesh.grid.get();
    const size_t samples = g ? g->phi.size() : 0;
    if (!g || samples == 0 || !(mesh.size > 0.0f) || payloadFloats + samples > kColliderPayloadMaxFloats) {
      header(out, TL_COLLIDER_NONE, 0.0f);
      pad(out, begin);
      continue;
    }
    payloadAt[m] = payloadFloats;
    out.emplace_back(float(TL_COLLIDER_MESH), mesh.friction, float(payloadFloats), 0.0f);
    out.emplace_back(mesh.center, mesh.size);
    out.emplace_back(g->origin, g->cell);
    for (int k = 0; k < 3; ++k) out.emplace_back(mesh.rotation[k], float(g->dims[k]));
    pad(out, begin);
    payloadFloats += (samples + 3) / 4 * 4;  // each grid starts on a float4
  }
  out.resize(payloadFloats / 4, glm::vec4(0.0f));
  for (size_t m = 0; m < c.meshes.size(); ++m)
    if (payloadAt[m] > 0) {
      const std::vector<float>& phi = c.meshes[m].grid->phi;
      std::memcpy(reinterpret_cast<float*>(out.data()) + payloadAt[m], phi.data(), phi.size() * sizeof(float));
    }
}

ColliderRecords packColliders(const Colliders& colliders) {
  ColliderRecords out;
  packColliders(colliders, out);
  return out;
}

bool bitwiseEqual(const ColliderRecords& a, const ColliderRecords& b) {
  return a.records == b.records && a.data.size() == b.data.size() &&
         (a.data.empty() || std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(glm::vec4)) == 0);
}

}  // namespace tetlab
