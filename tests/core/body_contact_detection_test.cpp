// Body-body contact detection (core/sim/body_contact_detection.h): exact
// geometry of stacked boxes, the grid broad phase against brute force, and the
// per-vertex item lists every per-vertex solver reads.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "tests/cpu/physics_scenes.h"
#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/body_contact_detection.h"
#include "core/sim/state_setup.h"

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/body_contact.clh"

namespace tetlab {
namespace {

using phystest::buildBodies;
using phystest::stackedBoxes;

TEST(BodyContactDetection, StackedBoxesFacingFacesTouchWithTheGapAsDistance) {
  const float gap = 0.01f;
  const SimModel model = stackedBoxes(gap);
  State state = makeState(model);
  BodyContactParams params;
  params.searchRadius = 0.02f;
  detectBodyContacts(model, params, state);
  const BodyContacts& c = state.bodyContacts;
  // 3 x 3 vertices on the lower box's top face and on the upper box's bottom face.
  EXPECT_EQ(c.active, 18u);
  EXPECT_EQ(c.overflow, 0u);
  for (size_t s = 0; s < c.ids.size(); ++s) {
    if (c.ids[s].x == kNoContact) continue;
    const glm::uvec4 id = c.ids[s];
    const glm::vec3 p = model.restPositions[id.x];
    const bool upper = model.vertexBody[id.x] == 1;
    EXPECT_NEAR(p.y, upper ? 0.5f + gap : 0.5f, 1e-6f);
    EXPECT_NE(model.vertexBody[id.y], model.vertexBody[id.x]);
    // The normal is the supporting face's outward normal: up for the upper
    // box's vertices (lower box's top), down for the lower box's.
    EXPECT_NEAR(c.normal[s].y, upper ? 1.0f : -1.0f, 1e-6f);
    EXPECT_FLOAT_EQ(c.normal[s].w, params.thickness);
    EXPECT_FLOAT_EQ(c.weights[s].w, params.friction);
    const glm::vec3 w = glm::vec3(c.weights[s]);
    EXPECT_NEAR(w.x + w.y + w.z, 1.0f, 1e-6f);
    // The gap function at rest is the face distance minus the thickness.
    const float C = clm::body_contact_gap(p, model.restPositions[id.y], model.restPositions[id.z],
                                          model.restPositions[id.w], glm::vec3(c.normal[s]), w, params.thickness);
    EXPECT_NEAR(C, gap - params.thickness, 1e-6f);
  }
}

TEST(BodyContactDetection, NothingBeyondTheSearchRadiusAndNothingWithinOneBody) {
  BodyContactParams params;
  params.searchRadius = 0.02f;
  {
    const SimModel model = stackedBoxes(0.05f);
    State state = makeState(model);
    detectBodyContacts(model, params, state);
    EXPECT_EQ(state.bodyContacts.active, 0u);
  }
  {
    const SimModel single = buildBodies({makeBoxTetMesh({0, 0, 0}, {1, 0.5f, 1}, {2, 1, 2})});
    State state = makeState(single);
    detectBodyContacts(single, params, state);
    EXPECT_EQ(state.bodyContacts.active, 0u);
    // Self collision ignores the vertex's own and nearby triangles: a straight
    // box has no distant part within reach.
    params.selfCollision = true;
    detectBodyContacts(single, params, state);
    EXPECT_EQ(state.bodyContacts.active, 0u);
  }
}

TEST(BodyContactDetection, SelfCollisionFindsAFoldedBodyTouchingItself) {
  // A long thin slab whose right half is moved (in the prediction y) to lie
  // just above its left half, as if folded: self collision must find it.
  const SimModel model = buildBodies({makeBoxTetMesh({0, 0, 0}, {2, 0.1f, 0.5f}, {8, 1, 2})});
  State state = makeState(model);
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    const glm::vec3 r = model.restPositions[i];
    if (r.x > 1.2f) state.xInertial[i] = glm::vec4(r.x - 1.2f, 0.11f + (0.1f - r.y), r.z, state.x[i].w);
  }
  BodyContactParams params;
  params.searchRadius = 0.02f;
  params.selfCollision = true;
  detectBodyContacts(model, params, state);
  EXPECT_GT(state.bodyContacts.active, 0u);
  for (size_t s = 0; s < state.bodyContacts.ids.size(); ++s) {
    const glm::uvec4 id = state.bodyContacts.ids[s];
    if (id.x == kNoContact) continue;
    for (int k = 1; k < 4; ++k)
      EXPECT_GT(glm::length(model.restPositions[id[k]] - model.restPositions[id.x]), 2.0f * params.searchRadius);
  }
}

// Brute force over every (slot, triangle) pair with the rule of the header.
BodyContacts bruteForce(const SimModel& model, const BodyContactParams& params, const State& state) {
  BodyContacts out;
  resizeBodyContacts(uint32_t(model.surfaceVertices.size()), model.vertexCount(), out);
  for (size_t s = 0; s < model.surfaceVertices.size(); ++s) {
    const uint32_t p = model.surfaceVertices[s];
    const glm::vec3 yp = glm::vec3(state.xInertial[p]);
    float best = params.searchRadius, bestAlign = -1.0f;
    uint32_t bestTri = kNoContact;
    for (uint32_t t = 0; t < model.boundaryTriangles.size(); ++t) {
      const glm::uvec3 tri = model.boundaryTriangles[t];
      if (model.vertexBody[tri.x] == model.vertexBody[p]) continue;
      const glm::vec3 a = glm::vec3(state.xInertial[tri.x]), b = glm::vec3(state.xInertial[tri.y]),
                      c = glm::vec3(state.xInertial[tri.z]);
      const glm::vec3 w = clm::closest_point_triangle_weights(yp, a, b, c);
      const glm::vec3 offset = yp - (a * w.x + b * w.y + c * w.z);
      const float d = glm::length(offset);
      const glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
      const float align = d > 0.0f ? std::fabs(glm::dot(n, offset)) / d : 1.0f;
      if (clm::body_contact_better(d, align, t, best, bestAlign, bestTri,
                                   kBodyContactTieTolerance * params.searchRadius)) {
        best = d;
        bestAlign = align;
        bestTri = t;
        out.ids[s] = glm::uvec4(p, tri);
        out.weights[s] = glm::vec4(w, params.friction);
      }
    }
    if (out.ids[s].x != kNoContact) ++out.active;
  }
  return out;
}

TEST(BodyContactDetection, GridBroadPhaseFindsWhatBruteForceFinds) {
  // Two spheres of different resolution pushed into each other a little, and
  // moved off the grid's cell origin, so contacts sit at every orientation.
  const SimModel model = buildBodies(
      {makeSphereTetMesh({0.013f, 0.27f, -0.031f}, 0.3f, 8), makeSphereTetMesh({0.51f, 0.33f, 0.07f}, 0.22f, 6)});
  State state = makeState(model);
  BodyContactParams params;
  params.searchRadius = 0.04f;
  detectBodyContacts(model, params, state);
  const BodyContacts expected = bruteForce(model, params, state);
  ASSERT_GT(expected.active, 10u);
  EXPECT_EQ(state.bodyContacts.active, expected.active);
  for (size_t s = 0; s < expected.ids.size(); ++s) {
    EXPECT_EQ(state.bodyContacts.ids[s], expected.ids[s]) << "slot " << s;
  }
}

TEST(BodyContactDetection, EveryContactIsListedUnderEachOfItsFourVertices) {
  const SimModel model = stackedBoxes(0.005f);
  State state = makeState(model);
  detectBodyContacts(model, BodyContactParams{}, state);
  const BodyContacts& c = state.bodyContacts;
  ASSERT_GT(c.active, 0u);
  uint32_t items = 0;
  for (uint32_t v = 0; v < model.vertexCount(); ++v) {
    ASSERT_LE(c.vertexCount[v], kMaxContactsPerVertex);
    items += c.vertexCount[v];
    for (uint32_t k = 0; k < c.vertexCount[v]; ++k) {
      const uint32_t item = c.vertexItems[size_t(v) * kMaxContactsPerVertex + k];
      EXPECT_EQ(c.ids[item / 4][item % 4], v);
    }
  }
  EXPECT_EQ(items + c.overflow, 4 * c.active);
  // Redetecting after the bodies separate clears every list.
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (model.vertexBody[i] == 1) state.xInertial[i].y += 1.0f;
  detectBodyContacts(model, BodyContactParams{}, state);
  EXPECT_EQ(state.bodyContacts.active, 0u);
  for (uint32_t v = 0; v < model.vertexCount(); ++v) EXPECT_EQ(state.bodyContacts.vertexCount[v], 0u);
}

}  // namespace
}  // namespace tetlab
