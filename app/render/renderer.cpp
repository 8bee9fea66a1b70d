// Background, shaded meshes and the ground grid; see renderer.h for the order.
#include "app/render/renderer.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>

namespace tetlab {

glm::vec3 backgroundColorAt(const RenderSettings& settings, float v) {
  return glm::mix(settings.backgroundBottom, settings.backgroundTop, std::clamp(v, 0.0f, 1.0f));
}

// ---- GpuMesh ----

Result<GpuMesh> GpuMesh::create(const SurfaceMesh& mesh) {
  if (mesh.positions.empty() || mesh.triangles.empty())
    return Error{"cannot draw an empty mesh (" + std::to_string(mesh.positions.size()) + " vertices, " +
                 std::to_string(mesh.triangles.size()) + " triangles)"};
  for (const glm::uvec3& t : mesh.triangles)
    if (t.x >= mesh.positions.size() || t.y >= mesh.positions.size() || t.z >= mesh.positions.size())
      return Error{"cannot draw mesh: a triangle index is out of range (" + std::to_string(mesh.positions.size()) +
                   " vertices)"};

  GpuMesh gpu;
  gpu.vao_ = makeGlVertexArray();
  gpu.positionBuffer_ = makeGlBuffer();
  gpu.normalBuffer_ = makeGlBuffer();
  gpu.indexBuffer_ = makeGlBuffer();
  gpu.triangles_ = mesh.triangles;
  gpu.vertexCount_ = mesh.positions.size();
  gpu.indexCount_ = mesh.triangles.size() * 3;
  const auto vertexBytes = static_cast<GLsizeiptr>(mesh.positions.size() * sizeof(glm::vec3));

  glBindVertexArray(gpu.vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, gpu.positionBuffer_.id());
  glBufferData(GL_ARRAY_BUFFER, vertexBytes, nullptr, GL_DYNAMIC_DRAW);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
  glEnableVertexAttribArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, gpu.normalBuffer_.id());
  glBufferData(GL_ARRAY_BUFFER, vertexBytes, nullptr, GL_DYNAMIC_DRAW);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
  glEnableVertexAttribArray(1);
  // The element buffer binding is VAO state: bind it while the VAO is bound.
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gpu.indexBuffer_.id());
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.triangles.size() * sizeof(glm::uvec3)),
               mesh.triangles.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  if (Status s = gpu.updatePositions(mesh.positions); !s) return s.error();
  return gpu;
}

Status GpuMesh::updatePositions(const std::vector<glm::vec3>& positions) {
  if (positions.size() != vertexCount_)
    return Error{"mesh update has " + std::to_string(positions.size()) + " vertices, the mesh has " +
                 std::to_string(vertexCount_)};
  computeVertexNormals(positions, triangles_, normals_);
  bounds_ = computeBounds(positions);
  const auto bytes = static_cast<GLsizeiptr>(positions.size() * sizeof(glm::vec3));
  glBindBuffer(GL_ARRAY_BUFFER, positionBuffer_.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, positions.data());
  glBindBuffer(GL_ARRAY_BUFFER, normalBuffer_.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, normals_.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return Ok{};
}

void GpuMesh::draw() const {
  glBindVertexArray(vao_.id());
  glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(indexCount_), GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
}

// ---- Renderer ----

Result<Renderer> Renderer::create() {
  Renderer r;
  struct Stage {
    ShaderProgram* program;
    const char* vertex;
    const char* fragment;
  };
  const Stage stages[] = {{&r.backgroundProgram_, "gl/background.vert", "gl/background.frag"},
                          {&r.meshProgram_, "gl/mesh.vert", "gl/mesh.frag"},
                          {&r.gridProgram_, "gl/grid.vert", "gl/grid.frag"},
                          {&r.cellProgram_, "gl/cells.vert", "gl/cells.frag"},
                          {&r.lineProgram_, "gl/lines.vert", "gl/lines.frag"},
                          {&r.pointProgram_, "gl/points.vert", "gl/points.frag"}};
  for (const Stage& stage : stages) {
    Result<ShaderProgram> program = loadShaderProgram(stage.vertex, stage.fragment);
    if (!program) return program.error();
    *stage.program = std::move(*program);
  }

  r.emptyVao_ = makeGlVertexArray();
  r.gridVao_ = makeGlVertexArray();
  r.gridBuffer_ = makeGlBuffer();
  const float corners[] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};
  glBindVertexArray(r.gridVao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, r.gridBuffer_.id());
  glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  glEnableVertexAttribArray(0);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return r;
}

