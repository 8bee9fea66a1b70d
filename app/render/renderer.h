#pragma once
// Draws the 3D view: background gradient, shaded surfaces, ground grid with a
// soft contact shadow. The renderer owns only GL state (programs, the grid
// quad); meshes live in GpuMesh objects the caller owns, so a scene with
// several bodies, or a body whose positions the simulation rewrites every
// frame, needs no change here.
//
// Draw order per frame (into whatever framebuffer is bound):
//   background (no depth) -> meshes (depth write) -> grid + shadow (blended, depth test, no depth write)
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "app/render/camera.h"
#include "app/render/compare_layout.h"
#include "app/render/gl_resources.h"
#include "app/render/mesh_geometry.h"
#include "app/render/shader_program.h"
#include "core/mesh/tet_mesh.h"
#include "core/result.h"

namespace tetlab {

class SimView;
struct ViewSettings;

// Look of the 3D view. Colours marked sRGB are display values (0..1).
struct RenderSettings {
  glm::vec3 backgroundTop{0.40f, 0.45f, 0.53f};     // sRGB, top edge of the window
  glm::vec3 backgroundBottom{0.14f, 0.15f, 0.18f};  // sRGB, bottom edge
  glm::vec3 albedo{0.82f, 0.45f, 0.30f};            // sRGB, warm clay so bodies stand out from the cool environment
  glm::vec3 skyAmbient{0.09f, 0.11f, 0.15f};        // linear, light from above
  glm::vec3 groundAmbient{0.06f, 0.05f, 0.045f};    // linear, bounce light from below
  float shininess = 48.0f;                          // Blinn-Phong exponent
  float specular = 0.10f;                           // highlight strength
  bool showGrid = true;
  glm::vec3 gridLineColor{0.78f, 0.80f, 0.85f};  // sRGB
  float gridLineAlpha = 0.32f;
  bool showShadow = true;
  float shadowStrength = 0.45f;  // 0 = none, 1 = black at the centre
  // Simulated scenes (render(SimView)) only:
  glm::vec3 colliderAlbedo{0.55f, 0.62f, 0.72f};  // sRGB, cool grey-blue so colliders read as "not the body"
  glm::vec3 pinColor{0.90f, 0.16f, 0.14f};        // sRGB
  glm::vec3 attachmentColor{1.0f, 0.85f, 0.25f};  // sRGB, the mouse drag line and its ends
  glm::vec3 springAnchorColor{0.85f, 0.85f, 0.90f};  // sRGB, the anchor springs' fixed ends
  float springWidth = 2.5f;                          // [px] anchor spring lines, where the driver draws wide lines
  glm::vec3 cellEdgeColor{0.10f, 0.10f, 0.12f};   // sRGB, tet edges on cut-away cells
  glm::vec3 cellAlbedo{0.92f, 0.80f, 0.62f};      // sRGB, tets without a field: paler than the skin so the inside reads as inside
  glm::vec3 wireColor{0.85f, 0.90f, 1.0f};        // sRGB, wireframe edges without a field
  glm::vec3 strandColor{0.42f, 0.26f, 0.14f};     // sRGB, strands (hair, rope)
  float strandWidth = 2.0f;                        // [px] where the driver draws wide lines
};

// The background colour at height v in [0, 1] (0 = bottom row, 1 = top row)
// exactly as gl/background.frag computes it; tests use it to tell body pixels from background.
glm::vec3 backgroundColorAt(const RenderSettings& settings, float v);

// A triangle surface on the GPU: positions and normals in two buffers
// (positions change every simulated frame, the index buffer never does).
class GpuMesh {
 public:
  static Result<GpuMesh> create(const SurfaceMesh& mesh);

  // Same vertex count as at creation; recomputes normals and bounds.
  Status updatePositions(const std::vector<glm::vec3>& positions);

  const Bounds& bounds() const { return bounds_; }
  size_t vertexCount() const { return vertexCount_; }
  size_t triangleCount() const { return indexCount_ / 3; }
  void draw() const;

 private:
  GlVertexArray vao_;
  GlBuffer positionBuffer_;
  GlBuffer normalBuffer_;
  GlBuffer indexBuffer_;
  std::vector<glm::uvec3> triangles_;  // kept to recompute normals on update
  std::vector<glm::vec3> normals_;     // scratch, reused to avoid per-frame allocation
  Bounds bounds_;
  size_t vertexCount_ = 0;
  size_t indexCount_ = 0;
};

class Renderer {
 public:
  // Needs a current GL 3.3 core context.
  static Result<Renderer> create();

