#pragma once
// Rotations as scene files write them: angles in degrees about x, then y,
// then z (R = Rz Ry Rx), right-handed, applied about the origin.
#include <cmath>

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

namespace tetlab {

inline glm::mat3 rotationFromDegrees(glm::vec3 degrees) {
  const glm::vec3 r = degrees * (3.14159265358979323846f / 180.0f);
  const float cx = std::cos(r.x), sx = std::sin(r.x);
  const float cy = std::cos(r.y), sy = std::sin(r.y);
  const float cz = std::cos(r.z), sz = std::sin(r.z);
  // glm is column-major: m[c] is column c.
  const glm::mat3 rx(1, 0, 0, 0, cx, sx, 0, -sx, cx);
  const glm::mat3 ry(cy, 0, -sy, 0, 1, 0, sy, 0, cy);
  const glm::mat3 rz(cz, sz, 0, -sz, cz, 0, 0, 0, 1);
  return rz * ry * rx;
}

}  // namespace tetlab
