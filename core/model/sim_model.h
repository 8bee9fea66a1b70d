#pragma once
// SimModel: everything fixed for the lifetime of a loaded scene (built once per
// load, never changed while stepping; cf. Jolt's SoftBodySharedSettings),
// except the per-body materials, which only change through LiveMaterials::set
// (with the lumped masses a density edit implies) and carry a revision that
// every derived copy compares (core/model/live_materials.h).
// State (positions, velocities, multipliers) lives elsewhere: core/sim/state.h.
//
// Several bodies are merged into one model (one device state for the GPU);
// vertexBody/tetBody say which body, and so which Material, an item belongs to.
//
// Colour layout: elements are stored sorted by colour, so colour c is the
// contiguous range [offsets[c], offsets[c+1]) and is one kernel launch:
//
//   tets:   | colour 0 ........ | colour 1 ..... | colour 2 .. |
//   offsets: 0                   n0               n0+n1         size
//
// Vertices are not reordered; vertexColorOrder lists vertex ids by colour.
#include <cstdint>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/model/live_materials.h"

namespace tetlab {

// offsets.size() == colourCount + 1.
struct ColorRanges {
  std::vector<uint32_t> offsets;
  uint32_t count() const { return offsets.empty() ? 0u : uint32_t(offsets.size() - 1); }
  uint32_t begin(uint32_t c) const { return offsets[c]; }
  uint32_t end(uint32_t c) const { return offsets[c + 1]; }
};

// Compressed sparse rows: row r's items are items[offsets[r] .. offsets[r+1]).
struct Csr {
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> items;
};

// What a body is made of. A solid is a tet mesh; a cloth is a triangle sheet
// (no tets) whose membrane is its edge springs (clothEdgeModulus in material.h),
// drawn two-sided, with the lumped mass rho h A / 3 per triangle corner; a
// strand is a set of polylines (hair, rope) whose segments are axial springs
// E A / L (strandAxialStiffness) with the lumped mass rho A L / 2 per segment
// end, A the cross-section of diameter Material::thickness.
enum class BodyKind : uint8_t { Solid, Cloth, Strand };

struct SimModel {
  // --- per vertex ---
  std::vector<glm::vec3> restPositions;
  std::vector<float> mass;            // lumped mass [kg] (quarter of each incident tet's mass)
  std::vector<uint32_t> vertexBody;   // body index

  // --- tets, in tet-colour order (no two tets of one colour share a vertex) ---
  std::vector<glm::uvec4> tets;       // positively oriented
  std::vector<glm::mat3> DmInv;       // inverse rest shape matrix [x1-x0, x2-x0, x3-x0]^-1
  std::vector<float> restVolume;      // [m^3]
  std::vector<uint32_t> tetBody;
  ColorRanges tetColors;

  // --- unique edges, in edge-colour order ---
  std::vector<glm::uvec2> edges;
  std::vector<float> restLength;      // [m]
  std::vector<float> edgeVolume;      // solid: 1/6 of each incident tet's rest volume [m^3];
                                      // cloth: 1/3 of each incident triangle's rest area [m^2] (edgeSpringStiffness)
  ColorRanges edgeColors;

  // --- cloth sheets (bodies of kind Cloth) ---
  std::vector<glm::uvec3> clothTriangles;  // as the user wound them; also in boundaryTriangles
  std::vector<float> clothTriangleArea;    // rest area [m^2]
  std::vector<uint32_t> clothTriangleBody;
  // Per vertex, its wind elements (the wind's drag and lift): cloth triangle t
  // as item t, strand segment k as item clothTriangles.size() + k.
  Csr vertexWindElements;

  // --- cloth membranes (core/model/cloth_membrane.h): one per cloth triangle,
  // in membrane-colour order (no two of one colour share a vertex) ---
  std::vector<glm::uvec4> membranes;       // (x0, x1, x2, body)
  std::vector<glm::vec4> membraneDmInv;    // 2x2 inverse rest shape, column-major (m00, m10, m01, m11) [1/m]
  std::vector<float> membraneArea;         // rest area A [m^2]
  ColorRanges membraneColors;
  Csr vertexMembranes;                     // per vertex: membrane * 4 + corner (corner 0..2)

  // --- strands (bodies of kind Strand): their polyline segments, also in `edges` ---
  std::vector<glm::uvec2> strandSegments;
  std::vector<uint32_t> strandSegmentBody;

  // --- bending hinges, in hinge-colour order: interior edges of the sheets
  // (x0, x1 the edge, x2, x3 the opposite corners) and interior points of the
  // strands (x0 the point before, x1 the point, x2 the one after, x3 = x1 with weight 0) ---
  std::vector<glm::uvec4> hinges;
  std::vector<glm::vec4> hingeWeights;     // k_j [1/m]: E = D/2 |sum_j k_j x_j - r|^2 (core/model/cloth_bending.h)
  std::vector<glm::vec4> hingeRest;        // r = sum_j k_j x_j at rest (xyz; 0 for sheets, a strand's rest curvature)
  std::vector<uint32_t> hingeBody;
  ColorRanges hingeColors;                 // no two hinges of one colour share a vertex
  Csr vertexHinges;                        // per vertex: hinge * 4 + corner

  // --- vertex colouring (no two vertices of one colour share a tet, a triangle or a hinge) ---
  std::vector<uint32_t> vertexColorOrder;
  ColorRanges vertexColors;

  // --- adjacency ---
  Csr vertexTets;   // per vertex: tet * 4 + corner
  Csr vertexEdges;  // per vertex: edge * 2 + end

  // --- surface and bodies ---
  std::vector<glm::uvec3> boundaryTriangles;  // outward-facing tet faces, then the cloth triangles
  std::vector<uint32_t> surfaceVertices;      // vertices of boundaryTriangles and every strand point, ascending (body-contact slots)
  LiveMaterials materials;                    // per body; the one part edited after build (live_materials.h)
  std::vector<BodyKind> bodyKind;             // per body

  uint32_t vertexCount() const { return uint32_t(restPositions.size()); }
  uint32_t tetCount() const { return uint32_t(tets.size()); }
  uint32_t edgeCount() const { return uint32_t(edges.size()); }
  uint32_t hingeCount() const { return uint32_t(hinges.size()); }
  uint32_t membraneCount() const { return uint32_t(membranes.size()); }
  bool hasCloth() const { return !clothTriangles.empty(); }
  // boundaryTriangles from here on are cloth sheets: two-sided for body
  // contacts (a vertex is kept on the side it came from, core/sim/body_contact_detection.cpp).
  uint32_t firstTwoSidedTriangle() const { return uint32_t(boundaryTriangles.size() - clothTriangles.size()); }
  bool isCloth(uint32_t body) const { return body < bodyKind.size() && bodyKind[body] == BodyKind::Cloth; }
  bool isStrand(uint32_t body) const { return body < bodyKind.size() && bodyKind[body] == BodyKind::Strand; }
  bool hasStrands() const { return !strandSegments.empty(); }
};

}  // namespace tetlab
