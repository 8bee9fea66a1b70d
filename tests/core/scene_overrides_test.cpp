// Command-line overrides (core/scene/scene_overrides.h): every numeric flag's
// range includes being finite (a float flag beyond 3.4e38 arrives as inf, and
// "nan" parses), and the message names the flag and what is allowed.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/scene/scene_overrides.h"

namespace tetlab {
namespace {

void expectRefused(const SceneOverrides& o, const std::string& flag) {
  const Status s = validateOverrides(o);
  ASSERT_FALSE(s.ok()) << flag;
  EXPECT_NE(s.error().message.find(flag), std::string::npos) << s.error().message;
}

TEST(SceneOverrides, NonFiniteAndOutOfRangeValuesNameTheFlag) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (float bad : {inf, nan, 0.0f, -1.0f}) {
    SceneOverrides o;
    o.youngs = bad;
    expectRefused(o, "--youngs");
    o = {};
    o.density = bad;
    expectRefused(o, "--density");
    o = {};
    o.dt = bad;
    expectRefused(o, "--dt");
  }
  for (float bad : {nan, -0.1f, 0.5f}) {
    SceneOverrides o;
    o.poisson = bad;
    expectRefused(o, "--poisson");
  }
  for (int bad : {0, 10001}) {
    SceneOverrides o;
    o.substeps = bad;
    expectRefused(o, "--substeps");
    o = {};
    o.iterations = bad;
    expectRefused(o, "--iterations");
  }
  SceneOverrides good;
  good.youngs = 3.0e38f;
  good.density = 1.0f;
  good.poisson = 0.49f;
  good.dt = 1.0f;
  good.substeps = 10000;
  EXPECT_TRUE(validateOverrides(good).ok());
}

}  // namespace
}  // namespace tetlab
