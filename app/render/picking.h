#pragma once
// Mouse picking as pure functions: a ray from the cursor through the camera,
// tested against the embedded render surface at its current (deformed)
// positions, and the hit turned into what the solvers need:
//
//   cursor --cameraRay--> Ray --pickSurface--> SurfaceHit (triangle, point, barycentrics)
//                                                 |
//                       embeddedAttachment -------+--> weights over tet vertices (sum 1) -> State::mouse
//                       nearestVertex      -------'--> one sim vertex (shift-click pin/unpin)
//
// pickSurface is a plain scan over the triangles, no acceleration structure:
// the surface deforms every frame, so any BVH or grid would be rebuilt per
// pick, and a build touches every triangle at a higher constant than the scan
// (measured: tests/app/picking_test.cpp prints the time on the 10k-triangle bunny).
// A drag does not re-pick: the target follows the cursor on the plane
// through the grabbed point facing the camera (dragPlaneTarget).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "app/render/camera.h"
#include "core/mesh/embedding.h"

namespace tetlab {

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  // unit
};

// The ray through the cursor. cursor and viewportSize in the same pixel units
// (window coordinates, y down), the viewport being the whole rendered view;
// honours the camera's lensShift exactly as projectionMatrix does.
Ray cameraRay(const OrbitCamera& camera, glm::vec2 cursor, glm::vec2 viewportSize);

// Where a world point lands on screen (window pixels, y down); nullopt behind the eye.
std::optional<glm::vec2> projectToScreen(const OrbitCamera& camera, glm::vec3 point, glm::vec2 viewportSize);

struct TriangleHit {
  float t = 0.0f;                     // ray parameter [m]: point = origin + t direction
  glm::vec3 barycentric{0.0f};        // weights of the triangle's corners (a, b, c), sum 1
};

// Moller & Trumbore 1997 ("Fast, Minimum Storage Ray/Triangle Intersection"),
// both faces, t > tMin. nullopt for a miss or a degenerate triangle.
std::optional<TriangleHit> intersectRayTriangle(const Ray& ray, glm::vec3 a, glm::vec3 b, glm::vec3 c,
                                                float tMin = 0.0f);

struct SurfaceHit {
  uint32_t triangle = 0;              // index into the triangle list
  float t = 0.0f;                     // [m] along the ray
  glm::vec3 point{0.0f};              // world position of the hit
  glm::vec3 barycentric{0.0f};        // over the triangle's corners, sum 1
};

// Nearest hit of the ray with a triangle surface (both faces); nullopt on a miss.
std::optional<SurfaceHit> pickSurface(const Ray& ray, std::span<const glm::vec3> positions,
                                      std::span<const glm::uvec3> triangles);

// Weights over simulation vertices for a hit on an embedded render surface:
// each render corner's embedding (4 tet vertices, weights summing to 1)
// blended by the hit's barycentrics, equal vertices merged. The weights
// reproduce the hit point exactly: sum w_j x_j = point (for the positions the
// embedding was applied to). Negative weights (render vertices just outside
// the tet mesh are extrapolated) are clamped to 0 and the rest renormalised
// when clampNegative, so a mouse spring never pushes a vertex away; the
// target then sits a little inside the surface, which the solvers do not see.
struct AttachmentWeights {
  std::vector<uint32_t> vertices;  // simulation vertex ids, unique
  std::vector<float> weights;      // same length, sum 1
};
AttachmentWeights embeddedAttachment(const SurfaceEmbedding& embedding, const glm::uvec3& triangle,
                                     glm::vec3 barycentric, bool clampNegative = true);

// Simulation vertex nearest to point (xyz of x); nullopt when x is empty.
std::optional<uint32_t> nearestVertex(std::span<const glm::vec4> x, glm::vec3 point);

// Lines have no area to hit: the candidate vertex nearest to the ray in angle
// as seen from its origin, within maxAngle [rad] (strands). Returns the vertex
// and its distance along the ray.
struct PointHit {
  uint32_t vertex = 0;
  float t = 0.0f;
};
std::optional<PointHit> pickNearPoint(const Ray& ray, std::span<const glm::vec4> x,
                                      std::span<const uint32_t> candidates, float maxAngle);
// The same among a candidate list (e.g. an AttachmentWeights' vertices); nullopt when empty.
std::optional<uint32_t> nearestVertexAmong(std::span<const glm::vec4> x, std::span<const uint32_t> candidates,
                                           glm::vec3 point);

// Intersection of the ray with the plane through planePoint with normal
// planeNormal; nullopt when parallel or behind the origin.
std::optional<glm::vec3> intersectRayPlane(const Ray& ray, glm::vec3 planePoint, glm::vec3 planeNormal);

// Drag target: where the cursor's ray meets the plane through the grabbed
// point facing the camera (normal = camera forward), so the grabbed point
// stays under the cursor at its depth. Falls back to the grabbed point when
// the plane is edge-on.
glm::vec3 dragPlaneTarget(const OrbitCamera& camera, glm::vec2 cursor, glm::vec2 viewportSize, glm::vec3 grabbedPoint);

}  // namespace tetlab
