// SimView: per-frame CPU work (embedding, fields, view geometry) and its
// upload; the drawing is in app/render/view_render.cpp. See view_scene.h.
#include "app/render/view_scene.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include <glm/geometric.hpp>

#include "app/render/colormap.h"

namespace tetlab {

RenderSurface boundaryRenderSurface(const SimModel& model, int body) {
  RenderSurface surface;
  surface.name = body < 0 ? "body" : "body" + std::to_string(body);
  std::vector<uint32_t> renderIndex(model.vertexCount(), std::numeric_limits<uint32_t>::max());
  for (const glm::uvec3& tri : model.boundaryTriangles) {
    if (body >= 0 && (tri.x >= model.vertexBody.size() || model.vertexBody[tri.x] != uint32_t(body))) continue;
    glm::uvec3 local;
    for (int k = 0; k < 3; ++k) {
      uint32_t& r = renderIndex[tri[k]];
      if (r == std::numeric_limits<uint32_t>::max()) {
        r = uint32_t(surface.embedding.vertices.size());
        surface.embedding.vertices.push_back(glm::uvec4(tri[k]));
        surface.embedding.weights.push_back(glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
        const uint32_t first = model.vertexTets.offsets.size() > tri[k] + 1u &&
                                       model.vertexTets.offsets[tri[k]] < model.vertexTets.offsets[tri[k] + 1]
                                   ? model.vertexTets.items[model.vertexTets.offsets[tri[k]]] / 4
                                   : 0u;
        surface.embedding.tet.push_back(first);
      }
      local[k] = r;
    }
    surface.triangles.push_back(local);
  }
  return surface;
}

std::vector<RenderSurface> renderSurfacesFrom(std::span<const BodySurface> surfaces) {
  std::vector<RenderSurface> out;
  out.reserve(surfaces.size());
  for (const BodySurface& s : surfaces)
    if (!s.surface.triangles.empty())  // a strand body has none: it is drawn as lines
      out.push_back(RenderSurface{s.name, s.surface.triangles, s.embedding, s.cloth});
  return out;
}

Status validateRenderSurface(const SimModel& model, const RenderSurface& surface) {
  const std::string name = "render surface '" + surface.name + "'";
  const SurfaceEmbedding& e = surface.embedding;
  if (e.vertices.size() != e.weights.size())
    return Error{name + ": the embedding has " + std::to_string(e.vertices.size()) + " vertex rows but " +
                 std::to_string(e.weights.size()) + " weight rows"};
  if (e.vertices.empty() || surface.triangles.empty()) return Error{name + " is empty"};
  for (size_t i = 0; i < e.vertices.size(); ++i) {
    for (int k = 0; k < 4; ++k)
      if (e.vertices[i][k] >= model.vertexCount() || !std::isfinite(e.weights[i][k]))
        return Error{name + ": render vertex " + std::to_string(i) + " is embedded in vertex " +
                     std::to_string(e.vertices[i][k]) + " of a model with " + std::to_string(model.vertexCount()) +
                     " vertices (or has a non-finite weight): was the embedding offset for this body?"};
  }
  for (const glm::uvec3& t : surface.triangles)
    if (t.x >= e.vertices.size() || t.y >= e.vertices.size() || t.z >= e.vertices.size())
      return Error{name + ": a triangle index is out of range (" + std::to_string(e.vertices.size()) + " vertices)"};
  return Ok{};
}

namespace {

void setupAttribute(GLuint index, GLint components, size_t stride, size_t offset) {
  glVertexAttribPointer(index, components, GL_FLOAT, GL_FALSE, GLsizei(stride),
                        reinterpret_cast<const void*>(offset));
  glEnableVertexAttribArray(index);
}

size_t hashColliders(const Colliders& c) {
  // Cheap change detection: hash the raw bytes of every collider parameter.
  size_t h = c.planes.size() * 7 + c.spheres.size() * 31 + c.boxes.size() * 131 + c.capsules.size() * 1031 +
             c.tori.size() * 10007 + c.meshes.size() * 100003;
  auto mix = [&h](const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) h = h * 1099511628211ull ^ p[i];
  };
  for (const PlaneCollider& p : c.planes) mix(&p, sizeof(p));
  for (const SphereCollider& s : c.spheres) mix(&s, sizeof(s));
  for (const BoxCollider& b : c.boxes) mix(&b, sizeof(b));
  for (const CapsuleCollider& k : c.capsules) mix(&k, sizeof(k));
  for (const TorusCollider& t : c.tori) mix(&t, sizeof(t));
  for (const MeshCollider& m : c.meshes) {  // the placement and the loaded surface, not the path text
    mix(&m.center, sizeof(m.center));
    mix(&m.size, sizeof(m.size));
    mix(&m.rotation, sizeof(m.rotation));
    const void* surface = m.surface.get();
    mix(&surface, sizeof(surface));
  }
  return h;
}

}  // namespace

Result<SimView> SimView::create(const SimModel& model, std::vector<RenderSurface> surfaces) {
  if (model.vertexCount() == 0 || (model.tetCount() == 0 && !model.hasCloth() && !model.hasStrands()))
    return Error{"cannot view an empty model"};
  if (surfaces.empty() && !model.boundaryTriangles.empty()) surfaces.push_back(boundaryRenderSurface(model));
  SimView view;
  view.modelVertices_ = model.vertexCount();
  view.modelTets_ = model.tetCount();
  for (const glm::uvec2& seg : model.strandSegments) {
    view.strandVertices_.push_back(seg.x);
    view.strandVertices_.push_back(seg.y);
  }
  std::sort(view.strandVertices_.begin(), view.strandVertices_.end());
  view.strandVertices_.erase(std::unique(view.strandVertices_.begin(), view.strandVertices_.end()),
                             view.strandVertices_.end());
  view.faceTets_ = boundaryFaceTets(model);
  view.neighbors_ = tetFaceNeighbors(model);
  const Bounds rest = computeBounds(model.restPositions);
  view.gridFallbackHeight_ = rest.min.y - 0.25f * std::max({rest.size().x, rest.size().y, rest.size().z});
  for (RenderSurface& source : surfaces) {
    if (Status s = validateRenderSurface(model, source); !s) return s.error();
    Surface s;
    const size_t n = source.embedding.vertices.size();
    s.positions.assign(n, glm::vec3(0.0f));
    s.normals.assign(n, glm::vec3(0.0f, 1.0f, 0.0f));
    s.scalars.assign(n, 0.0f);
    s.vao = makeGlVertexArray();
    s.positionBuffer = makeGlBuffer();
    s.normalBuffer = makeGlBuffer();
    s.scalarBuffer = makeGlBuffer();
    s.indexBuffer = makeGlBuffer();
    s.indexCount = source.triangles.size() * 3;
    glBindVertexArray(s.vao.id());
    const auto vec3Bytes = GLsizeiptr(n * sizeof(glm::vec3));
    glBindBuffer(GL_ARRAY_BUFFER, s.positionBuffer.id());
    glBufferData(GL_ARRAY_BUFFER, vec3Bytes, nullptr, GL_DYNAMIC_DRAW);
    setupAttribute(0, 3, sizeof(glm::vec3), 0);
    glBindBuffer(GL_ARRAY_BUFFER, s.normalBuffer.id());
    glBufferData(GL_ARRAY_BUFFER, vec3Bytes, nullptr, GL_DYNAMIC_DRAW);
    setupAttribute(1, 3, sizeof(glm::vec3), 0);
    glBindBuffer(GL_ARRAY_BUFFER, s.scalarBuffer.id());
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(n * sizeof(float)), s.scalars.data(), GL_DYNAMIC_DRAW);
    setupAttribute(2, 1, sizeof(float), 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, s.indexBuffer.id());
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(source.triangles.size() * sizeof(glm::uvec3)),
                 source.triangles.data(), GL_STATIC_DRAW);
    glBindVertexArray(0);
    s.source = std::move(source);
    view.surfaces_.push_back(std::move(s));
  }

  // Dynamic buffers: cells (CellVertex), lines (LineVertex), points (vec3).
  for (DynamicBuffer* b :
       {&view.cellBuffer_, &view.lineBuffer_, &view.pinBuffer_, &view.attachBuffer_, &view.strandBuffer_,
        &view.springBuffer_, &view.springAnchorBuffer_}) {
    b->vao = makeGlVertexArray();
    b->buffer = makeGlBuffer();
  }
  glBindVertexArray(view.cellBuffer_.vao.id());
  glBindBuffer(GL_ARRAY_BUFFER, view.cellBuffer_.buffer.id());
  setupAttribute(0, 3, sizeof(CellVertex), offsetof(CellVertex, position));
  setupAttribute(1, 3, sizeof(CellVertex), offsetof(CellVertex, normal));
  setupAttribute(2, 3, sizeof(CellVertex), offsetof(CellVertex, barycentric));
  setupAttribute(3, 3, sizeof(CellVertex), offsetof(CellVertex, values));
  for (DynamicBuffer* b : {&view.lineBuffer_, &view.attachBuffer_, &view.strandBuffer_, &view.springBuffer_}) {
    glBindVertexArray(b->vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, b->buffer.id());
    setupAttribute(0, 3, sizeof(LineVertex), offsetof(LineVertex, position));
    setupAttribute(1, 1, sizeof(LineVertex), offsetof(LineVertex, value));
  }
  for (DynamicBuffer* b : {&view.pinBuffer_, &view.springAnchorBuffer_}) {
    glBindVertexArray(b->vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, b->buffer.id());
    setupAttribute(0, 3, sizeof(glm::vec3), 0);
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return view;
}

