#include "core/cpu/position_based_params.h"

#include <cmath>

#include <glm/geometric.hpp>

namespace tetlab {

glm::mat3 strainMaterialFrame(glm::vec3 axis) {
  const float len = glm::length(axis);
  if (!(len > 0.0f) || !std::isfinite(len) || strainFrameIsIdentity(axis)) return glm::mat3(1.0f);
  const glm::vec3 x = axis / len;
  // Gram-Schmidt from the rest y (or z, when x is within ~25 degrees of y).
  const glm::vec3 up = std::fabs(x.y) < 0.9f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(0.0f, 0.0f, 1.0f);
  const glm::vec3 y = glm::normalize(up - glm::dot(up, x) * x);
  const glm::vec3 z = glm::cross(x, y);
  return glm::mat3(x, y, z);
}

}  // namespace tetlab
