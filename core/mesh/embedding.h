#pragma once
// The simulation runs on the tet mesh; the user's own (often much denser)
// surface is what is drawn. Each render vertex is tied to one tet by
// barycentric weights and follows it every frame:
//
//   x_render = w0 x[v0] + w1 x[v1] + w2 x[v2] + w3 x[v3]
//
// Stored as the four vertex ids and weights (not a tet index), so it
// survives the colour reordering of tets in SimModel, and maps one-to-one
// onto uint4/float4 device buffers. Vertices outside the tet mesh (the voxel
// lattice does not reach the surface everywhere) use the nearest tet with
// extrapolated weights, which still reproduces any affine motion exactly.
#include <cstddef>
#include <span>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

struct SurfaceEmbedding {
  std::vector<glm::uvec4> vertices;  // per render vertex: tet corner ids
  std::vector<glm::vec4> weights;    // per render vertex: barycentric weights (sum 1)
  std::vector<uint32_t> tet;         // per render vertex: tet index in the TetMesh it was built from
  size_t outsideVertices = 0;        // render vertices in no tet (nearest tet used)
  double maxOutsideDistance = 0.0;   // largest distance from such a vertex to its tet [mesh units]
};

// Finds each point's tet through a uniform grid over tet bounding boxes,
// O((n + m) log) rather than O(n m). Errors on an empty tet mesh.
Result<SurfaceEmbedding> embedPoints(const TetMesh& tets, std::span<const glm::vec3> points);

// x_render from deformed tet-mesh positions (vec3, or vec4 with xyz used).
void applyEmbedding(const SurfaceEmbedding& embedding, std::span<const glm::vec3> tetPositions,
                    std::span<glm::vec3> outPositions);
void applyEmbedding(const SurfaceEmbedding& embedding, std::span<const glm::vec4> tetPositions,
                    std::span<glm::vec3> outPositions);

// Area-weighted vertex normals (unit length; zero for isolated vertices).
void computeVertexNormals(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles,
                          std::vector<glm::vec3>& outNormals);

}  // namespace tetlab