void Renderer::render(const OrbitCamera& camera, glm::ivec2 viewportSize, std::span<const GpuMesh* const> meshes,
                      const RenderSettings& settings, std::span<const glm::vec3> albedos) const {
  if (viewportSize.x <= 0 || viewportSize.y <= 0) return;  // minimised window
  glViewport(0, 0, viewportSize.x, viewportSize.y);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_CULL_FACE);
  glDepthMask(GL_TRUE);
  glClearDepth(1.0);
  glClear(GL_DEPTH_BUFFER_BIT);

  const float aspect = static_cast<float>(viewportSize.x) / static_cast<float>(viewportSize.y);
  const glm::mat4 viewProj = camera.projectionMatrix(aspect) * camera.viewMatrix();
  drawBackground(settings);
  drawMeshes(camera, viewProj, meshes, settings, albedos);
  bool any = false;
  Bounds scene;
  for (const GpuMesh* mesh : meshes) {
    if (mesh == nullptr) continue;
    scene =
        any ? Bounds{glm::min(scene.min, mesh->bounds().min), glm::max(scene.max, mesh->bounds().max)} : mesh->bounds();
    any = true;
  }
  drawGround(camera, viewProj, any ? &scene : nullptr, 0.0f, settings);
  glUseProgram(0);
}

void Renderer::renderGhostMeshes(const OrbitCamera& camera, glm::ivec2 viewportSize,
                                 std::span<const GpuMesh* const> meshes, const RenderSettings& settings,
                                 std::span<const glm::vec3> tints, float opacity) const {
  if (viewportSize.x <= 0 || viewportSize.y <= 0) return;
  glViewport(0, 0, viewportSize.x, viewportSize.y);
  const float aspect = static_cast<float>(viewportSize.x) / static_cast<float>(viewportSize.y);
  const glm::mat4 viewProj = camera.projectionMatrix(aspect) * camera.viewMatrix();
  meshProgram_.use();
  setLighting(meshProgram_, camera, viewProj, settings);
  meshProgram_.set("uColorMode", 0);
  meshProgram_.set("uClipEnabled", 0);
  meshProgram_.set("uBackfaceDim", 1.0f);
  meshProgram_.set("uTwoTone", 0);
  beginGhostPass(opacity, true);
  for (size_t i = 0; i < meshes.size(); ++i) {
    if (meshes[i] == nullptr) continue;
    if (i < tints.size()) meshProgram_.set("uAlbedo", tints[i]);
    meshes[i]->draw();
  }
  endGhostPass();
  glUseProgram(0);
}

void Renderer::beginGhostPass(float opacity, bool overlay) const {
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  glEnable(GL_CULL_FACE);  // front faces only: one layer per ghost, no sorting needed
  glCullFace(GL_BACK);
  // A ghost over a nearly coincident body (the compare and deformer overlays)
  // would z-fight with it depth-tested: it is laid over whole, and the offsets read as fringes.
  if (overlay) glDisable(GL_DEPTH_TEST);
  meshProgram_.set("uAlpha", std::clamp(opacity, 0.0f, 1.0f));
}

void Renderer::endGhostPass() const {
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glDepthMask(GL_TRUE);
}