void SimView::fill(DynamicBuffer& b, const void* data, size_t bytes, size_t count) {
  glBindBuffer(GL_ARRAY_BUFFER, b.buffer.id());
  if (bytes > b.capacityBytes) {
    // Grow by half again so a slowly moving cut plane does not reallocate every frame.
    b.capacityBytes = std::max(bytes + bytes / 2, size_t(4096));
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(b.capacityBytes), nullptr, GL_STREAM_DRAW);
  } else {
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(b.capacityBytes), nullptr, GL_STREAM_DRAW);  // orphan: no stall
  }
  if (bytes > 0) glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(bytes), data);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  b.count = count;
}

void SimView::uploadSurface(Surface& s, bool withScalars) {
  if (!externalSurfaces_) {
    const auto bytes = GLsizeiptr(s.positions.size() * sizeof(glm::vec3));
    glBindBuffer(GL_ARRAY_BUFFER, s.positionBuffer.id());
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, s.positions.data());
    glBindBuffer(GL_ARRAY_BUFFER, s.normalBuffer.id());
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, s.normals.data());
  }
  if (withScalars) {
    glBindBuffer(GL_ARRAY_BUFFER, s.scalarBuffer.id());
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(s.scalars.size() * sizeof(float)), s.scalars.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void SimView::updateRange(const ViewSettings& view, std::span<const float> shown) {
  float maxValue = 0.0f;
  bool any = false;
  for (float v : shown)
    if (std::isfinite(v)) maxValue = any ? std::max(maxValue, v) : v, any = true;
  trueMax_ = any ? maxValue : 0.0f;
  if (isCategorical(view.field)) {
    categoryCount_ = any ? int(std::lround(maxValue)) + 1 : 0;
    displayMin_ = 0.0f;
    displayMax_ = float(std::max(categoryCount_ - 1, 0));
    return;
  }
  categoryCount_ = 0;
  if (view.field != shownField_ || !view.autoRange) smoothedMax_ = -1.0f;  // a new field starts its own range
  if (view.autoRange) {
    float top = maxValue;
    if (any && view.rangePercentile < 100.0f) {
      rangeScratch_.clear();
      for (float v : shown)
        if (std::isfinite(v)) rangeScratch_.push_back(v);
      const float q = std::clamp(view.rangePercentile, 0.0f, 100.0f) / 100.0f;
      const auto k = static_cast<std::ptrdiff_t>(std::lround(q * float(rangeScratch_.size() - 1)));
      std::nth_element(rangeScratch_.begin(), rangeScratch_.begin() + k, rangeScratch_.end());
      top = rangeScratch_[size_t(k)];
      // Nearly constant fields (everything at rest) keep the max so they are not all "top colour".
      if (!(top > 0.0f)) top = maxValue;
    }
    smoothedMax_ = smoothRangeMax(smoothedMax_, any ? std::max(top, 0.0f) : 0.0f);
    displayMin_ = 0.0f;
    displayMax_ = smoothedMax_;
  } else {
    displayMin_ = view.rangeMin;
    displayMax_ = view.rangeMax;
  }
}

void SimView::update(const SimModel& model, const State& state, const Colliders& colliders, const ViewSettings& view) {
  if (state.x.size() != model.vertexCount() || model.vertexCount() != modelVertices_ ||
      model.tetCount() != modelTets_)
    return;
  const std::span<const glm::vec4> x = state.x;

  glm::vec3 centre;
  float radius;
  embedSurfaces(x, centre, radius);
  const bool hasField = computeFieldValues(model, state, colliders, view.field);
  const std::span<const float> shown = buildModeGeometry(model, x, view, hasField, centre, radius);
  // updateRange compares view.field with the field shown so far: set shownField_ after it.
  updateRange(view, shown);
  shownField_ = hasField ? view.field : ColorField::kNone;
  uploadGeometry();
  // Strands have no surface: their segments are drawn as lines in every mode.
  strandLines_.clear();
  for (const glm::uvec2& seg : model.strandSegments) {
    strandLines_.push_back({glm::vec3(x[seg.x]), 0.0f});
    strandLines_.push_back({glm::vec3(x[seg.y]), 0.0f});
  }
  fill(strandBuffer_, strandLines_.data(), strandLines_.size() * sizeof(LineVertex), strandLines_.size());
  // After embedSurfaces: the pin radius scales with this frame's bounds.
  updateOverlays(x, state.mouse, colliders, view);
  updateSpringLines(x, state.springs);
}

void SimView::updateSpringLines(std::span<const glm::vec4> x, const AnchorSprings& springs) {
  springLines_.clear();
  springAnchors_.clear();
  if (!springs.empty()) {
    springX_.resize(springs.subCount());
    for (uint32_t j = 0; j < springs.subCount(); ++j)
      springX_[j] = springs.vertex[j] < x.size() ? x[springs.vertex[j]] : springs.anchor[j];
    for (uint32_t s = 0; s < springs.springs.size(); ++s) {
      const AnchorSpring& spring = springs.springs[s];
      if (spring.count == 0) continue;
      // The mean of the sub-springs' anchors: the spring's anchor, or where a
      // compliant keyed region's keys put its patch now (then no anchor point: it is inside the body).
      glm::vec3 a(0.0f), c(0.0f);
      for (uint32_t j = spring.first; j < spring.first + spring.count; ++j) {
        a += glm::vec3(springs.anchor[j]);
        c += glm::vec3(springX_[j]);
      }
      a /= float(spring.count);
      c /= float(spring.count);
      if (spring.pinRegion < 0) springAnchors_.push_back(a);
      if (spring.broken || spring.slack) continue;
      float load = 0.0f;
      if (spring.breakForce > 0.0f) load = glm::length(anchorSpringForce(springs, s, springX_)) / spring.breakForce;
      if (spring.breakStrain > 0.0f) load = std::max(load, anchorSpringStrain(springs, s, springX_) / spring.breakStrain);
      load = std::clamp(load, 0.0f, 1.0f);
      springLines_.push_back({a, load});
      springLines_.push_back({c, load});
    }
  }
  fill(springBuffer_, springLines_.data(), springLines_.size() * sizeof(LineVertex), springLines_.size());
  fill(springAnchorBuffer_, springAnchors_.data(), springAnchors_.size() * sizeof(glm::vec3), springAnchors_.size());
}

void SimView::embedSurfaces(std::span<const glm::vec4> x, glm::vec3& centre, float& radius) {
  // Render surfaces follow the tets (embedding.h); the bounds cover both.
  boundingSphere(x, centre, radius);
  bounds_ = Bounds{centre, centre};
  if (!x.empty()) {
    glm::vec3 lo(x[0]), hi(x[0]);
    for (const glm::vec4& p : x) lo = glm::min(lo, glm::vec3(p)), hi = glm::max(hi, glm::vec3(p));
    bounds_ = Bounds{lo, hi};
  }
  for (Surface& s : surfaces_) {
    if (externalSurfaces_) break;  // the OpenCL kernels fill the GL buffer; bounds from x alone
    applyEmbedding(s.source.embedding, x, s.positions);
    computeVertexNormals(s.positions, s.source.triangles, s.normals);
    const Bounds b = computeBounds(s.positions);
    bounds_ = Bounds{glm::min(bounds_.min, b.min), glm::max(bounds_.max, b.max)};
  }
}

bool SimView::computeFieldValues(const SimModel& model, const State& state, const Colliders& colliders,
                                 ColorField fieldKind) {
  FieldInputs inputs{&model, state.x, state.v, &colliders};
  computeField(fieldKind, inputs, field_);
  const bool perTet = field_.domain == FieldDomain::kTet;
  const bool hasField = fieldKind != ColorField::kNone && !field_.values.empty();
  perVertex_.clear();
  if (hasField) {
    if (perTet && !isCategorical(fieldKind)) averageTetsToVertices(model, field_.values, perVertex_);
    else if (!perTet) perVertex_ = field_.values;
  }
  return hasField;
}

std::span<const float> SimView::buildModeGeometry(const SimModel& model, std::span<const glm::vec4> x,
                                                  const ViewSettings& view, bool hasField, glm::vec3 centre,
                                                  float radius) {
  drawSurfaces_ = drawCells_ = drawLines_ = surfaceScalars_ = false;
  switch (view.mode) {
    case ViewMode::kShaded: return buildShaded(model, x, view, hasField);
    case ViewMode::kWireframe: return buildWireframe(model, x, view, hasField);
    case ViewMode::kCutaway: return buildCutaway(model, x, view, hasField, centre, radius);
  }
  return {};
}

std::span<const float> SimView::buildShaded(const SimModel& model, std::span<const glm::vec4> x,
                                            const ViewSettings& view, bool hasField) {
  const bool perTet = field_.domain == FieldDomain::kTet;
  if (hasField && isCategorical(view.field)) {
    // Graph colours belong to the tet mesh: show its own boundary faces.
    buildBoundaryCells(model, x, faceTets_, perTet ? std::span<const float>(field_.values) : std::span<const float>(),
                       perTet ? std::span<const float>() : std::span<const float>(perVertex_), cells_);
    drawCells_ = true;
    return field_.values;
  }
  drawSurfaces_ = true;
  if (!hasField) return {};
  scratch_.clear();
  for (Surface& s : surfaces_) {
    sampleAtEmbedding(s.source.embedding, perVertex_, s.scalars);
    scratch_.insert(scratch_.end(), s.scalars.begin(), s.scalars.end());
  }
  surfaceScalars_ = true;
  return scratch_;
}

std::span<const float> SimView::buildWireframe(const SimModel& model, std::span<const glm::vec4> x,
                                               const ViewSettings& view, bool hasField) {
  drawLines_ = true;
  drawSurfaces_ = view.ghostOpacity > 0.0f;
  if (hasField && view.field == ColorField::kElementColor) {
    edgeColorIndices(model, perEdge_);  // the wireframe's elements are its edges
    buildEdgeLines(model, x, {}, perEdge_, lines_);
    return perEdge_;
  }
  buildEdgeLines(model, x, hasField ? std::span<const float>(perVertex_) : std::span<const float>(), {}, lines_);
  return perVertex_;
}

std::span<const float> SimView::buildCutaway(const SimModel& model, std::span<const glm::vec4> x,
                                             const ViewSettings& view, bool hasField, glm::vec3 centre,
                                             float radius) {
  const bool perTet = field_.domain == FieldDomain::kTet;
  cut_ = makeCutPlane(view.cutNormal, view.cutOffset, centre, radius);
  selectTetsBehindPlane(model, x, cut_, cutScratch_);
  keepExposedLayers(neighbors_, cutScratch_, view.cutLayers, keptTets_);
  buildTetCells(model, x, keptTets_, view.tetShrink,
                hasField && perTet ? std::span<const float>(field_.values) : std::span<const float>(),
                hasField && !perTet ? std::span<const float>(perVertex_) : std::span<const float>(), cells_);
  drawCells_ = true;
  drawSurfaces_ = view.cutShowSurface;
  if (!(hasField && perTet)) return perVertex_;
  scratch_.clear();
  for (uint32_t t : keptTets_) scratch_.push_back(field_.values[t]);
  return scratch_;
}

void SimView::uploadGeometry() {
  for (Surface& s : surfaces_) uploadSurface(s, surfaceScalars_);
  if (drawCells_) fill(cellBuffer_, cells_.data(), cells_.size() * sizeof(CellVertex), cells_.size());
  if (drawLines_) fill(lineBuffer_, lines_.data(), lines_.size() * sizeof(LineVertex), lines_.size());
}

void SimView::updateOverlays(std::span<const glm::vec4> x, const Attachment& mouse, const Colliders& colliders,
                             const ViewSettings& view) {
  pinnedPositions(x, pins_);
  fill(pinBuffer_, pins_.data(), pins_.size() * sizeof(glm::vec3), pins_.size());
  const float size = glm::length(bounds_.size());
  pinRadius_ = view.pinRadius > 0.0f ? view.pinRadius : std::max(0.008f * size, 1e-4f);
  updateAttachmentLine(x, mouse);
  updateColliderMesh(colliders);
  // Without a ground plane the grid still gives scale and orientation: it sits
  // a little below the rest shape, fixed, so it does not follow a sagging body.
  groundEnabled_ = colliders.ground.enabled;
  groundHeight_ = colliders.ground.enabled ? colliders.ground.height : gridFallbackHeight_;
}

void SimView::updateAttachmentLine(std::span<const glm::vec4> x, const Attachment& mouse) {
  attachmentActive_ = false;
  if (!mouse.active || mouse.vertices.empty() || mouse.vertices.size() != mouse.weights.size()) return;
  glm::vec3 grabbed(0.0f);
  for (size_t k = 0; k < mouse.vertices.size(); ++k)
    if (mouse.vertices[k] < x.size()) grabbed += mouse.weights[k] * glm::vec3(x[mouse.vertices[k]]);
  const LineVertex line[2] = {{grabbed, 0.0f}, {mouse.target, 0.0f}};
  fill(attachBuffer_, line, sizeof(line), 2);
  attachmentActive_ = true;
}

void SimView::updateColliderMesh(const Colliders& colliders) {
  const size_t signature = hashColliders(colliders);
  if (signature == colliderSignature_) return;  // rebuilt only when a collider changed
  colliderSignature_ = signature;
  const SurfaceMesh mesh = makeColliderMeshes(colliders);
  colliderMesh_.reset();
  if (!mesh.triangles.empty())
    if (Result<GpuMesh> gpu = GpuMesh::create(mesh); gpu) colliderMesh_ = std::move(*gpu);
}

std::optional<ScenePick> SimView::pick(const Ray& ray, std::span<const glm::vec4> x) const {
  std::optional<ScenePick> best;
  std::vector<glm::vec3> embedded;  // external surfaces: embedded from x on the click only
  for (size_t i = 0; i < surfaces_.size(); ++i) {
    std::span<const glm::vec3> positions = surfaces_[i].positions;
    if (externalSurfaces_ && x.size() == modelVertices_) {
      embedded.resize(surfaces_[i].positions.size());
      applyEmbedding(surfaces_[i].source.embedding, x, embedded);
      positions = embedded;
    }
    const std::optional<SurfaceHit> hit = pickSurface(ray, positions, surfaces_[i].source.triangles);
    if (!hit || (best && hit->t >= best->hit.t)) continue;
    ScenePick pick;
    pick.surface = uint32_t(i);
    pick.hit = *hit;
    pick.attachment = embeddedAttachment(surfaces_[i].source.embedding, surfaces_[i].source.triangles[hit->triangle],
                                         hit->barycentric);
    pick.nearestVertex = nearestVertex(x, hit->point).value_or(0u);
    best = std::move(pick);
  }
  // Strands: the point within 1 degree of the cursor's ray, when nearer than any surface hit.
  if (const std::optional<PointHit> p = pickNearPoint(ray, x, strandVertices_, 0.0175f);
      p && (!best || p->t < best->hit.t)) {
    ScenePick pick;
    pick.surface = UINT32_MAX;
    pick.hit.t = p->t;
    pick.hit.point = glm::vec3(x[p->vertex]);
    pick.attachment.vertices = {p->vertex};
    pick.attachment.weights = {1.0f};
    pick.nearestVertex = p->vertex;
    best = std::move(pick);
  }
  return best;
}

Status SimView::useExternalSurfaceBuffer(GLuint buffer, std::span<const uint32_t> surfaceFirstVertex) {
  if (buffer == 0) return Error{"SimView: external surface buffer is 0 (not created?)"};
  if (surfaceFirstVertex.size() != surfaces_.size() + 1)
    return Error{"SimView: external surface layout has " + std::to_string(surfaceFirstVertex.size()) +
                 " offsets for " + std::to_string(surfaces_.size()) + " surfaces (expected surfaces + 1)"};
  for (size_t i = 0; i < surfaces_.size(); ++i)
    if (surfaceFirstVertex[i + 1] - surfaceFirstVertex[i] != surfaces_[i].positions.size())
      return Error{"SimView: external surface " + std::to_string(i) + " has " +
                   std::to_string(surfaceFirstVertex[i + 1] - surfaceFirstVertex[i]) + " vertices, the view " +
                   std::to_string(surfaces_[i].positions.size()) + " (built from other surfaces?)"};
  const size_t total = surfaceFirstVertex.back();
  constexpr size_t kVec4 = 4 * sizeof(float);
  for (size_t i = 0; i < surfaces_.size(); ++i) {
    glBindVertexArray(surfaces_[i].vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    // float4 entries read as vec3 (stride 16): no repacking on the device.
    setupAttribute(0, 3, kVec4, surfaceFirstVertex[i] * kVec4);
    setupAttribute(1, 3, kVec4, (total + surfaceFirstVertex[i]) * kVec4);
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  externalSurfaces_ = true;
  return Ok{};
}

void SimView::useOwnSurfaceBuffers() {
  for (Surface& s : surfaces_) {
    glBindVertexArray(s.vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, s.positionBuffer.id());
    setupAttribute(0, 3, sizeof(glm::vec3), 0);
    glBindBuffer(GL_ARRAY_BUFFER, s.normalBuffer.id());
    setupAttribute(1, 3, sizeof(glm::vec3), 0);
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  externalSurfaces_ = false;
}

void SimView::refreshCpuSurfaces(std::span<const glm::vec4> x) {
  if (x.size() != modelVertices_) return;
  for (Surface& s : surfaces_) {
    applyEmbedding(s.source.embedding, x, s.positions);
    computeVertexNormals(s.positions, s.source.triangles, s.normals);
  }
}

std::vector<ExportSurface> exportSurfacesOf(const SimView& view) {
  std::vector<ExportSurface> out;
  for (size_t i = 0; i < view.surfaceCount(); ++i)
    out.push_back(ExportSurface{view.surface(i).name, view.surfacePositions(i), view.surfaceNormals(i),
                                view.surface(i).triangles});
  return out;
}

}  // namespace tetlab
