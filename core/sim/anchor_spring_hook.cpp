#include "core/sim/anchor_spring_hook.h"

#include <algorithm>

#include <glm/geometric.hpp>

namespace tetlab {

AnchorSpringSpec hookSpecFromDrag(const SimModel& model, const Attachment& drag, float breakForce, std::string name) {
  AnchorSpringSpec spec;
  spec.name = std::move(name);
  glm::vec3 attach(0.0f);
  float weight = 0.0f;
  for (size_t k = 0; k < drag.vertices.size() && k < drag.weights.size(); ++k) {
    if (drag.vertices[k] >= model.vertexCount()) continue;
    attach += drag.weights[k] * model.restPositions[drag.vertices[k]];
    weight += drag.weights[k];
  }
  if (weight > 0.0f) attach /= weight;
  float reach = 0.0f;
  for (uint32_t v : drag.vertices)
    if (v < model.vertexCount()) reach = std::max(reach, glm::length(model.restPositions[v] - attach));
  spec.attach = attach;
  // A hair over the farthest grabbed vertex, so float rounding cannot drop it (0: the nearest vertex).
  spec.radius = reach > 0.0f ? reach * (1.0f + 1e-4f) : 0.0f;
  spec.anchor = drag.target;
  spec.stiffness = std::max(drag.stiffness, 1e-6f);
  spec.restLength = 0.0f;
  spec.breakForce = std::max(breakForce, 0.0f);
  return spec;
}

void appendAnchorSprings(AnchorSprings& into, const AnchorSprings& more, uint32_t vertexCount) {
  const uint32_t base = into.subCount();
  for (AnchorSpring s : more.springs) {
    s.first += base;
    into.springs.push_back(std::move(s));
  }
  into.vertex.insert(into.vertex.end(), more.vertex.begin(), more.vertex.end());
  into.anchor.insert(into.anchor.end(), more.anchor.begin(), more.anchor.end());
  into.stiffness.insert(into.stiffness.end(), more.stiffness.begin(), more.stiffness.end());
  indexAnchorSprings(into, vertexCount);
  ++into.revision;
}

void indexAnchorSprings(AnchorSprings& springs, uint32_t vertexCount) {
  springs.lambda.assign(springs.vertex.size(), 0.0f);
  // Counting sort: each vertex's list stays in spring order.
  Csr& csr = springs.vertexSprings;
  csr.offsets.assign(size_t(vertexCount) + 1, 0u);
  for (uint32_t v : springs.vertex) ++csr.offsets[size_t(v) + 1];
  for (uint32_t i = 0; i < vertexCount; ++i) csr.offsets[i + 1] += csr.offsets[i];
  csr.items.assign(springs.vertex.size(), 0u);
  std::vector<uint32_t> fill(csr.offsets.begin(), csr.offsets.end() - 1);
  for (uint32_t j = 0; j < springs.subCount(); ++j) csr.items[fill[springs.vertex[j]]++] = j;
}

}  // namespace tetlab
