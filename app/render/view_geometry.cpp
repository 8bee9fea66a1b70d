// CPU geometry for the view modes; see view_geometry.h for the vertex layout.
#include "app/render/view_geometry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "app/render/mesh_geometry.h"

namespace tetlab {

glm::uvec3 tetFaceCorners(int face) {
  // Outward and counter-clockwise for dot(p1 - p0, cross(p2 - p0, p3 - p0)) > 0.
  static constexpr std::array<glm::uvec3, 4> kFaces{glm::uvec3(0, 2, 1), glm::uvec3(0, 1, 3), glm::uvec3(0, 3, 2),
                                                    glm::uvec3(1, 2, 3)};
  return kFaces[size_t(face & 3)];
}

std::vector<uint32_t> boundaryFaceTets(const SimModel& model) {
  struct Face {
    std::array<uint32_t, 3> key;
    uint32_t tet;
    bool operator<(const Face& o) const { return key < o.key; }
  };
  std::vector<Face> faces;
  faces.reserve(size_t(model.tetCount()) * 4);
  for (uint32_t t = 0; t < model.tetCount(); ++t)
    for (int f = 0; f < 4; ++f) {
      const glm::uvec3 c = tetFaceCorners(f);
      std::array<uint32_t, 3> key{model.tets[t][int(c.x)], model.tets[t][int(c.y)], model.tets[t][int(c.z)]};
      std::sort(key.begin(), key.end());
      faces.push_back({key, t});
    }
  std::sort(faces.begin(), faces.end());
  std::vector<uint32_t> out(model.boundaryTriangles.size(), std::numeric_limits<uint32_t>::max());
  for (size_t i = 0; i < model.boundaryTriangles.size(); ++i) {
    const glm::uvec3 tri = model.boundaryTriangles[i];
    Face probe{{tri.x, tri.y, tri.z}, 0};
    std::sort(probe.key.begin(), probe.key.end());
    const auto it = std::lower_bound(faces.begin(), faces.end(), probe);
    if (it != faces.end() && it->key == probe.key) out[i] = it->tet;
  }
  return out;
}

CutPlane makeCutPlane(glm::vec3 normal, float relativeOffset, glm::vec3 centre, float radius) {
  const float len = glm::length(normal);
  CutPlane plane;
  plane.normal = len > 0.0f && std::isfinite(len) ? normal / len : glm::vec3(0.0f, 0.0f, 1.0f);
  plane.offset = glm::dot(plane.normal, centre) + relativeOffset * radius;
  return plane;
}

void boundingSphere(std::span<const glm::vec4> x, glm::vec3& outCentre, float& outRadius) {
  if (x.empty()) {
    outCentre = glm::vec3(0.0f);
    outRadius = 0.0f;
    return;
  }
  glm::vec3 lo(x[0]), hi(x[0]);
  for (const glm::vec4& p : x) {
    lo = glm::min(lo, glm::vec3(p));
    hi = glm::max(hi, glm::vec3(p));
  }
  outCentre = 0.5f * (lo + hi);
  outRadius = 0.5f * glm::length(hi - lo);
}

void selectTetsBehindPlane(const SimModel& model, std::span<const glm::vec4> x, const CutPlane& plane,
                           std::vector<uint32_t>& outTets) {
  outTets.clear();
  for (uint32_t t = 0; t < model.tetCount(); ++t) {
    const glm::uvec4 v = model.tets[t];
    const glm::vec3 centroid = 0.25f * (glm::vec3(x[v.x]) + glm::vec3(x[v.y]) + glm::vec3(x[v.z]) + glm::vec3(x[v.w]));
    if (glm::dot(plane.normal, centroid) <= plane.offset) outTets.push_back(t);
  }
}

std::vector<glm::ivec4> tetFaceNeighbors(const SimModel& model) {
  struct Face {
    std::array<uint32_t, 3> key;
    uint32_t tet;
    int face;
    bool operator<(const Face& o) const { return key < o.key; }
  };
  std::vector<Face> faces;
  faces.reserve(size_t(model.tetCount()) * 4);
  for (uint32_t t = 0; t < model.tetCount(); ++t)
    for (int f = 0; f < 4; ++f) {
      const glm::uvec3 c = tetFaceCorners(f);
      std::array<uint32_t, 3> key{model.tets[t][int(c.x)], model.tets[t][int(c.y)], model.tets[t][int(c.z)]};
      std::sort(key.begin(), key.end());
      faces.push_back({key, t, f});
    }
  std::sort(faces.begin(), faces.end());
  std::vector<glm::ivec4> out(model.tetCount(), glm::ivec4(-1));
  // A conforming mesh has each interior face exactly twice, next to each other after sorting.
  for (size_t i = 0; i + 1 < faces.size(); ++i)
    if (faces[i].key == faces[i + 1].key) {
      out[faces[i].tet][faces[i].face] = int(faces[i + 1].tet);
      out[faces[i + 1].tet][faces[i + 1].face] = int(faces[i].tet);
      ++i;
    }
  return out;
}

void keepExposedLayers(std::span<const glm::ivec4> neighbors, std::span<const uint32_t> kept, int layers,
                       std::vector<uint32_t>& outTets) {
  outTets.clear();
  if (layers <= 0) {
    outTets.assign(kept.begin(), kept.end());
    return;
  }
  // depth[t]: 0 = not kept, k = the kept tet is k face-steps from the kept set's surface
  // (1 = on it); unknown kept tets start at a large value and relax layer by layer.
  constexpr int kDeep = 1 << 30;
  std::vector<int> depth(neighbors.size(), 0);
  for (uint32_t t : kept)
    if (t < neighbors.size()) depth[t] = kDeep;
  std::vector<uint32_t> frontier;
  for (uint32_t t : kept) {
    if (t >= neighbors.size()) continue;
    for (int f = 0; f < 4; ++f) {
      const int n = neighbors[t][f];
      if (n < 0 || depth[size_t(n)] == 0) {
        depth[t] = 1;
        frontier.push_back(t);
        break;
      }
    }
  }
  for (int layer = 2; layer <= layers && !frontier.empty(); ++layer) {
    std::vector<uint32_t> next;
    for (uint32_t t : frontier)
      for (int f = 0; f < 4; ++f) {
        const int n = neighbors[t][f];
        if (n >= 0 && depth[size_t(n)] == kDeep) {
          depth[size_t(n)] = layer;
          next.push_back(uint32_t(n));
        }
      }
    frontier.swap(next);
  }
  for (uint32_t t : kept)
    if (t < neighbors.size() && depth[t] > 0 && depth[t] <= layers) outTets.push_back(t);
}

namespace {

constexpr glm::vec3 kCornerIds[3] = {{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};

// Appends one triangle; the normal is flipped to point away from `inside` when given.
void pushTriangle(const glm::vec3 (&p)[3], glm::vec3 values, const glm::vec3* inside, std::vector<CellVertex>& out) {
  glm::vec3 n = glm::cross(p[1] - p[0], p[2] - p[0]);
  const float len = glm::length(n);
  n = len > 0.0f ? n / len : glm::vec3(0.0f, 1.0f, 0.0f);
  if (inside != nullptr && glm::dot(n, p[0] - *inside) < 0.0f) n = -n;  // inverted tets still face out
  for (int k = 0; k < 3; ++k) out.push_back({p[k], n, kCornerIds[k], values});
}

glm::vec3 cornerValues(glm::uvec3 ids, uint32_t tet, std::span<const float> perTet, std::span<const float> perVertex) {
  if (!perTet.empty() && tet < perTet.size()) return glm::vec3(perTet[tet]);
  if (!perVertex.empty()) {
    glm::vec3 v(0.0f);
    for (int k = 0; k < 3; ++k) v[k] = ids[k] < perVertex.size() ? perVertex[ids[k]] : 0.0f;
    return v;
  }
  return glm::vec3(0.0f);
}

}  // namespace

void buildTetCells(const SimModel& model, std::span<const glm::vec4> x, std::span<const uint32_t> tets, float shrink,
                   std::span<const float> perTet, std::span<const float> perVertex, std::vector<CellVertex>& out) {
  out.clear();
  out.reserve(tets.size() * 12);
  shrink = std::clamp(shrink, 0.05f, 1.0f);
  for (uint32_t t : tets) {
    if (t >= model.tetCount()) continue;
    const glm::uvec4 v = model.tets[t];
    glm::vec3 p[4] = {glm::vec3(x[v.x]), glm::vec3(x[v.y]), glm::vec3(x[v.z]), glm::vec3(x[v.w])};
    const glm::vec3 centroid = 0.25f * (p[0] + p[1] + p[2] + p[3]);
    for (glm::vec3& q : p) q = centroid + shrink * (q - centroid);
    for (int f = 0; f < 4; ++f) {
      const glm::uvec3 c = tetFaceCorners(f);
      const glm::vec3 tri[3] = {p[c.x], p[c.y], p[c.z]};
      const glm::uvec3 ids(v[int(c.x)], v[int(c.y)], v[int(c.z)]);
      pushTriangle(tri, cornerValues(ids, t, perTet, perVertex), &centroid, out);
    }
  }
}

void buildBoundaryCells(const SimModel& model, std::span<const glm::vec4> x, std::span<const uint32_t> faceTets,
                        std::span<const float> perTet, std::span<const float> perVertex, std::vector<CellVertex>& out) {
  out.clear();
  out.reserve(model.boundaryTriangles.size() * 3);
  for (size_t i = 0; i < model.boundaryTriangles.size(); ++i) {
    const glm::uvec3 ids = model.boundaryTriangles[i];
    const glm::vec3 tri[3] = {glm::vec3(x[ids.x]), glm::vec3(x[ids.y]), glm::vec3(x[ids.z])};
    const uint32_t tet = i < faceTets.size() ? faceTets[i] : std::numeric_limits<uint32_t>::max();
    pushTriangle(tri, cornerValues(ids, tet, perTet, perVertex), nullptr, out);
  }
}

void buildEdgeLines(const SimModel& model, std::span<const glm::vec4> x, std::span<const float> perVertex,
                    std::span<const float> perEdge, std::vector<LineVertex>& out) {
  out.clear();
  const bool split = !perVertex.empty();
  out.reserve(size_t(model.edgeCount()) * (split ? 4 : 2));
  for (uint32_t e = 0; e < model.edgeCount(); ++e) {
    const glm::uvec2 ends = model.edges[e];
    const glm::vec3 a(x[ends.x]), b(x[ends.y]);
    if (split) {
      const glm::vec3 mid = 0.5f * (a + b);
      const float va = ends.x < perVertex.size() ? perVertex[ends.x] : 0.0f;
      const float vb = ends.y < perVertex.size() ? perVertex[ends.y] : 0.0f;
      out.push_back({a, va});
      out.push_back({mid, va});
      out.push_back({mid, vb});
      out.push_back({b, vb});
    } else {
      const float value = e < perEdge.size() ? perEdge[e] : 0.0f;
      out.push_back({a, value});
      out.push_back({b, value});
    }
  }
}

void edgeColorIndices(const SimModel& model, std::vector<float>& outPerEdge) {
  outPerEdge.assign(model.edgeCount(), 0.0f);
  for (uint32_t c = 0; c < model.edgeColors.count(); ++c)
    for (uint32_t e = model.edgeColors.begin(c); e < model.edgeColors.end(c) && e < outPerEdge.size(); ++e)
      outPerEdge[e] = float(c);
}

void pinnedPositions(std::span<const glm::vec4> x, std::vector<glm::vec3>& out) {
  out.clear();
  for (const glm::vec4& p : x)
    if (p.w == 0.0f) out.emplace_back(p);
}

SurfaceMesh makeBoxMesh(glm::vec3 center, glm::vec3 halfExtents, const glm::mat3& rotation) {
  SurfaceMesh mesh;
  // Four vertices per face (not shared) so smooth vertex normals come out flat per face.
  for (int axis = 0; axis < 3; ++axis)
    for (float side : {-1.0f, 1.0f}) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      const auto base = static_cast<unsigned>(mesh.positions.size());
      const float du[4] = {-1.0f, 1.0f, 1.0f, -1.0f}, dv[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
      for (int k = 0; k < 4; ++k) {
        glm::vec3 local(0.0f);
        local[axis] = side;
        local[u] = du[k];
        local[v] = dv[k];
        mesh.positions.push_back(center + rotation * (local * halfExtents));
      }
      // (u, v, axis) is right-handed, so u -> v is counter-clockwise seen from +axis.
      if (side > 0.0f) {
        mesh.triangles.push_back({base, base + 1, base + 2});
        mesh.triangles.push_back({base, base + 2, base + 3});
      } else {
        mesh.triangles.push_back({base, base + 2, base + 1});
        mesh.triangles.push_back({base, base + 3, base + 2});
      }
    }
  return mesh;
}

SurfaceMesh makeCapsuleMesh(glm::vec3 a, glm::vec3 b, float radius, int rings, int segments) {
  rings = std::max(rings / 2, 2);  // per hemisphere
  segments = std::max(segments, 3);
  constexpr float kPi = 3.14159265358979f;
  const glm::vec3 axisVec = b - a;
  const float length = glm::length(axisVec);
  const glm::vec3 axis = length > 0.0f ? axisVec / length : glm::vec3(0.0f, 1.0f, 0.0f);
  // A frame (t2, axis, t1) right-handed like (x, y, z), so the sphere's winding carries over.
  const glm::vec3 helper = std::abs(axis.y) < 0.9f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 t2 = glm::normalize(glm::cross(axis, helper));
  const glm::vec3 t1 = glm::cross(t2, axis);
  const glm::vec3 centre = 0.5f * (a + b);
  // Profile from the top pole to the bottom pole: (polar angle, axial shift); the
  // equator appears twice (top and bottom cap), the band between is the cylinder.
  std::vector<std::pair<float, float>> profile;
  for (int r = 1; r <= rings; ++r) profile.push_back({0.5f * kPi * float(r) / float(rings), 0.5f * length});
  for (int r = 0; r < rings; ++r) profile.push_back({0.5f * kPi + 0.5f * kPi * float(r) / float(rings), -0.5f * length});
  SurfaceMesh mesh;
  auto place = [&](float x, float y, float z) { return centre + x * t2 + y * axis + z * t1; };
  mesh.positions.push_back(place(0.0f, 0.5f * length + radius, 0.0f));
  for (const auto& [theta, shift] : profile)
    for (int s = 0; s < segments; ++s) {
      const float phi = 2.0f * kPi * float(s) / float(segments);
      mesh.positions.push_back(place(radius * std::sin(theta) * std::sin(phi), radius * std::cos(theta) + shift,
                                     radius * std::sin(theta) * std::cos(phi)));
    }
  mesh.positions.push_back(place(0.0f, -0.5f * length - radius, 0.0f));
  const auto south = static_cast<unsigned>(mesh.positions.size() - 1);
  const int ringCount = int(profile.size());
  auto ring = [segments](int r, int s) { return static_cast<unsigned>(1 + r * segments + (s % segments)); };
  // Same winding as makeUvSphere (x = sin phi, z = cos phi in the (t2, axis, t1) frame).
  for (int s = 0; s < segments; ++s) mesh.triangles.push_back({0u, ring(0, s), ring(0, s + 1)});
  for (int r = 0; r + 1 < ringCount; ++r)
    for (int s = 0; s < segments; ++s) {
      const unsigned p = ring(r, s), q = ring(r, s + 1), c = ring(r + 1, s), d = ring(r + 1, s + 1);
      mesh.triangles.push_back({p, c, d});
      mesh.triangles.push_back({p, d, q});
    }
  for (int s = 0; s < segments; ++s) mesh.triangles.push_back({south, ring(ringCount - 1, s + 1), ring(ringCount - 1, s)});
  return mesh;
}

SurfaceMesh makeTorusMesh(glm::vec3 center, float majorRadius, float minorRadius, const glm::mat3& rotation,
                          int rings, int segments) {
  rings = std::max(rings, 3);        // around the axis (u)
  segments = std::max(segments, 3);  // around the tube (v)
  constexpr float kPi = 3.14159265358979f;
  SurfaceMesh mesh;
  for (int i = 0; i < rings; ++i)
    for (int j = 0; j < segments; ++j) {
      const float u = 2.0f * kPi * float(i) / float(rings), v = 2.0f * kPi * float(j) / float(segments);
      const float rho = majorRadius + minorRadius * std::cos(v);
      mesh.positions.push_back(center +
                               rotation * glm::vec3(rho * std::cos(u), minorRadius * std::sin(v), rho * std::sin(u)));
    }
  auto at = [rings, segments](int i, int j) { return static_cast<unsigned>((i % rings) * segments + (j % segments)); };
  // dp/dv x dp/du points out of the tube, so (p, p + dv, p + du) winds outwards.
  for (int i = 0; i < rings; ++i)
    for (int j = 0; j < segments; ++j) {
      mesh.triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j)});
      mesh.triangles.push_back({at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)});
    }
  return mesh;
}

