#pragma once
// Everything the 3D view draws of a simulated scene, on the GPU, refreshed
// once per rendered frame from (model, state):
//
//   SimView::update(model, state, colliders, view)
//     render surfaces   x_render = embedding(state.x), normals        -> GpuMesh (+ scalar attribute)
//     field             computeField (view_fields.h), sampled where drawn
//     tet geometry      cut-away cells / boundary cells / edge lines    (only what the mode needs)
//     overlays          pins, colliders, mouse attachment line
//   Renderer::render(camera, size, simView, view, settings)
//
// The CPU copies of the deformed render surfaces are kept for picking and OBJ
// export, so neither reads anything back from the GPU.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "app/render/gl_resources.h"
#include "app/render/mesh_geometry.h"
#include "app/output/obj_export.h"
#include "app/render/picking.h"
#include "app/render/renderer.h"
#include "app/render/view_fields.h"
#include "app/render/view_geometry.h"
#include "app/render/view_modes.h"
#include "core/mesh/embedding.h"
#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/scene/scene_build.h"
#include "core/sim/colliders.h"
#include "core/sim/state.h"

namespace tetlab {

// A body's drawn surface: triangles over render vertices, each render vertex
// following the simulation through its embedding (vertex ids are SimModel ids,
// i.e. already offset for the body's place in a merged model).
struct RenderSurface {
  std::string name;                   // for export ("bunny"); may be empty
  std::vector<glm::uvec3> triangles;  // over render vertices, counter-clockwise from outside
  SurfaceEmbedding embedding;         // one entry per render vertex
  bool cloth = false;                 // a sheet: drawn in the cloth colours, front and back apart
};

// For scenes without a user mesh (presets): the tet mesh's own boundary
// triangles of the given body (all bodies when body < 0), each boundary vertex
// embedded with weight 1 on itself.
RenderSurface boundaryRenderSurface(const SimModel& model, int body = -1);

// The scene builder's surfaces (core/scene/scene_build.h BuiltScene::surfaces) as drawn surfaces.
std::vector<RenderSurface> renderSurfacesFrom(std::span<const BodySurface> surfaces);

// Checks that every embedding vertex id is < model.vertexCount(), every
// triangle index < the render vertex count and the weights are finite.
Status validateRenderSurface(const SimModel& model, const RenderSurface& surface);

// Result of picking the scene's render surfaces.
struct ScenePick {
  uint32_t surface = 0;           // which RenderSurface (UINT32_MAX: a strand point, hit.triangle unused)
  SurfaceHit hit;                 // triangle, point, barycentrics
  AttachmentWeights attachment;   // simulation vertices + weights (sum 1) to drive with State::mouse
  uint32_t nearestVertex = 0;     // simulation vertex nearest to the hit point (for pinning)
};

class SimView {
 public:
  // Needs a current GL context. Fails on an invalid surface (validateRenderSurface)
  // or an empty model. With no surfaces, boundaryRenderSurface(model) is used.
  static Result<SimView> create(const SimModel& model, std::vector<RenderSurface> surfaces);

  // Once per rendered frame (after stepping). state must belong to model
  // (x.size() == model.vertexCount(); otherwise nothing is updated).
  void update(const SimModel& model, const State& state, const Colliders& colliders, const ViewSettings& view);

  // ---- CPU side, valid after update() ----
  size_t surfaceCount() const { return surfaces_.size(); }
  const RenderSurface& surface(size_t i) const { return surfaces_[i].source; }
  std::span<const glm::vec3> surfacePositions(size_t i) const { return surfaces_[i].positions; }
  std::span<const glm::vec3> surfaceNormals(size_t i) const { return surfaces_[i].normals; }
  // Bounds of everything drawn (surfaces and tets) this frame.
  const Bounds& bounds() const { return bounds_; }

  // Nearest hit of the ray with any render surface at the last update's positions.
  // x: the positions the last update used (for nearestVertex); pass state.x.
  std::optional<ScenePick> pick(const Ray& ray, std::span<const glm::vec4> x) const;

  // The field of the last update and the range the colours span (what the legend shows).
  const ScalarField& field() const { return field_; }
  float displayMin() const { return displayMin_; }
  float displayMax() const { return displayMax_; }
  // Largest finite value on screen (above displayMax when the auto range clips outliers).
  float shownMax() const { return trueMax_; }
  int categoryCount() const { return categoryCount_; }
  ColorField shownField() const { return shownField_; }

  // What the last update uploaded (tests, stats): vertices of tet-face cells, of edge
  // lines, and pinned vertices drawn.
  size_t cellVertexCount() const { return drawCells_ ? cellBuffer_.count : 0; }
  size_t lineVertexCount() const { return drawLines_ ? lineBuffer_.count : 0; }
  size_t strandVertexCount() const { return strandBuffer_.count; }
  size_t pinCount() const { return pinBuffer_.count; }
  // Anchor springs drawn: line vertices (2 per whole spring) and anchors (one per spring).
  size_t springLineVertexCount() const { return springBuffer_.count; }
  size_t springAnchorCount() const { return springAnchorBuffer_.count; }
  bool drawsSurfaces() const { return drawSurfaces_; }

