// Renderer's SimView path: the view modes as draw passes. Order per mode
// (opaque first, then the blended grid, then what must stay see-through):
//
//   shaded     background -> surfaces (field colours) | boundary cells (graph colours) -> colliders, pins, drag -> grid
//   wireframe  background -> colliders, pins, drag -> grid -> ghost surface (blended, back faces culled)
//              -> edges (blended, depth-tested, no depth write: the whole tet structure shows through)
//   cut-away   background -> kept tet cells (edges in the shader) + surface clipped at the plane
//              (inside of the shell dimmed) -> colliders, pins, drag -> grid
#include <algorithm>

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>

#include "app/render/colormap.h"
#include "app/render/renderer.h"
#include "app/render/view_scene.h"

namespace tetlab {

namespace {

// Wide lines are deprecated in core profiles: a forward-compatible context refuses any width
// above 1 (GL_INVALID_VALUE), others clamp to GL_ALIASED_LINE_WIDTH_RANGE. Returns whether
// the width was set (the caller puts it back to 1 after drawing).
bool beginWideLines(float width) {
  GLint flags = 0;
  glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
  if ((flags & GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT) != 0 || !(width > 1.0f)) return false;
  GLfloat range[2] = {1.0f, 1.0f};
  glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
  glLineWidth(std::clamp(width, range[0], range[1]));
  return true;
}

void setColorTables(const ShaderProgram& program, bool palette) {
  const GLint keys = glGetUniformLocation(program.id(), "uColormap");
  if (keys >= 0) glUniform3fv(keys, kColormapKeys, &colormapKeys()[0].x);
  if (palette) {
    const GLint pal = glGetUniformLocation(program.id(), "uPalette");
    if (pal >= 0) glUniform3fv(pal, kPaletteSize, &categoryPalette()[0].x);
  }
}

}  // namespace

void Renderer::render(const OrbitCamera& camera, glm::ivec2 viewportSize, const SimView& scene, const ViewSettings& view,
                      const RenderSettings& settings) const {
  render(camera, ViewportRect{glm::ivec2(0), viewportSize}, scene, view, settings);
}

void Renderer::renderGhost(const OrbitCamera& camera, const ViewportRect& viewport, const SimView& scene,
                           const ViewSettings& view, const RenderSettings& settings, glm::vec3 tint,
                           float opacity) const {
  if (viewport.size.x <= 0 || viewport.size.y <= 0) return;
  glViewport(viewport.origin.x, viewport.origin.y, viewport.size.x, viewport.size.y);
  const float aspect = static_cast<float>(viewport.size.x) / static_cast<float>(viewport.size.y);
  const glm::mat4 viewProj = camera.projectionMatrix(aspect) * camera.viewMatrix();
  RenderSettings tinted = settings;
  tinted.albedo = tint;
  tinted.strandColor = tint;
  ViewSettings ghost = view;
  ghost.ghostOpacity = opacity;
  ghost.mode = ViewMode::kShaded;
  if (scene.surfaceCount() > 0) drawSimSurfaces(scene, ghost, camera, viewProj, tinted, true, &tint);
  drawSimStrands(scene, camera, viewProj, tinted);
  endGhostPass();
  glUseProgram(0);
}

void Renderer::render(const OrbitCamera& camera, const ViewportRect& viewport, const SimView& scene,
                      const ViewSettings& view, const RenderSettings& settings) const {
  const glm::ivec2 viewportSize = viewport.size;
  if (viewportSize.x <= 0 || viewportSize.y <= 0) return;
  glViewport(viewport.origin.x, viewport.origin.y, viewportSize.x, viewportSize.y);
  // A cell of the framebuffer: the depth clear and the background stay inside it.
  glEnable(GL_SCISSOR_TEST);
  glScissor(viewport.origin.x, viewport.origin.y, viewportSize.x, viewportSize.y);
  glDisable(GL_CULL_FACE);
  glDepthMask(GL_TRUE);
  glClearDepth(1.0);
  glClear(GL_DEPTH_BUFFER_BIT);
  const float aspect = static_cast<float>(viewportSize.x) / static_cast<float>(viewportSize.y);
  const glm::mat4 viewProj = camera.projectionMatrix(aspect) * camera.viewMatrix();

  drawBackground(settings);
  switch (view.mode) {
    case ViewMode::kShaded:
      if (scene.drawSurfaces_) drawSimSurfaces(scene, view, camera, viewProj, settings, false);
      if (scene.drawCells_) drawSimCells(scene, view, camera, viewProj, settings);
      break;
    case ViewMode::kCutaway:
      if (scene.drawCells_) drawSimCells(scene, view, camera, viewProj, settings);
      if (scene.drawSurfaces_) drawSimSurfaces(scene, view, camera, viewProj, settings, false);
      break;
    case ViewMode::kWireframe: break;
  }
  drawSimStrands(scene, camera, viewProj, settings);
  drawSimOverlays(scene, view, camera, viewProj, viewportSize, settings);
  drawGround(camera, viewProj, &scene.bounds(), scene.groundHeight_, settings);
  if (view.mode == ViewMode::kWireframe) {
    if (scene.drawSurfaces_) drawSimSurfaces(scene, view, camera, viewProj, settings, true);
    if (scene.drawLines_) drawSimLines(scene, view, camera, viewProj, settings);
  }
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  glDisable(GL_SCISSOR_TEST);
  glDepthMask(GL_TRUE);
  glUseProgram(0);
}

void Renderer::drawSimSurfaces(const SimView& scene, const ViewSettings& view, const OrbitCamera& camera,
                               const glm::mat4& viewProj, const RenderSettings& settings, bool ghost,
                               const glm::vec3* tint) const {
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  meshProgram_.use();
  setLighting(meshProgram_, camera, viewProj, settings);
  setColorTables(meshProgram_, false);
  const bool scalars = scene.surfaceScalars_ && !ghost;
  meshProgram_.set("uColorMode", scalars ? 1 : 0);
  meshProgram_.set("uRange", glm::vec2(scene.displayMin_, scene.displayMax_));
  const bool clip = view.mode == ViewMode::kCutaway;
  meshProgram_.set("uClipEnabled", clip ? 1 : 0);
  meshProgram_.set("uClipPlane", glm::vec4(scene.cut_.normal, scene.cut_.offset));
  // Through the cut one looks at the inside of the shell: darker, so the tets in front read as the body.
  meshProgram_.set("uBackfaceDim", clip ? 0.45f : 1.0f);
  if (ghost) {
    beginGhostPass(view.ghostOpacity, tint != nullptr);  // a tinted ghost lies over another body (compare)
  } else {
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    meshProgram_.set("uAlpha", 1.0f);
  }
  int sheet = 0;  // cloth sheets take the cloth colours in turn
  for (size_t i = 0; i < scene.surfaces_.size(); ++i) {
    const SimView::Surface& s = scene.surfaces_[i];
    const bool cloth = s.source.cloth;
    meshProgram_.set("uAlbedo", tint ? *tint : cloth ? clothAlbedo(sheet, false) : bodyAlbedo(settings.albedo, int(i)));
    meshProgram_.set("uBackAlbedo", tint ? *tint : clothAlbedo(sheet, true));
    meshProgram_.set("uTwoTone", cloth && !tint ? 1 : 0);
    if (cloth) ++sheet;
    glBindVertexArray(s.vao.id());
    glDrawElements(GL_TRIANGLES, GLsizei(s.indexCount), GL_UNSIGNED_INT, nullptr);
  }
  glBindVertexArray(0);
  endGhostPass();
}

void Renderer::drawSimCells(const SimView& scene, const ViewSettings& view, const OrbitCamera& camera,
                            const glm::mat4& viewProj, const RenderSettings& settings) const {
  if (scene.cellBuffer_.count == 0) return;
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_BLEND);
  glDepthMask(GL_TRUE);
  cellProgram_.use();
  setLighting(cellProgram_, camera, viewProj, settings);
  setColorTables(cellProgram_, true);
  int mode = 0;
  if (scene.shownField_ != ColorField::kNone) {
    if (!isCategorical(scene.shownField_)) mode = 1;
    else mode = colorFieldDomain(scene.shownField_) == FieldDomain::kTet ? 2 : 3;
  }
  cellProgram_.set("uColorMode", mode);
  cellProgram_.set("uAlbedo", settings.cellAlbedo);
  cellProgram_.set("uRange", glm::vec2(scene.displayMin_, scene.displayMax_));
  cellProgram_.set("uEdgeColor", settings.cellEdgeColor);
  // The shaded boundary shows the tet mesh's faces lightly; cut-away cells get crisp edges.
  cellProgram_.set("uEdgeStrength", view.mode == ViewMode::kCutaway ? 0.85f : 0.35f);
  cellProgram_.set("uEdgeWidth", 1.0f);
  glBindVertexArray(scene.cellBuffer_.vao.id());
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(scene.cellBuffer_.count));
  glBindVertexArray(0);
}

