#pragma once
// What TetGen needs from a surface, checked up front: closed (watertight),
// manifold, consistently and outward oriented, not self-intersecting, and
// enclosing a real volume. The report is shown to the user as is; the
// pipeline uses it to decide between TetGen and the volumetric fallback.
#include <cstddef>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "core/mesh/tet_mesh.h"

namespace tetlab {

struct SurfaceCheckOptions {
  bool checkSelfIntersections = true;  // the most expensive check (grid accelerated)
};

struct SurfaceCheckReport {
  size_t vertices = 0;
  size_t triangles = 0;
  size_t edges = 0;
  size_t boundaryEdges = 0;         // edges with exactly one face: holes
  size_t nonManifoldEdges = 0;      // edges with more than two faces
  size_t nonManifoldVertices = 0;   // vertices whose faces form more than one fan (bow-ties)
  size_t inconsistentEdges = 0;     // two-face edges walked the same way by both faces
  size_t components = 0;            // edge-connected triangle components
  bool selfIntersectionChecked = false;
  size_t selfIntersectingPairs = 0;
  std::vector<glm::uvec2> selfIntersectionExamples;
  double signedVolume = 0.0;        // divergence theorem; meaningful when watertight
  glm::dvec3 boundsMin{0.0}, boundsMax{0.0};

  bool watertight() const { return boundaryEdges == 0; }
  bool manifold() const { return nonManifoldEdges == 0 && nonManifoldVertices == 0; }
  bool consistentlyOriented() const { return inconsistentEdges == 0; }
  bool outwardOriented() const { return signedVolume > 0.0; }
  bool selfIntersecting() const { return selfIntersectingPairs > 0; }
  double boundsDiagonal() const;
  // |signedVolume| / (bounding-box diagonal)^3: ~0 for flat or sheet-like input.
  double relativeVolume() const;
  // One line per problem found, empty when the surface is clean.
  std::vector<std::string> problems() const;
};

SurfaceCheckReport checkSurface(const SurfaceMesh& mesh, const SurfaceCheckOptions& options = {});

struct OrientationFixReport {
  size_t trianglesFlipped = 0;
  size_t componentsFlippedOutward = 0;  // whole closed components turned inside out
  size_t nonOrientableComponents = 0;   // Moebius-like: no consistent orientation exists
};

// Makes each component consistently oriented (breadth-first over two-face
// edges, flipping neighbours that disagree), then turns each closed component
// outward: positive volume, unless it is nested inside an odd number of other
// closed components (a cavity), which then faces inward.
OrientationFixReport fixOrientation(SurfaceMesh& mesh);

// Divergence theorem: V = 1/6 sum p0 . (p1 x p2). Double precision.
double signedVolume(const SurfaceMesh& mesh);

}  // namespace tetlab