  // ---- Surfaces embedded on the device (app/render/gl_interop.h, OpenCL backend) ----
  // Draw positions and normals from `buffer`, laid out as float4 positions of
  // all surfaces' render vertices then float4 normals (gpu/render/render_embedding.h);
  // surfaceFirstVertex has surfaceCount() + 1 entries (the last is the total).
  // update() then neither embeds nor uploads surfaces (the bounds come from x);
  // pick() embeds the picked surface from the x it is given; call
  // refreshCpuSurfaces(x) before exportSurfacesOf. The buffer must outlive its use here.
  Status useExternalSurfaceBuffer(GLuint buffer, std::span<const uint32_t> surfaceFirstVertex);
  // Back to CPU embedding into the view's own buffers (from the next update()).
  void useOwnSurfaceBuffers();
  bool usesExternalSurfaceBuffer() const { return externalSurfaces_; }
  // CPU positions and normals of every surface from x (export, tests).
  void refreshCpuSurfaces(std::span<const glm::vec4> x);

 private:
  friend class Renderer;
  struct Surface {
    RenderSurface source;
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;
    std::vector<float> scalars;
    GlVertexArray vao;
    GlBuffer positionBuffer, normalBuffer, scalarBuffer, indexBuffer;
    size_t indexCount = 0;
  };
  struct DynamicBuffer {  // a VAO + VBO re-filled each frame (orphaned, then sub-data)
    GlVertexArray vao;
    GlBuffer buffer;
    size_t capacityBytes = 0;
    size_t count = 0;  // vertices
  };
  // The steps of update(), in its order. centre/radius: the bounding sphere of x.
  void embedSurfaces(std::span<const glm::vec4> x, glm::vec3& centre, float& radius);
  bool computeFieldValues(const SimModel& model, const State& state, const Colliders& colliders,
                          ColorField fieldKind);  // false: no field shown
  // The mode's geometry (cells, lines or surface scalars) and the values it shows.
  std::span<const float> buildModeGeometry(const SimModel& model, std::span<const glm::vec4> x,
                                           const ViewSettings& view, bool hasField, glm::vec3 centre, float radius);
  std::span<const float> buildShaded(const SimModel& model, std::span<const glm::vec4> x, const ViewSettings& view,
                                     bool hasField);
  std::span<const float> buildWireframe(const SimModel& model, std::span<const glm::vec4> x,
                                        const ViewSettings& view, bool hasField);
  std::span<const float> buildCutaway(const SimModel& model, std::span<const glm::vec4> x, const ViewSettings& view,
                                      bool hasField, glm::vec3 centre, float radius);
  void updateRange(const ViewSettings& view, std::span<const float> shown);
  void uploadGeometry();
  void updateOverlays(std::span<const glm::vec4> x, const Attachment& mouse, const Colliders& colliders,
                      const ViewSettings& view);
  void updateAttachmentLine(std::span<const glm::vec4> x, const Attachment& mouse);
  // Each whole anchor spring as a line from its anchor to its patch's centroid,
  // valued by its load (force over breaking force, or strain over breaking
  // strain: 1 breaks; 0 for an unbreakable one), and every anchor as a point.
  void updateSpringLines(std::span<const glm::vec4> x, const AnchorSprings& springs);
  void updateColliderMesh(const Colliders& colliders);
  void uploadSurface(Surface& s, bool withScalars);
  static void fill(DynamicBuffer& b, const void* data, size_t bytes, size_t count);

  std::vector<Surface> surfaces_;
  std::vector<uint32_t> faceTets_;  // boundaryFaceTets(model)
  ScalarField field_;
  std::vector<float> perVertex_, perEdge_, scratch_;  // reused every frame
  std::vector<glm::ivec4> neighbors_;  // tetFaceNeighbors(model)
  std::vector<uint32_t> keptTets_, cutScratch_;
  std::vector<CellVertex> cells_;
  std::vector<LineVertex> lines_;
  std::vector<LineVertex> strandLines_;  // strand segments (SimModel::strandSegments), every mode
  std::vector<uint32_t> strandVertices_;  // strand points, ascending: picked by angle (pickNearPoint)
  std::vector<glm::vec3> pins_;
  DynamicBuffer cellBuffer_, lineBuffer_, pinBuffer_, attachBuffer_, strandBuffer_, springBuffer_, springAnchorBuffer_;
  std::vector<LineVertex> springLines_;
  std::vector<glm::vec3> springAnchors_;
  std::vector<glm::vec4> springX_;
  std::optional<GpuMesh> colliderMesh_;
  size_t colliderSignature_ = 0;
  Bounds bounds_;
  CutPlane cut_;
  ColorField shownField_ = ColorField::kNone;
  float displayMin_ = 0.0f, displayMax_ = 1.0f, smoothedMax_ = -1.0f, trueMax_ = 0.0f;
  std::vector<float> rangeScratch_;
  int categoryCount_ = 0;
  float pinRadius_ = 0.01f;
  bool drawSurfaces_ = true, drawCells_ = false, drawLines_ = false, surfaceScalars_ = false;
  bool attachmentActive_ = false;
  bool externalSurfaces_ = false;  // positions/normals come from useExternalSurfaceBuffer's buffer
  float groundHeight_ = 0.0f;        // where the grid is drawn [m]
  float gridFallbackHeight_ = 0.0f;  // grid height without a ground plane
  bool groundEnabled_ = true;
  uint32_t modelVertices_ = 0, modelTets_ = 0;
};

// The deformed surfaces of the last update, for ObjSequenceWriter::write (spans into
// the view: valid until its next update).
std::vector<ExportSurface> exportSurfacesOf(const SimView& view);

}  // namespace tetlab
