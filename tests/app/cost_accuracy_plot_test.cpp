// Compare mode's accuracy-per-cost chart (app/ui/cost_accuracy_plot.h): its
// log axis always holds the verdict's 5 % band and every plotted lane, and
// lanes without a measure are left out rather than drawn at 0.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/ui/cost_accuracy_plot.h"

namespace tetlab {
namespace {

TEST(CostAccuracyPlot, DecadesHoldTheBandAndEveryMeasuredLane) {
  int lo = 0, hi = 0;
  costAccuracyDecades({}, lo, hi);
  EXPECT_EQ(lo, -2);  // log10(0.05) = -1.3
  EXPECT_EQ(hi, -1);
  const std::vector<CostAccuracyPoint> lanes{{"1 XPBD 20x1", {1, 0, 0}, 3.7f, 4.4f, false},
                                             {"2 VBD 10x4", {0, 0, 1}, 3.4f, 0.35f, false},
                                             {"3 VBD 40x4", {0, 1, 0}, 9.6f, 0.04f, true},
                                             {"4 ref", {1, 0, 1}, 59.0f, 0.006f, false},
                                             {"5 unmeasured", {1, 1, 1}, 2.0f, NAN, false}};
  costAccuracyDecades(lanes, lo, hi);
  EXPECT_EQ(lo, -3);  // 0.6 % lies in [1e-3, 1e-2)
  EXPECT_EQ(hi, 1);   // 440 % in (1, 10]
}

}  // namespace
}  // namespace tetlab
