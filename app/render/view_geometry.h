#pragma once
// CPU-side geometry for the view modes, rebuilt from the current positions
// each frame and uploaded as plain vertex arrays. Pure functions (no GL) so
// the selection logic (which tets a cut keeps, which faces face outward) is
// unit-tested.
//
// Tet faces are drawn as a triangle soup of CellVertex: every corner carries
// its barycentric corner id and the three corner values of its triangle, so
// one fragment shader can draw
//   - a smooth field       value = dot(bary, values)
//   - a per-tet category   all three values equal (flat cell colour)
//   - a per-vertex category the value of the nearest corner (a patch per vertex)
//   - the cell edges       where min(bary) is small (anti-aliased, no GL lines)
//
//   positively oriented tet (p0, p1, p2, p3): outward faces, counter-clockwise
//     opposite 3: (0, 2, 1)   opposite 2: (0, 1, 3)   opposite 1: (0, 3, 2)   opposite 0: (1, 2, 3)
#include <cstdint>
#include <span>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/mesh/tet_mesh.h"
#include "core/model/sim_model.h"
#include "core/sim/colliders.h"

namespace tetlab {

// Outward counter-clockwise face f of a positively oriented tet, as corner
// indices 0..3 (face f is opposite corner 3 - f, see the table above).
glm::uvec3 tetFaceCorners(int face);

struct CellVertex {
  glm::vec3 position;
  glm::vec3 normal;       // flat face normal
  glm::vec3 barycentric;  // (1,0,0), (0,1,0) or (0,0,1)
  glm::vec3 values;       // the field at the triangle's three corners (same in all three vertices)
};

struct LineVertex {
  glm::vec3 position;
  float value;            // field value (colour map or category), 0 when no field
};

// Per boundary triangle (SimModel::boundaryTriangles), the tet it is a face
// of; built once per model (hash of sorted face triples). A triangle that is
// no tet face (should not happen) gets UINT32_MAX.
std::vector<uint32_t> boundaryFaceTets(const SimModel& model);

// The section plane: keeps a tet when dot(normal, centroid) <= offset.
struct CutPlane {
  glm::vec3 normal{0.0f, 0.0f, 1.0f};  // unit
  float offset = 0.0f;                 // [m]
};

// From the UI's normal and relative offset (ViewSettings::cutNormal/cutOffset):
// the plane through centre + relativeOffset * radius * n. A zero normal means +z.
CutPlane makeCutPlane(glm::vec3 normal, float relativeOffset, glm::vec3 centre, float radius);

// Bounding sphere of the positions (centre of the box, half its diagonal).
void boundingSphere(std::span<const glm::vec4> x, glm::vec3& outCentre, float& outRadius);

// Tets kept by the cut, in model order.
void selectTetsBehindPlane(const SimModel& model, std::span<const glm::vec4> x, const CutPlane& plane,
                           std::vector<uint32_t>& outTets);

// Per tet, the tet across each face (face f as in tetFaceCorners), -1 on the
// boundary. Built once per model (sorted face keys, O(T log T)).
std::vector<glm::ivec4> tetFaceNeighbors(const SimModel& model);

// Of the kept tets (sorted, model order), those within `layers` face-steps of
// the kept set's surface (a face on the model boundary or towards a removed
// tet); layers <= 0 keeps all. Deeper tets are hidden behind these, so the
// cut-away draws O(surface) cells instead of O(volume): 162k tets cut in half
// drew 81k tets (110 ms per frame on llvmpipe) without it.
void keepExposedLayers(std::span<const glm::ivec4> neighbors, std::span<const uint32_t> kept, int layers,
                       std::vector<uint32_t>& outTets);

// The four faces of each listed tet, each scaled about the tet centroid by
// shrink (1 = as is). Corner values come from perTet (one value per model tet)
// or perVertex (one per model vertex); with neither, zeros.
void buildTetCells(const SimModel& model, std::span<const glm::vec4> x, std::span<const uint32_t> tets, float shrink,
                   std::span<const float> perTet, std::span<const float> perVertex, std::vector<CellVertex>& out);

// The model's boundary triangles (the tet mesh's own surface, unshrunk);
// faceTets from boundaryFaceTets picks the value for perTet fields.
void buildBoundaryCells(const SimModel& model, std::span<const glm::vec4> x, std::span<const uint32_t> faceTets,
                        std::span<const float> perTet, std::span<const float> perVertex, std::vector<CellVertex>& out);

// Every model edge as a line (GL_LINES pairs). With perVertex, each edge is
// split at its midpoint and each half carries its end's value, so categories
// stay crisp; with perEdge (e.g. the edge graph colour) one value per edge.
void buildEdgeLines(const SimModel& model, std::span<const glm::vec4> x, std::span<const float> perVertex,
                    std::span<const float> perEdge, std::vector<LineVertex>& out);

// Edge graph colour index per edge (model.edgeColors).
void edgeColorIndices(const SimModel& model, std::vector<float>& outPerEdge);

// Positions of pinned vertices (x.w == 0).
void pinnedPositions(std::span<const glm::vec4> x, std::vector<glm::vec3>& out);

// Closed, outward-wound meshes of the colliders, appended to out (ground excluded:
// the renderer's grid shows it).
SurfaceMesh makeBoxMesh(glm::vec3 center, glm::vec3 halfExtents, const glm::mat3& rotation);
SurfaceMesh makeCapsuleMesh(glm::vec3 a, glm::vec3 b, float radius, int rings, int segments);
// A torus around `rotation`'s local y axis: `rings` steps around the axis, `segments` around the tube.
SurfaceMesh makeTorusMesh(glm::vec3 center, float majorRadius, float minorRadius, const glm::mat3& rotation,
                          int rings, int segments);
// Half the side of the square an infinite plane collider is drawn as [m].
inline constexpr float kPlaneDrawHalfSize = 0.75f;
SurfaceMesh makePlaneMesh(glm::vec3 point, glm::vec3 normal, float halfSize);
void appendMesh(const SurfaceMesh& mesh, SurfaceMesh& out);
SurfaceMesh makeColliderMeshes(const Colliders& colliders);

}  // namespace tetlab
