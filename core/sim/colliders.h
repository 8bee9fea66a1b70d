#pragma once
// Analytic colliders. Plain structs: the UI and scene files edit these directly.
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

namespace tetlab {

struct GroundPlane {
  bool enabled = true;
  float height = 0.0f;    // plane y = height [m]
  float friction = 0.5f;  // Coulomb coefficient mu [-]
};

// An infinite plane: the half-space on the normal's side of `point` is free,
// the other side solid (a ramp, a wall, a tilted floor).
struct PlaneCollider {
  glm::vec3 point{0.0f};                // any point on the plane [m]
  glm::vec3 normal{0.0f, 1.0f, 0.0f};   // towards the free side; normalised when packed
  float friction = 0.5f;                // Coulomb coefficient mu [-]
};

struct SphereCollider {
  glm::vec3 center{0.0f};
  float radius = 0.25f;   // [m]
  float friction = 0.5f;
};

struct BoxCollider {
  glm::vec3 center{0.0f};
  glm::vec3 halfExtents{0.25f};  // [m]
  glm::mat3 rotation{1.0f};      // box-to-world rotation
  float friction = 0.5f;
};

struct CapsuleCollider {
  glm::vec3 a{0.0f}, b{0.0f, 0.5f, 0.0f};  // segment end points [m]
  float radius = 0.1f;                     // [m]
  float friction = 0.5f;
};

struct Colliders {
  GroundPlane ground;
  std::vector<PlaneCollider> planes;
  std::vector<SphereCollider> spheres;
  std::vector<BoxCollider> boxes;
  std::vector<CapsuleCollider> capsules;
};

}  // namespace tetlab