void Renderer::drawBackground(const RenderSettings& settings) const {
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  backgroundProgram_.use();
  backgroundProgram_.set("uTopColor", settings.backgroundTop);
  backgroundProgram_.set("uBottomColor", settings.backgroundBottom);
  glBindVertexArray(emptyVao_.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
}

void Renderer::setLighting(const ShaderProgram& program, const OrbitCamera& camera, const glm::mat4& viewProj,
                           const RenderSettings& settings) const {
  // Key light up and to the left of the viewer, fill from the lower right: a
  // classic three-quarter studio setup that follows the camera.
  const glm::vec3 f = camera.forward(), r = camera.right(), u = camera.up();
  program.set("uViewProj", viewProj);
  program.set("uEye", camera.eye());
  program.set("uKeyDir", glm::normalize(-0.65f * r + 0.9f * u - 0.25f * f));
  program.set("uFillDir", glm::normalize(0.9f * r + 0.05f * u - 0.45f * f));
  program.set("uAlbedo", settings.albedo);
  program.set("uSkyColor", settings.skyAmbient);
  program.set("uGroundColor", settings.groundAmbient);
  program.set("uShininess", settings.shininess);
  program.set("uSpecular", settings.specular);
}

void Renderer::drawMeshes(const OrbitCamera& camera, const glm::mat4& viewProj, std::span<const GpuMesh* const> meshes,
                          const RenderSettings& settings, std::span<const glm::vec3> albedos) const {
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_BLEND);
  meshProgram_.use();
  setLighting(meshProgram_, camera, viewProj, settings);
  meshProgram_.set("uColorMode", 0);
  meshProgram_.set("uClipEnabled", 0);
  meshProgram_.set("uBackfaceDim", 1.0f);
  meshProgram_.set("uAlpha", 1.0f);
  for (size_t i = 0; i < meshes.size(); ++i) {
    if (meshes[i] == nullptr) continue;
    if (i < albedos.size()) meshProgram_.set("uAlbedo", albedos[i]);
    meshes[i]->draw();
  }
}

void Renderer::drawGround(const OrbitCamera& camera, const glm::mat4& viewProj, const Bounds* scene, float groundHeight,
                          const RenderSettings& settings) const {
  if (!settings.showGrid && !settings.showShadow) return;
  // Grid spacing follows the scene's size in decades (0.1 m cells for a 1 m body),
  // so the grid reads as a ruler whatever units the mesh was modelled in.
  const float extent =
      scene != nullptr ? std::max({scene->size().x, scene->size().y, scene->size().z}) : camera.distance * 0.5f;
  const float cell = std::pow(10.0f, std::round(std::log10(std::max(extent, 1e-4f)))) * 0.1f;
  const float fadeRadius = std::max(camera.distance * 2.5f, extent * 4.0f);

  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_FALSE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  gridProgram_.use();
  gridProgram_.set("uViewProj", viewProj);
  gridProgram_.set("uCenter", glm::vec2(camera.target.x, camera.target.z));
  gridProgram_.set("uExtent", fadeRadius);
  gridProgram_.set("uHeight", groundHeight);
  gridProgram_.set("uCell", cell);
  gridProgram_.set("uFadeCenter", glm::vec2(camera.target.x, camera.target.z));
  gridProgram_.set("uFadeRadius", fadeRadius);
  gridProgram_.set("uLineColor", settings.gridLineColor);
  gridProgram_.set("uLineAlpha", settings.showGrid ? settings.gridLineAlpha : 0.0f);
  // The shadow is an ellipse under the bodies' footprint, weaker as they rise off the ground.
  glm::vec2 shadowRadius(0.0f);
  float shadowStrength = 0.0f;
  if (settings.showShadow && scene != nullptr) {
    shadowRadius = 0.75f * glm::vec2(scene->size().x, scene->size().z) + glm::vec2(0.08f * extent);
    const float height = std::max(scene->min.y - groundHeight, 0.0f);
    shadowStrength = settings.shadowStrength / (1.0f + 4.0f * height / std::max(extent, 1e-4f));
  }
  const glm::vec3 centre = scene != nullptr ? scene->center() : glm::vec3(0.0f);
  gridProgram_.set("uShadowCenter", glm::vec2(centre.x, centre.z));
  gridProgram_.set("uShadowRadius", shadowRadius);
  gridProgram_.set("uShadowStrength", shadowStrength);
  glBindVertexArray(gridVao_.id());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

}  // namespace tetlab
