#pragma once
// Procedural tet meshes for tests and scenes. All are built from one
// structured lattice of cubes, each split into tets that conform across faces,
// then mapped (identity for a box, cube->ball for a sphere, a swept disc for a
// torus). Every tet is positively oriented (TetMesh contract).
//
//   6-tet (Kuhn) split: every cube cut along its main diagonal (0,0,0)-(1,1,1);
//     translation-invariant, so it also conforms across a periodic seam (torus).
//   5-tet split: one central tet plus four corners; neighbouring cubes must be
//     mirrored (checkerboard parity) for the face diagonals to match.
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

enum class CubeSplit : uint8_t {
  Five,          // 5 tets per cube, checkerboard parity
  Six,           // 6 tets per cube (Kuhn), every cube cut along the same diagonal
  SixSymmetric,  // Kuhn, mirrored about the box's mid-plane on every axis with an even cell count:
                 // the mesh then has the box's mirror symmetries, so e.g. a beam loaded along y
                 // does not also bend along z (the plain Kuhn lattice couples them)
};

// Axis-aligned box [minCorner, minCorner + size] of cells.x * cells.y * cells.z
// cubes (cells >= 1 each). (cells+1)^3 vertices, 5 or 6 tets per cell.
// Vertex (i, j, k) has index i + (cells.x+1) * (j + (cells.y+1) * k).
TetMesh makeBoxTetMesh(glm::vec3 minCorner, glm::vec3 size, glm::uvec3 cells, CubeSplit split = CubeSplit::Six);

// Ball of `radius` around `center`: a cube lattice of cellsAcross^3 cells
// (cellsAcross >= 1) mapped radially onto the ball (each point p of the cube
// [-1,1]^3 goes to p * max|p_i| / |p|, so cube shells become spheres).
TetMesh makeSphereTetMesh(glm::vec3 center, float radius, uint32_t cellsAcross);

// Torus around the y axis through `center`: a tube of radius minorRadius whose
// centre line is a circle of majorRadius (> minorRadius > 0). The tube cross
// section is a cellsAcross^2 square lattice mapped to a disc; ringSegments
// (>= 3) cells go around the ring.
TetMesh makeTorusTetMesh(glm::vec3 center, float majorRadius, float minorRadius, uint32_t ringSegments,
                         uint32_t cellsAcross);

// Rectangular cloth patch in the plane y = minCorner.y: (cells.x + 1) x
// (cells.y + 1) vertices over [minCorner.x, +size.x] x [minCorner.z, +size.y],
// each cell split into two triangles along the diagonal that alternates with
// the cell's parity (a "union jack" pattern: no preferred shear direction, so
// the edge-spring membrane is as isotropic as a structured grid allows).
// Triangles wind counter-clockwise seen from +y. Vertex (i, j) has index
// i + (cells.x + 1) * j. cells >= 1 each.
SurfaceMesh makeClothPatch(glm::vec3 minCorner, glm::vec2 size, glm::uvec2 cells);

// Hair: `strands` polylines of `points` points (>= 2), each grown from a root on
// the sphere (center, radius) along its normal, `length` long. Roots follow a
// Fibonacci spiral over the cap within capDegrees of +y (even spacing, no
// clumps); jitter turns each segment from the one before by a random vector of
// that fraction of its length (splitmix64 from seed; 0: straight). A curl
// winds each strand as a helix of radius curlRadius around that path, one turn
// per curlTurn of it [m], from a random phase per strand; `length` is the arc
// length either way (points equally spaced along the strand).
std::vector<std::vector<glm::vec3>> makeHair(glm::vec3 center, float radius, uint32_t strands, uint32_t points,
                                             float length, float capDegrees, float jitter, uint64_t seed,
                                             float curlRadius, float curlTurn);
// The same without a curl.
std::vector<std::vector<glm::vec3>> makeHair(glm::vec3 center, float radius, uint32_t strands, uint32_t points,
                                             float length, float capDegrees, float jitter, uint64_t seed);

}  // namespace tetlab
