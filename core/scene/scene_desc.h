#pragma once
// A scene as the user describes it, before anything is built: where each
// body's geometry comes from (an OBJ or a generator), how it is placed, its
// material, tet options and pins, plus every solver setting, the colliders and
// the camera. This is exactly what a scene file holds (scene_json.h), so a
// file, the app's "save scene" and the presets in assets/scenes/ are one
// format; scene_build.h turns it into a SimModel with render surfaces.
//
//   SceneDesc --buildScene--> BuiltScene { Scene (model, settings, pins), render surfaces }
//
// Plain structs with documented defaults and units (DESIGN.md anchor 6).
#include <cstdint>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "core/mesh/tet_target.h"
#include "core/mesh/tetrahedralize.h"
#include "core/scene/compare_spec.h"
#include "core/model/generators.h"
#include "core/model/material.h"
#include "core/sim/anchor_springs.h"
#include "core/sim/pin_animation.h"
#include "core/sim/pin_followers.h"
#include "core/sim/solver_settings.h"

namespace tetlab {

enum class BodySource : uint8_t { Mesh, Box, Sphere, Torus, Cloth, Hair };

// What a Mesh body becomes: a tet-meshed solid, a cloth sheet (the surface's
// own triangles) or strands (the file's 'l' polylines). Auto: a file of
// polylines and no faces is strands, a closed surface a solid, an open one
// (boundary edges) a cloth.
enum class BodyKindChoice : uint8_t { Auto, Solid, Cloth, Strand };

// A box region [min, max] (inclusive) in the coordinates it is used in.
struct Region {
  glm::vec3 min{0.0f};              // [m]
  glm::vec3 max{0.0f};              // [m]
  bool contains(glm::vec3 p) const {
    return p.x >= min.x && p.y >= min.y && p.z >= min.z && p.x <= max.x && p.y <= max.y && p.z <= max.z;
  }
};

struct BoxGenerator {
  glm::vec3 min{-0.1f};             // [m] lowest corner before the transform
  glm::vec3 size{0.2f};             // [m]
  glm::uvec3 cells{4u};             // lattice cells per axis, >= 1
  CubeSplit split = CubeSplit::SixSymmetric;
  // Optional: keep only the lattice cells whose centre lies in one of these
  // regions (generator coordinates), e.g. a thin chain column above a block.
  // Empty: the whole box. The kept cells must form one connected piece.
  std::vector<Region> keep;
};

struct SphereGenerator {
  glm::vec3 center{0.0f};           // [m]
  float radius = 0.1f;              // [m]
  uint32_t cellsAcross = 4;         // lattice cells across the diameter, >= 1
};

struct TorusGenerator {
  glm::vec3 center{0.0f};           // [m], ring around the y axis
  float majorRadius = 0.15f;        // [m] centre line radius
  float minorRadius = 0.05f;        // [m] tube radius, < majorRadius
  uint32_t ringSegments = 24;       // cells around the ring, >= 3
  uint32_t cellsAcross = 4;         // cells across the tube, >= 1
};

// A rectangular cloth patch (makeClothPatch) in the plane y = min.y before the
// transform; rotate it with the body transform to hang it.
struct ClothGenerator {
  glm::vec3 min{-0.25f, 0.0f, -0.25f};  // [m] corner
  glm::vec2 size{0.5f, 0.5f};           // [m] along x and z
  glm::uvec2 cells{16u, 16u};           // cells along x and z, >= 1
};

// Hair (a strand body): `strands` strands of `points` points grown along the
// normals of a sphere (the head) from roots spread evenly over the cap within
// capDegrees of +y; each root and the point after it are pinned (a clamped
// root: the strand leaves the head along the normal). jitter turns each segment by a random
// amount (a fraction of its length) from the one before, seeded by the scene's
// seed. The strands' rest state is straight (cloth_bending.h), so jitter sets
// the start shape, not a curl that stays.
struct HairGenerator {
  glm::vec3 center{0.0f, 1.0f, 0.0f};  // [m]
  float radius = 0.1f;                 // [m]
  uint32_t strands = 48;
  uint32_t points = 10;                // per strand, >= 2
  float length = 0.2f;                 // [m]
  float capDegrees = 60.0f;            // [deg]
  float jitter = 0.0f;                 // [-]
  float curlRadius = 0.0f;             // helix radius of a curl [m] (0: none)
  float curlTurn = 0.05f;              // path length of one turn of the curl [m]
  ColliderRef rootsFollow;             // the clamped roots ride on this collider (the head)
};

// The tetrahedralization options a user may set for an OBJ body (TetOptions subset).
struct TetSpec {
  int targetTets = kDefaultTargetTets;  // approximate tet count [-]
  bool quality = true;              // TetGen quality refinement (-q)
  double radiusEdgeRatio = 1.414;   // TetGen -q bound, >= 1 [-]
  TetMethod method = TetMethod::Auto;
  int voxelResolution = 0;          // fallback lattice cells along the longest axis; 0 = from targetTets
};

// Applied in this order to the rest positions: scale, rotate (x, then y, then z
// axis, about the origin), translate; then the seeded random yaw and offset;
// then, if set, a vertical shift putting the lowest vertex at liftTo.
struct BodyTransform {
  glm::vec3 translate{0.0f};        // [m]
  glm::vec3 rotateDegrees{0.0f};    // [deg] about x, y, z
  float scale = 1.0f;               // uniform [-], > 0
  glm::vec3 randomOffset{0.0f};     // [m] uniform in [-r, r] per axis, drawn from the scene seed
  float randomYawDegrees = 0.0f;    // [deg] rotation about the vertical axis through the body's box
                                    // centre, uniform in [-a, a], drawn from the scene seed
  bool lift = false;                // move the body so its lowest point is at y = liftTo
  float liftTo = 0.0f;              // [m]
};

// Every vertex whose rest position (after the transform) lies in the region is
// pinned. With `follow` set, the pins ride on that collider: wherever it is
// moved (dragged, edited, animated), they keep their place in its frame
// (core/sim/pin_followers.h).
//
// With stiffness > 0 the region is a compliant attachment instead of hard
// pins: its vertices keep their mass and a zero-length anchor spring of that
// stiffness (the whole region's, shared by its vertices) pulls each toward its
// place (or its keyed pose), breaking past breakForce (core/sim/anchor_springs.h).
struct PinRegion : Region {
  ColliderRef follow;
  PinAnimation animation;  // keyframed motion and release (core/sim/pin_animation.h); none: pinned in place
  float stiffness = 0.0f;   // [N/m] 0: hard pins; > 0: a compliant attachment (not with `follow`)
  float breakForce = 0.0f;  // compliant only: breaks once its pull exceeds this [N]; 0: never
  PinRegion() = default;
  PinRegion(Region r, ColliderRef f = {}) : Region(r), follow(f) {}  // NOLINT: a plain region pins in place
  PinRegion(glm::vec3 lo, glm::vec3 hi) : Region{lo, hi} {}
};

// Tets whose rest centroid (after the transform) lies in the region get this
// density instead of the body's (a heavy weight or plate made of the same
// material); the lumped masses follow.
struct DensityRegion {
  Region region;
  float density = 1000.0f;          // [kg/m^3]
};

struct BodySpec {
  std::string name;                 // shown in the UI; default "body N"
  BodySource source = BodySource::Box;
  std::string meshPath;             // Mesh: OBJ path as written (relative: to the scene file, then assets/)
  float fitSize = 0.3f;             // Mesh: scaled to fit a cube of this side, centred at the origin [m]
  TetSpec tets;                     // Mesh only
  BoxGenerator box;
  SphereGenerator sphere;
  TorusGenerator torus;
  ClothGenerator cloth;
  HairGenerator hair;
  BodyKindChoice kind = BodyKindChoice::Auto;  // Mesh only
  BodyTransform transform;
  Material material;
  std::vector<PinRegion> pins;
  std::vector<DensityRegion> densityRegions;
  std::vector<AnchorSpringSpec> springs;  // patches hung from world points, breakable (core/sim/anchor_springs.h)
  glm::vec3 initialVelocity{0.0f};  // [m/s]
};

struct CameraSpec {
  bool set = false;                 // false: the app fits the view to the scene
  glm::vec3 target{0.0f};           // [m]
  float distance = 3.0f;            // [m]
  float yawDegrees = 34.0f;         // [deg] around +y, 0 = eye on +z
  float pitchDegrees = 20.0f;       // [deg] elevation
};

// The mouse drag spring (State::mouse). 0 = automatic: the force cap is
// kAutoMouseWeightMultiple times the scene's weight, and the stiffness reaches
// the cap at kAutoMouseCapStretch of stretch.
struct MouseSpec {
  float stiffness = 0.0f;           // [N/m]
  float maxForce = 0.0f;            // [N]
  // The drag lets go once the force it pulls with exceeds this (and a hook left
  // with H breaks at it: core/sim/anchor_spring_hook.h) [N]; 0: never.
  float breakForce = 0.0f;
};
inline constexpr float kAutoMouseWeightMultiple = 2.0f;
inline constexpr float kAutoMouseCapStretch = 0.05f;  // [m]

struct SceneDesc {
  std::string name = "untitled";
  std::string description;          // one or two sentences for the UI
  uint64_t seed = 1;                // drives every random choice (random offsets/yaws), so a scene reproduces
  std::vector<BodySpec> bodies;
  SolverSettings settings;          // solver, step settings, each solver's params, colliders
  // Pins beyond the bodies' pin regions (the user's shift-clicks), by model vertex id,
  // and region pins the user released.
  std::vector<uint32_t> pinnedVertices;
  std::vector<uint32_t> unpinnedVertices;
  CameraSpec camera;
  MouseSpec mouse;
  CompareSpec compare;              // solvers side by side (compare_spec.h); empty: one solver
};

}  // namespace tetlab
