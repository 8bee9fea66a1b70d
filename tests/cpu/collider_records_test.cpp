// The collider records (core/sim/collider_records.h) every solver reads on both
// backends: ids are record indices with the ground at 0, a disabled ground is
// skipped, and each kind's signed distance is its shape's (a plane of any
// normal, sphere, box, capsule, torus), checked at points whose distance is known.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "core/sim/collider_records.h"

namespace tetlab {
namespace {

struct Seen {
  int32_t id;
  float phi;
  glm::vec3 n;
  float mu;
};

std::vector<Seen> sample(const Colliders& c, glm::vec3 p) {
  std::vector<Seen> out;
  forEachCollider(packColliders(c), p, [&](const ColliderSample& s) { out.push_back({s.id, s.phi, s.normal, s.friction}); });
  return out;
}

TEST(ColliderRecords, IdsAreRecordIndicesAndEachKindMeasuresItsShape) {
  Colliders c;
  c.ground = GroundPlane{true, -0.5f, 0.3f};
  // A plane x + y = 0 given by an unnormalised normal: phi is the true distance.
  c.planes.push_back(PlaneCollider{{0.0f, 0.0f, 0.0f}, {2.0f, 2.0f, 0.0f}, 0.7f});
  c.spheres.push_back(SphereCollider{{0.0f, 3.0f, 0.0f}, 1.0f, 0.1f});
  BoxCollider box;
  box.center = {5.0f, 0.0f, 0.0f};
  box.halfExtents = {1.0f, 2.0f, 3.0f};
  c.boxes.push_back(box);
  c.capsules.push_back(CapsuleCollider{{-5.0f, 0.0f, 0.0f}, {-5.0f, 2.0f, 0.0f}, 0.5f, 0.2f});
  EXPECT_EQ(packColliders(c).count(), colliderRecordCount(c));

  const glm::vec3 p(1.0f, 1.0f, 0.0f);
  const std::vector<Seen> s = sample(c, p);
  ASSERT_EQ(s.size(), 5u);
  for (int32_t k = 0; k < 5; ++k) EXPECT_EQ(s[size_t(k)].id, k);
  EXPECT_FLOAT_EQ(s[0].phi, 1.5f);                              // ground y = -0.5
  EXPECT_FLOAT_EQ(s[0].mu, 0.3f);
  EXPECT_NEAR(s[1].phi, std::sqrt(2.0f), 1e-6f);                // plane x + y = 0
  EXPECT_NEAR(s[1].n.x, std::sqrt(0.5f), 1e-6f);
  EXPECT_FLOAT_EQ(s[1].mu, 0.7f);
  EXPECT_NEAR(s[2].phi, std::sqrt(5.0f) - 1.0f, 1e-6f);         // sphere at (0, 3, 0), r = 1
  EXPECT_FLOAT_EQ(s[3].phi, 3.0f);                              // box face x = 4
  EXPECT_NEAR(s[4].phi, 6.0f - 0.5f, 1e-6f);                    // capsule axis x = -5

  // Inside the plane's solid side the distance is negative, along the normal.
  EXPECT_NEAR(sample(c, {-1.0f, -1.0f, 0.0f})[1].phi, -std::sqrt(2.0f), 1e-6f);
}

// Torus, ring radius R = 1, tube r = 0.25, around its local y axis, then the
// same torus turned so its axis is world x (rotation columns = local axes in
// world: local y -> world x). Points whose distance is known: on the equator
// outside (R + r + d), in the hole at the centre (R - r), above the tube (d
// over the top of the tube), inside the tube (its centre line: -r). The normal
// is the gradient of phi: checked against central differences at points
// around the tube, inside and out.
TEST(ColliderRecords, TorusMeasuresItsRingAndTube) {
  Colliders c;
  c.ground.enabled = false;
  TorusCollider flat;
  flat.center = {0.0f, 0.0f, 0.0f};
  flat.majorRadius = 1.0f;
  flat.minorRadius = 0.25f;
  flat.friction = 0.4f;
  c.tori.push_back(flat);
  TorusCollider turned = flat;
  turned.center = {10.0f, 0.0f, 0.0f};
  turned.rotation = glm::mat3(glm::vec3(0.0f, -1.0f, 0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 0.0f, 1.0f));
  c.tori.push_back(turned);
  EXPECT_EQ(packColliders(c).count(), colliderRecordCount(c));

  auto at = [&](size_t k, glm::vec3 p) { return sample(c, p)[k]; };
  EXPECT_NEAR(at(0, {2.0f, 0.0f, 0.0f}).phi, 0.75f, 1e-6f);  // outside the equator
  EXPECT_NEAR(at(0, {2.0f, 0.0f, 0.0f}).n.x, 1.0f, 1e-6f);
  EXPECT_FLOAT_EQ(at(0, {0.0f, 0.0f, 0.0f}).phi, 0.75f);     // the centre of the hole
  EXPECT_NEAR(at(0, {0.0f, 0.6f, -1.0f}).phi, 0.35f, 1e-6f);  // above the tube at (0, 0, -1)
  EXPECT_NEAR(at(0, {0.0f, 0.6f, -1.0f}).n.y, 1.0f, 1e-6f);
  EXPECT_FLOAT_EQ(at(0, {0.0f, 0.0f, 1.0f}).phi, -0.25f);    // the tube's centre line
  EXPECT_FLOAT_EQ(at(0, {0.0f, 0.0f, 1.0f}).mu, 0.4f);
  // Turned: the axis is world x, so the ring lies in the y-z plane around (10, 0, 0).
  EXPECT_NEAR(at(1, {10.0f, 2.0f, 0.0f}).phi, 0.75f, 1e-6f);
  EXPECT_NEAR(at(1, {10.0f, 2.0f, 0.0f}).n.y, 1.0f, 1e-6f);
  EXPECT_NEAR(at(1, {10.6f, 0.0f, 1.0f}).phi, 0.35f, 1e-6f);  // beside the tube, along the axis
  EXPECT_NEAR(at(1, {10.6f, 0.0f, 1.0f}).n.x, 1.0f, 1e-6f);

  const float h = 1e-3f;
  for (size_t k = 0; k < 2; ++k)
    for (int i = 0; i < 24; ++i) {
      const float a = 0.7f * float(i), b = 1.3f * float(i);
      const float rho = 1.0f + (0.1f + 0.02f * float(i % 5)) * std::cos(b);
      glm::vec3 local(rho * std::cos(a), (0.1f + 0.02f * float(i % 5)) * std::sin(b), rho * std::sin(a));
      const TorusCollider& t = c.tori[k];
      const glm::vec3 p = t.center + t.rotation * local;
      const Seen s = at(k, p);
      glm::vec3 grad;
      for (int d = 0; d < 3; ++d) {
        glm::vec3 e(0.0f);
        e[d] = h;
        grad[d] = (at(k, p + e).phi - at(k, p - e).phi) / (2.0f * h);
      }
      // Central differences of a float phi: error ~ ulp(phi) / h plus h^2 curvature, well under 1e-2.
      EXPECT_NEAR(glm::length(grad - s.n), 0.0f, 1e-2f) << "torus " << k << " point " << i;
      EXPECT_NEAR(glm::length(s.n), 1.0f, 1e-5f);
    }
}

TEST(ColliderRecords, ADisabledGroundKeepsItsSlotAndIsNeverSampled) {
  Colliders c;
  c.ground.enabled = false;
  c.spheres.push_back(SphereCollider{{0.0f, 0.0f, 0.0f}, 1.0f, 0.5f});
  const std::vector<Seen> s = sample(c, {0.0f, -10.0f, 0.0f});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].id, 1) << "ids stay record indices: the sphere keeps id 1 with the ground off";
  EXPECT_FLOAT_EQ(s[0].phi, 9.0f);
  // Repacking into the same records allocates nothing and gives the same bits.
  ColliderRecords a = packColliders(c), b;
  packColliders(c, b);
  EXPECT_TRUE(bitwiseEqual(a, b));
  c.spheres[0].radius = 2.0f;
  packColliders(c, b);
  EXPECT_FALSE(bitwiseEqual(a, b));
}

}  // namespace
}  // namespace tetlab