void appendMesh(const SurfaceMesh& mesh, SurfaceMesh& out) {
  const auto base = static_cast<unsigned>(out.positions.size());
  out.positions.insert(out.positions.end(), mesh.positions.begin(), mesh.positions.end());
  for (const glm::uvec3& t : mesh.triangles) out.triangles.push_back(t + glm::uvec3(base));
}

// A square of side 2 halfSize on the plane, centred at `point`, both windings so
// it shows from either side (an infinite plane drawn as far as a scene reaches).
SurfaceMesh makePlaneMesh(glm::vec3 point, glm::vec3 normal, float halfSize) {
  const float len = glm::length(normal);
  const glm::vec3 n = len > 0.0f ? normal / len : glm::vec3(0.0f, 1.0f, 0.0f);
  const glm::vec3 helper = std::fabs(n.y) < 0.9f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 u = glm::normalize(glm::cross(helper, n)) * halfSize;
  const glm::vec3 v = glm::cross(n, u);
  SurfaceMesh mesh;
  mesh.positions = {point - u - v, point + u - v, point + u + v, point - u + v};
  mesh.triangles = {{0u, 1u, 2u}, {0u, 2u, 3u}, {0u, 2u, 1u}, {0u, 3u, 2u}};
  return mesh;
}

SurfaceMesh makeColliderMeshes(const Colliders& colliders) {
  SurfaceMesh out;
  for (const PlaneCollider& p : colliders.planes) appendMesh(makePlaneMesh(p.point, p.normal, kPlaneDrawHalfSize), out);
  for (const SphereCollider& s : colliders.spheres) {
    SurfaceMesh sphere = makeUvSphere(s.radius, 24, 48);
    for (glm::vec3& p : sphere.positions) p += s.center;
    appendMesh(sphere, out);
  }
  for (const BoxCollider& b : colliders.boxes) appendMesh(makeBoxMesh(b.center, b.halfExtents, b.rotation), out);
  for (const CapsuleCollider& c : colliders.capsules) appendMesh(makeCapsuleMesh(c.a, c.b, c.radius, 24, 48), out);
  for (const TorusCollider& t : colliders.tori)
    appendMesh(makeTorusMesh(t.center, t.majorRadius, t.minorRadius, t.rotation, 64, 24), out);
  for (const MeshCollider& m : colliders.meshes) {
    if (!m.surface) continue;
    SurfaceMesh placed = *m.surface;
    for (glm::vec3& p : placed.positions) p = m.center + m.rotation * (m.size * p);
    appendMesh(placed, out);
  }
  return out;
}

}  // namespace tetlab
