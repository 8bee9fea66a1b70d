// LiveMaterials' revision is the one change signal for everything derived
// from the materials: it must move on every write and on every copy or
// assignment (a stamp of the object that was there before must go stale),
// and must not move on reads.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/model/live_materials.h"

namespace tetlab {
namespace {

Material withE(float e) {
  Material m;
  m.youngsModulus = e;
  return m;
}

TEST(LiveMaterials, EveryWriteMovesTheRevisionAndReadsDoNot) {
  LiveMaterials materials;
  const uint64_t empty = materials.revision();
  materials.add(withE(1.0e5f));
  materials.add(withE(2.0e5f));
  const uint64_t built = materials.revision();
  EXPECT_GT(built, empty);
  EXPECT_EQ(materials.size(), 2u);
  EXPECT_EQ(materials[1].youngsModulus, 2.0e5f);
  float sum = 0.0f;
  for (const Material& m : materials) sum += m.youngsModulus;
  EXPECT_EQ(sum, 3.0e5f);
  EXPECT_EQ(materials.at(0).youngsModulus, 1.0e5f);
  EXPECT_EQ(materials.revision(), built) << "reads moved the revision";
  materials.set(1, withE(3.0e5f));
  EXPECT_GT(materials.revision(), built);
  EXPECT_EQ(materials[1].youngsModulus, 3.0e5f);
  EXPECT_THROW(materials.set(2, withE(1.0f)), std::out_of_range);
}

TEST(MaterialsStamp, IsCurrentUntilTheMaterialsChange) {
  LiveMaterials materials{withE(1.0e5f)};
  MaterialsStamp stamp;
  EXPECT_FALSE(stamp.current(materials)) << "a fresh stamp names nothing";
  stamp.take(materials);
  EXPECT_TRUE(stamp.current(materials));
  materials.set(0, withE(1.0e5f));  // even the same value: a write is a write
  EXPECT_FALSE(stamp.current(materials));
  stamp.take(materials);
  stamp.clear();
  EXPECT_FALSE(stamp.current(materials));
}

TEST(MaterialsStamp, NeverTakesOtherMaterialsOrAReassignedObjectAsCurrent) {
  LiveMaterials a{withE(1.0e5f)};
  LiveMaterials b{withE(1.0e5f)};  // same content and revision, another object
  MaterialsStamp stamp;
  stamp.take(a);
  EXPECT_FALSE(stamp.current(b));
  // A new scene assigned where the old one lived (same address): stale.
  a = LiveMaterials{withE(9.0e5f)};
  EXPECT_FALSE(stamp.current(a));
  stamp.take(a);
  a = b;
  EXPECT_FALSE(stamp.current(a));
  const LiveMaterials copy = a;
  EXPECT_EQ(copy[0].youngsModulus, 1.0e5f);
}

}  // namespace
}  // namespace tetlab
