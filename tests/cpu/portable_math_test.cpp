// The portable log1p / expm1 (shaders/cl/common/portable_math.clh) against the
// double-precision libm: within a few float ulps over the range PBD uses
// (k_ref in [0, 1], exponents in (0, 1]) and beyond it.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/portable_math.clh"

namespace tetlab {
namespace {

// |got - exact| in units of the float spacing at exact.
double ulps(float got, double exact) {
  const double spacing = std::max(double(std::nextafter(float(std::fabs(exact)), INFINITY)) - std::fabs(exact),
                                  double(std::numeric_limits<float>::denorm_min()));
  return std::fabs(double(got) - exact) / spacing;
}

TEST(PortableMath, Log1pIsWithinFourUlpsFromTinyToMinusOne) {
  double worst = 0.0;
  for (double x : {1e-30, 1e-12, 1e-7, 3e-5, 1e-3, 0.01, 0.1, 0.3, 0.5, 1.0, 3.0, 1e3, 1e20}) {
    for (double sign : {1.0, -1.0}) {
      const float xf = float(sign * x);
      if (!(xf > -1.0f)) continue;
      worst = std::max(worst, ulps(clm::tl_log1p(xf), std::log1p(double(xf))));
    }
  }
  for (int i = 1; i < 4000; ++i) {  // -k_ref over (-1, 0): the PBD use
    const float xf = -float(i) / 4000.0f;
    worst = std::max(worst, ulps(clm::tl_log1p(xf), std::log1p(double(xf))));
  }
  EXPECT_LT(worst, 4.0);
  EXPECT_EQ(clm::tl_log1p(0.0f), 0.0f);
  EXPECT_EQ(clm::tl_log1p(-1.0f), -INFINITY);
  EXPECT_TRUE(std::isnan(clm::tl_log1p(-2.0f)));
}

TEST(PortableMath, Expm1IsWithinFourUlpsOverTheFloatRange) {
  double worst = 0.0;
  for (int i = -2000; i <= 2000; ++i) {
    const float y = float(i) * 0.04f;  // -80 .. 80, crossing every range-reduction branch
    worst = std::max(worst, ulps(clm::tl_expm1(y), std::expm1(double(y))));
  }
  for (double y : {1e-30, 1e-10, 1e-6, 0.01, 0.3465, 0.3467}) {
    worst = std::max(worst, ulps(clm::tl_expm1(float(y)), std::expm1(double(float(y)))));
    worst = std::max(worst, ulps(clm::tl_expm1(float(-y)), std::expm1(double(float(-y)))));
  }
  EXPECT_LT(worst, 4.0);
  EXPECT_EQ(clm::tl_expm1(-INFINITY), -1.0f);
  EXPECT_EQ(clm::tl_expm1(-200.0f), -1.0f);
  EXPECT_EQ(clm::tl_expm1(0.0f), 0.0f);
}

TEST(PortableMath, PbdStiffnessFractionMatchesThePowerLaw) {
  // k = 1 - (1 - k_ref)^e, the PBD mapping (core/cpu/pbd_params.h), against double pow.
  for (double kRef : {1e-9, 1e-5, 0.01, 0.3, 0.9, 0.999999, 1.0})
    for (double e : {1.0 / 40.0, 0.1, 0.5, 0.999}) {
      const float k = -clm::tl_expm1(float(e) * clm::tl_log1p(-float(kRef)));
      const double exact = 1.0 - std::pow(1.0 - double(float(kRef)), double(float(e)));
      EXPECT_LE(ulps(k, exact), 8.0) << "k_ref " << kRef << " e " << e;
    }
}

}  // namespace
}  // namespace tetlab
