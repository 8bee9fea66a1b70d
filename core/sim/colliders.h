#pragma once
// Analytic colliders. Plain structs: the UI and scene files edit these directly.
#include <memory>
#include <string>
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

// A ring (doughnut) around its local y axis: a body can hang on it, slide
// around it or fall through its hole.
struct TorusCollider {
  glm::vec3 center{0.0f};
  float majorRadius = 0.2f;   // centre of the tube to the axis [m]
  float minorRadius = 0.05f;  // tube radius [m]
  glm::mat3 rotation{1.0f};   // torus-to-world rotation (the axis is its local y)
  float friction = 0.5f;
};

struct SdfGrid;
struct SurfaceMesh;

// A closed mesh as a collider: its signed distance field sampled once on a
// grid (core/sim/sdf_grid.h) in the mesh's unit frame (the OBJ fitted into a
// unit cube centred at the origin), then placed by centre, rotation and size
// live without resampling (phi scales with the size). `grid` and `surface`
// are filled when the scene is built (loadMeshColliders, scene_build.h) or
// the collider is added in the window; a collider without a grid is inert.
struct MeshCollider {
  std::string mesh;            // the OBJ as the scene file names it
  glm::vec3 center{0.0f};      // where the mesh's box centre sits [m]
  float size = 0.3f;           // side of the cube the mesh is fitted into [m]
  glm::mat3 rotation{1.0f};    // mesh-to-world rotation
  int resolution = 40;         // grid nodes along the longest side (kSdfDefaultResolution)
  float friction = 0.5f;
  std::shared_ptr<const SdfGrid> grid;        // in the unit frame
  std::shared_ptr<const SurfaceMesh> surface;  // the loaded surface in the unit frame, for drawing and picking
};

struct Colliders {
  GroundPlane ground;
  std::vector<PlaneCollider> planes;
  std::vector<SphereCollider> spheres;
  std::vector<BoxCollider> boxes;
  std::vector<CapsuleCollider> capsules;
  std::vector<TorusCollider> tori;
  std::vector<MeshCollider> meshes;
};

}  // namespace tetlab
