// Ray casting for mouse picking; see picking.h for the pipeline and why the
// surface test is a plain scan.
#include "app/render/picking.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>

namespace tetlab {

namespace {

glm::mat4 viewProjection(const OrbitCamera& camera, glm::vec2 viewportSize) {
  const float aspect = viewportSize.y > 0.0f ? viewportSize.x / viewportSize.y : 1.0f;
  return camera.projectionMatrix(aspect) * camera.viewMatrix();
}

}  // namespace

Ray cameraRay(const OrbitCamera& camera, glm::vec2 cursor, glm::vec2 viewportSize) {
  const glm::vec2 size = glm::max(viewportSize, glm::vec2(1.0f));
  // Window pixels (y down, continuous: pixel centres at +0.5) -> NDC (y up).
  const glm::vec2 ndc(2.0f * cursor.x / size.x - 1.0f, 1.0f - 2.0f * cursor.y / size.y);
  const glm::mat4 inverse = glm::inverse(viewProjection(camera, size));
  // Unproject a point on the far plane; the perspective ray starts at the eye.
  const glm::vec4 far = inverse * glm::vec4(ndc, 1.0f, 1.0f);
  const glm::vec4 near = inverse * glm::vec4(ndc, -1.0f, 1.0f);
  Ray ray;
  ray.origin = glm::vec3(near) / near.w;
  ray.direction = glm::normalize(glm::vec3(far) / far.w - ray.origin);
  return ray;
}

std::optional<glm::vec2> projectToScreen(const OrbitCamera& camera, glm::vec3 point, glm::vec2 viewportSize) {
  const glm::vec4 clip = viewProjection(camera, viewportSize) * glm::vec4(point, 1.0f);
  if (!(clip.w > 0.0f)) return std::nullopt;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return glm::vec2((ndc.x + 1.0f) * 0.5f * viewportSize.x, (1.0f - ndc.y) * 0.5f * viewportSize.y);
}

std::optional<TriangleHit> intersectRayTriangle(const Ray& ray, glm::vec3 a, glm::vec3 b, glm::vec3 c, float tMin) {
  // Moller & Trumbore 1997: solve origin + t d = (1 - u - v) a + u b + v c by Cramer's rule.
  const glm::vec3 e1 = b - a, e2 = c - a;
  const glm::vec3 p = glm::cross(ray.direction, e2);
  const float det = glm::dot(e1, p);
  // Relative test: det is |d| |e1| |e2| sin(...) scaled, so compare against the edges' own scale.
  const float scale = glm::length(e1) * glm::length(e2);
  if (!(std::abs(det) > 1e-7f * scale)) return std::nullopt;
  const float invDet = 1.0f / det;
  const glm::vec3 s = ray.origin - a;
  const float u = glm::dot(s, p) * invDet;
  if (u < 0.0f || u > 1.0f) return std::nullopt;
  const glm::vec3 q = glm::cross(s, e1);
  const float v = glm::dot(ray.direction, q) * invDet;
  if (v < 0.0f || u + v > 1.0f) return std::nullopt;
  const float t = glm::dot(e2, q) * invDet;
  if (!(t > tMin)) return std::nullopt;
  return TriangleHit{t, glm::vec3(1.0f - u - v, u, v)};
}

std::optional<SurfaceHit> pickSurface(const Ray& ray, std::span<const glm::vec3> positions,
                                      std::span<const glm::uvec3> triangles) {
  std::optional<SurfaceHit> best;
  const size_t n = positions.size();
  for (size_t i = 0; i < triangles.size(); ++i) {
    const glm::uvec3 tri = triangles[i];
    if (tri.x >= n || tri.y >= n || tri.z >= n) continue;
    const std::optional<TriangleHit> hit = intersectRayTriangle(ray, positions[tri.x], positions[tri.y], positions[tri.z]);
    if (!hit || (best && hit->t >= best->t)) continue;
    best = SurfaceHit{uint32_t(i), hit->t, ray.origin + hit->t * ray.direction, hit->barycentric};
  }
  return best;
}

AttachmentWeights embeddedAttachment(const SurfaceEmbedding& embedding, const glm::uvec3& triangle,
                                     glm::vec3 barycentric, bool clampNegative) {
  AttachmentWeights out;
  for (int corner = 0; corner < 3; ++corner) {
    const uint32_t renderVertex = triangle[corner];
    if (renderVertex >= embedding.vertices.size()) continue;
    for (int k = 0; k < 4; ++k) {
      // x_render = sum_k w_k x[v_k] (embedding.h), blended by the hit's barycentrics.
      const uint32_t id = embedding.vertices[renderVertex][k];
      const float w = barycentric[corner] * embedding.weights[renderVertex][k];
      auto it = std::find(out.vertices.begin(), out.vertices.end(), id);
      if (it == out.vertices.end()) {
        out.vertices.push_back(id);
        out.weights.push_back(w);
      } else {
        out.weights[size_t(it - out.vertices.begin())] += w;
      }
    }
  }
  if (clampNegative)
    for (float& w : out.weights) w = std::max(w, 0.0f);
  // Drop vertices with no pull (zero weights from corners the hit does not touch).
  size_t kept = 0;
  for (size_t i = 0; i < out.vertices.size(); ++i)
    if (out.weights[i] != 0.0f) {
      out.vertices[kept] = out.vertices[i];
      out.weights[kept] = out.weights[i];
      ++kept;
    }
  out.vertices.resize(kept);
  out.weights.resize(kept);
  float sum = 0.0f;
  for (float w : out.weights) sum += w;
  if (sum > 0.0f)
    for (float& w : out.weights) w /= sum;
  return out;
}

std::optional<uint32_t> nearestVertex(std::span<const glm::vec4> x, glm::vec3 point) {
  std::optional<uint32_t> best;
  float bestD2 = std::numeric_limits<float>::infinity();
  for (size_t i = 0; i < x.size(); ++i) {
    const glm::vec3 d = glm::vec3(x[i]) - point;
    const float d2 = glm::dot(d, d);
    if (d2 < bestD2) bestD2 = d2, best = uint32_t(i);
  }
  return best;
}

std::optional<uint32_t> nearestVertexAmong(std::span<const glm::vec4> x, std::span<const uint32_t> candidates,
                                           glm::vec3 point) {
  std::optional<uint32_t> best;
  float bestD2 = std::numeric_limits<float>::infinity();
  for (uint32_t id : candidates) {
    if (id >= x.size()) continue;
    const glm::vec3 d = glm::vec3(x[id]) - point;
    const float d2 = glm::dot(d, d);
    if (d2 < bestD2) bestD2 = d2, best = id;
  }
  return best;
}

std::optional<glm::vec3> intersectRayPlane(const Ray& ray, glm::vec3 planePoint, glm::vec3 planeNormal) {
  const float denom = glm::dot(ray.direction, planeNormal);
  if (!(std::abs(denom) > 1e-6f * glm::length(planeNormal))) return std::nullopt;
  const float t = glm::dot(planePoint - ray.origin, planeNormal) / denom;
  if (!(t >= 0.0f)) return std::nullopt;
  return ray.origin + t * ray.direction;
}

glm::vec3 dragPlaneTarget(const OrbitCamera& camera, glm::vec2 cursor, glm::vec2 viewportSize, glm::vec3 grabbedPoint) {
  const Ray ray = cameraRay(camera, cursor, viewportSize);
  return intersectRayPlane(ray, grabbedPoint, camera.forward()).value_or(grabbedPoint);
}

std::optional<PointHit> pickNearPoint(const Ray& ray, std::span<const glm::vec4> x,
                                      std::span<const uint32_t> candidates, float maxAngle) {
  std::optional<PointHit> best;
  float bestAngle = maxAngle;
  for (uint32_t v : candidates) {
    if (v >= x.size()) continue;
    const glm::vec3 d = glm::vec3(x[v]) - ray.origin;
    const float t = glm::dot(d, ray.direction);
    if (!(t > 0.0f)) continue;
    const float angle = std::atan2(glm::length(d - t * ray.direction), t);
    if (angle < bestAngle) {
      bestAngle = angle;
      best = PointHit{v, t};
    }
  }
  return best;
}

}  // namespace tetlab
