// The collider records (core/sim/collider_records.h) every solver reads on both
// backends: ids are record indices with the ground at 0, a disabled ground is
// skipped, and each kind's signed distance is its shape's (a plane of any
// normal, sphere, box, capsule), checked at points whose distance is known.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

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
