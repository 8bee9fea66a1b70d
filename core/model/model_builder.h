#pragma once
// Builds the fixed SimModel from one or more tet meshes (bodies), each with
// its own material. Bodies are merged into one vertex/tet numbering so the
// solvers and the device see a single model.
//
// Order of work (each step O(n log n) or better; 200k tets build in ~1 s):
//   validate + orient  ->  rest data (DmInv, volume, mass)  ->  unique edges
//   (sorted 64-bit keys)  ->  boundary faces (sorted triple keys)  ->  colour
//   tets and edges, reorder into colour ranges  ->  CSR adjacency on the final
//   order  ->  vertex colouring (neighbours through edges).
#include <span>
#include <string>
#include <vector>

#include "core/mesh/tet_mesh.h"
#include "core/model/coloring.h"
#include "core/model/material.h"
#include "core/model/sim_model.h"
#include "core/result.h"

namespace tetlab {

// A solid body is mesh.tets; a cloth body (kind Cloth) is `triangles` over
// mesh.positions and has no tets.
struct BodyDesc {
  TetMesh mesh;
  Material material;
  std::string name;  // used in error messages
  BodyKind kind = BodyKind::Solid;
  std::vector<glm::uvec3> triangles;  // Cloth only
  std::vector<glm::uvec2> segments;   // Strand only: polyline segments (vertex pairs)
};

struct ColoringSummary {
  uint32_t colors = 0;
  uint32_t lowerBound = 0;   // clique size: no valid colouring has fewer colours
  uint32_t greedyBound = 0;  // max degree + 1
  uint32_t smallest = 0, largest = 0;  // items in the smallest / largest colour
};

struct ModelBuildReport {
  uint32_t flippedTets = 0;  // negatively oriented input tets that were re-oriented
  float minQuality = 0.0f;   // min over tets of 6 V / Lmax^3 (regular tet: 1/sqrt(2) = 0.707)
  ColoringSummary tetColoring, edgeColoring, hingeColoring, membraneColoring, vertexColoring;
  uint32_t skippedHinges = 0;  // cloth edges with no bending: non-manifold or next to a degenerate triangle
  double buildMs = 0.0;
};

struct ModelBuildOptions {
  // A tet with 6 |V| / Lmax^3 below this is degenerate (Lmax: its longest
  // edge), a scale-free flatness measure. Float DmInv loses ~log10(1/q) digits.
  float minTetQuality = 1.0e-5f;
};

// Fails (with the body name, tet index and a fix) on: no bodies/tets, out-of-
// range or repeated indices, non-finite positions, degenerate tets or cloth
// triangles, vertices used by no tet (no triangle for cloth), non-positive
// density/E (thickness for cloth), Poisson ratio outside [0, 0.5).
// A cloth body of a triangle surface, as it is (its material and name to be set).
BodyDesc clothBody(const SurfaceMesh& surface);
// A strand body of polylines: each a list of points, joined in order (its material and name to be set).
BodyDesc strandBody(const std::vector<std::vector<glm::vec3>>& polylines);

// Adds each cloth triangle's mass rho h A / 3 to its corners and each strand
// segment's rho (pi d^2 / 4) L / 2 to its ends (on top of whatever
// model.mass holds: the tets' share).
void addClothMass(SimModel& model);

Result<SimModel> buildSimModel(std::span<const BodyDesc> bodies, const ModelBuildOptions& options = {},
                               ModelBuildReport* outReport = nullptr);

}  // namespace tetlab