  // Draws into the bound framebuffer's (0, 0, viewportSize) rectangle.
  // albedos (sRGB), when given, colour the meshes one each instead of settings.albedo
  // (the deformer's rest / animated / solved bodies side by side).
  void render(const OrbitCamera& camera, glm::ivec2 viewportSize, std::span<const GpuMesh* const> meshes,
              const RenderSettings& settings, std::span<const glm::vec3> albedos = {}) const;

  // Draws a simulated scene (app/render/view_scene.h) as `view` asks: shaded surface,
  // tet wireframe or cut-away, coloured by a field, with pins, colliders and
  // the mouse attachment; the ground grid sits at the scene's ground height.
  // Call scene.update(...) first in the same frame. The colour legend is not
  // drawn here: the UI calls drawColorLegend (app/render/colormap.h) with scene.displayMin/Max.
  void render(const OrbitCamera& camera, glm::ivec2 viewportSize, const SimView& scene, const ViewSettings& view,
              const RenderSettings& settings) const;
  // The same into a rectangle of the bound framebuffer (compare mode's split
  // cells, app/render/compare_layout.h): nothing outside it is touched.
  void render(const OrbitCamera& camera, const ViewportRect& viewport, const SimView& scene, const ViewSettings& view,
              const RenderSettings& settings) const;
  // Over an already drawn view: meshes as see-through ghosts (front faces, `opacity`),
  // each in its tint (sRGB), laid over whole without depth test so a nearly
  // coincident body under them does not z-fight (the deformer's overlay).
  void renderGhostMeshes(const OrbitCamera& camera, glm::ivec2 viewportSize, std::span<const GpuMesh* const> meshes,
                         const RenderSettings& settings, std::span<const glm::vec3> tints, float opacity) const;
  // Over an already drawn view: the scene's surfaces as a see-through ghost
  // (front faces, `opacity`) and its strands, both in `tint` (sRGB): compare
  // mode's overlay of the other lanes on the first.
  void renderGhost(const OrbitCamera& camera, const ViewportRect& viewport, const SimView& scene,
                   const ViewSettings& view, const RenderSettings& settings, glm::vec3 tint, float opacity) const;

 private:
  void drawBackground(const RenderSettings& settings) const;
  // See-through ghosts (renderGhostMeshes, and drawSimSurfaces for compare mode's
  // ghosts): blended front faces, no depth writes, `overlay` without depth test;
  // the mesh program must be in use. endGhostPass restores the state.
  void beginGhostPass(float opacity, bool overlay) const;
  void endGhostPass() const;
  // Lighting uniforms shared by the mesh and cell programs (key/fill follow the camera).
  void setLighting(const ShaderProgram& program, const OrbitCamera& camera, const glm::mat4& viewProj,
                   const RenderSettings& settings) const;
  void drawMeshes(const OrbitCamera& camera, const glm::mat4& viewProj, std::span<const GpuMesh* const> meshes,
                  const RenderSettings& settings, std::span<const glm::vec3> albedos) const;
  // Grid at y = groundHeight with a contact shadow under `scene` (none when null).
  void drawGround(const OrbitCamera& camera, const glm::mat4& viewProj, const Bounds* scene, float groundHeight,
                  const RenderSettings& settings) const;

  // SimView parts (app/render/view_render.cpp).
  // tint: every surface in this colour (compare mode's ghosts); null: the bodies' and sheets' own.
  void drawSimSurfaces(const SimView& scene, const ViewSettings& view, const OrbitCamera& camera,
                       const glm::mat4& viewProj, const RenderSettings& settings, bool ghost,
                       const glm::vec3* tint = nullptr) const;
  void drawSimCells(const SimView& scene, const ViewSettings& view, const OrbitCamera& camera,
                    const glm::mat4& viewProj, const RenderSettings& settings) const;
  void drawSimStrands(const SimView& scene, const OrbitCamera& camera, const glm::mat4& viewProj,
                      const RenderSettings& settings) const;
  void drawSimLines(const SimView& scene, const ViewSettings& view, const OrbitCamera& camera,
                    const glm::mat4& viewProj, const RenderSettings& settings) const;
  void drawSimOverlays(const SimView& scene, const ViewSettings& view, const OrbitCamera& camera,
                       const glm::mat4& viewProj, glm::ivec2 viewportSize, const RenderSettings& settings) const;

  ShaderProgram backgroundProgram_;
  ShaderProgram meshProgram_;
  ShaderProgram gridProgram_;
  ShaderProgram cellProgram_;
  ShaderProgram lineProgram_;
  ShaderProgram pointProgram_;
  GlVertexArray emptyVao_;  // core profile needs a bound VAO even for attribute-less draws
  GlVertexArray gridVao_;
  GlBuffer gridBuffer_;
};

}  // namespace tetlab