// Strands as opaque depth-tested lines of one colour, as wide as the driver allows.
void Renderer::drawSimStrands(const SimView& scene, const OrbitCamera& camera, const glm::mat4& viewProj,
                              const RenderSettings& settings) const {
  if (scene.strandBuffer_.count == 0) return;
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);
  lineProgram_.use();
  lineProgram_.set("uViewProj", viewProj);
  setColorTables(lineProgram_, true);
  lineProgram_.set("uColorMode", 0);
  lineProgram_.set("uColor", settings.strandColor);
  lineProgram_.set("uRange", glm::vec2(0.0f, 1.0f));
  lineProgram_.set("uAlpha", 1.0f);
  lineProgram_.set("uEye", camera.eye());
  lineProgram_.set("uForward", camera.forward());
  lineProgram_.set("uDepthRange", glm::vec2(0.0f, 1.0f));
  lineProgram_.set("uFarFade", 1.0f);
  const bool wide = beginWideLines(settings.strandWidth);
  glBindVertexArray(scene.strandBuffer_.vao.id());
  glDrawArrays(GL_LINES, 0, GLsizei(scene.strandBuffer_.count));
  glBindVertexArray(0);
  if (wide) glLineWidth(1.0f);
}

void Renderer::drawSimLines(const SimView& scene, const ViewSettings& view, const OrbitCamera& camera,
                            const glm::mat4& viewProj, const RenderSettings& settings) const {
  if (scene.lineBuffer_.count == 0) return;
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_FALSE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  lineProgram_.use();
  lineProgram_.set("uViewProj", viewProj);
  setColorTables(lineProgram_, true);
  int mode = 0;
  if (scene.shownField_ != ColorField::kNone) mode = isCategorical(scene.shownField_) ? 2 : 1;
  lineProgram_.set("uColorMode", mode);
  lineProgram_.set("uColor", settings.wireColor);
  lineProgram_.set("uRange", glm::vec2(scene.displayMin_, scene.displayMax_));
  lineProgram_.set("uAlpha", std::clamp(view.wireOpacity, 0.0f, 1.0f));
  // Depth cue over the body's bounding sphere as seen from the eye.
  const glm::vec3 centre = scene.bounds().center();
  const float radius = 0.5f * glm::length(scene.bounds().size());
  const float centreDepth = glm::dot(centre - camera.eye(), camera.forward());
  lineProgram_.set("uEye", camera.eye());
  lineProgram_.set("uForward", camera.forward());
  lineProgram_.set("uDepthRange", glm::vec2(centreDepth - radius, centreDepth + radius));
  lineProgram_.set("uFarFade", 0.25f);
  glBindVertexArray(scene.lineBuffer_.vao.id());
  glDrawArrays(GL_LINES, 0, GLsizei(scene.lineBuffer_.count));
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void Renderer::drawSimOverlays(const SimView& scene, const ViewSettings& view, const OrbitCamera& camera,
                               const glm::mat4& viewProj, glm::ivec2 viewportSize, const RenderSettings& settings) const {
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_BLEND);
  glDepthMask(GL_TRUE);
  if (view.showColliders && scene.colliderMesh_) {
    meshProgram_.use();
    setLighting(meshProgram_, camera, viewProj, settings);
    meshProgram_.set("uAlbedo", settings.colliderAlbedo);
    meshProgram_.set("uColorMode", 0);
    meshProgram_.set("uClipEnabled", 0);
    meshProgram_.set("uBackfaceDim", 1.0f);
    meshProgram_.set("uAlpha", 1.0f);
    scene.colliderMesh_->draw();
  }

  const glm::mat4 projection = camera.projectionMatrix(float(viewportSize.x) / float(viewportSize.y));
  auto drawPoints = [&](const SimView::DynamicBuffer& buffer, float radius, glm::vec3 color) {
    if (buffer.count == 0) return;
    glEnable(GL_PROGRAM_POINT_SIZE);
    pointProgram_.use();
    pointProgram_.set("uViewProj", viewProj);
    pointProgram_.set("uRadius", radius);
    pointProgram_.set("uViewportHeight", float(viewportSize.y));
    pointProgram_.set("uProjScale", projection[1][1]);
    pointProgram_.set("uColor", color);
    glBindVertexArray(buffer.vao.id());
    glDrawArrays(GL_POINTS, 0, GLsizei(buffer.count));
    glBindVertexArray(0);
    glDisable(GL_PROGRAM_POINT_SIZE);
  };
  if (view.showPins) drawPoints(scene.pinBuffer_, scene.pinRadius_, settings.pinColor);

  if (view.showSprings && (scene.springAnchorBuffer_.count > 0 || scene.springBuffer_.count > 0)) {
    // Anchor springs, one draw each (a scene has a handful), coloured by load:
    // pale when slack, yellow at half the limit, red about to break.
    if (scene.springBuffer_.count > 0) {
      lineProgram_.use();
      lineProgram_.set("uViewProj", viewProj);
      lineProgram_.set("uColorMode", 0);
      lineProgram_.set("uAlpha", 1.0f);
      lineProgram_.set("uFarFade", 1.0f);
      const bool wide = beginWideLines(settings.springWidth);
      glBindVertexArray(scene.springBuffer_.vao.id());
      for (size_t k = 0; k + 1 < scene.springBuffer_.count; k += 2) {
        const float load = scene.springLines_[k].value;
        const glm::vec3 slack(0.85f, 0.88f, 0.92f), half(1.0f, 0.82f, 0.22f), breaking(0.95f, 0.18f, 0.12f);
        lineProgram_.set("uColor", load < 0.5f ? glm::mix(slack, half, 2.0f * load)
                                               : glm::mix(half, breaking, 2.0f * load - 1.0f));
        glDrawArrays(GL_LINES, GLint(k), 2);
      }
      glBindVertexArray(0);
      if (wide) glLineWidth(1.0f);
    }
    drawPoints(scene.springAnchorBuffer_, scene.pinRadius_, settings.springAnchorColor);
  }
  if (view.showAttachment && scene.attachmentActive_) {
    // The drag line is drawn over everything (no depth test) so it never hides inside the body.
    glDisable(GL_DEPTH_TEST);
    lineProgram_.use();
    lineProgram_.set("uViewProj", viewProj);
    lineProgram_.set("uColorMode", 0);
    lineProgram_.set("uColor", settings.attachmentColor);
    lineProgram_.set("uAlpha", 1.0f);
    lineProgram_.set("uFarFade", 1.0f);
    glBindVertexArray(scene.attachBuffer_.vao.id());
    glDrawArrays(GL_LINES, 0, 2);
    glBindVertexArray(0);
    drawPoints(scene.attachBuffer_, 0.8f * scene.pinRadius_, settings.attachmentColor);
    glEnable(GL_DEPTH_TEST);
  }
}

}  // namespace tetlab
