// The one under-converged verdict (core/sim/convergence_verdict.h) in all its
// states, from the rule itself: error > 8 floors and > 5 % of the step's
// force is under-converged; 8 floors above 5 % of the step's force is
// float-limited (never reported converged); unmeasured frames say why and
// are counted apart; a device's frames between read-backs are not counted.
#include <gtest/gtest.h>

#include <string>

#include "core/sim/convergence_verdict.h"

namespace tetlab {
namespace {

StepError measured(float error, float floor, float scale) {
  StepError e;
  e.measured = true;
  e.error = error;
  e.floor = floor;
  e.scale = scale;
  return e;
}

TEST(ConvergenceVerdict, OffTheAnswerOnlyAboveBothTheFloorAndTheBand) {
  // 10 floors and 10 % of the step's force: off.
  EXPECT_TRUE(underConverged(measured(1e-6f, 1e-7f, 1e-5f)));
  // 10 % of the step's force but within 8 floors: rounding can explain it.
  EXPECT_FALSE(underConverged(measured(1e-6f, 2e-7f, 1e-5f)));
  // 100 floors but 1 % of the step's force: inside the band, and resolvable (8 floors = 0.08 %).
  const StepError fine = measured(1e-7f, 1e-9f, 1e-5f);
  EXPECT_FALSE(underConverged(fine));
  EXPECT_FALSE(fine.floatLimited());
  // Just either side of the band, 100 floors up.
  EXPECT_TRUE(underConverged(measured(5.1e-7f, 1e-9f, 1e-5f)));
  EXPECT_FALSE(underConverged(measured(4.9e-7f, 1e-9f, 1e-5f)));
  // Not measured: no verdict either way.
  StepError none;
  none.error = 1.0f;
  EXPECT_FALSE(underConverged(none));
  EXPECT_FALSE(none.floatLimited());
}

TEST(ConvergenceVerdict, AStepFloat32CannotResolveIsFloatLimitedNotConverged) {
  // 8 floors = 16 % of the step's force: a 5 % error would be invisible.
  const StepError e = measured(1e-7f, 1e-7f, 5e-6f);
  EXPECT_TRUE(e.atFloatPrecision());
  EXPECT_FALSE(underConverged(e));
  EXPECT_TRUE(e.floatLimited());
  ConvergenceTally t;
  t.add(e);
  EXPECT_EQ(t.measured, 1u);
  EXPECT_EQ(t.floatLimited, 1u);
  EXPECT_NEAR(t.worstFloorShare, 0.16f, 1e-4f);
  EXPECT_TRUE(t.mostlyFloatLimited());
  EXPECT_EQ(t.relativeFrames, 0u) << "a frame at its floor has no resolvable ratio";
  EXPECT_NEAR(t.meanRelativeAll(), 0.02, 1e-6) << "compare mode's axis counts it, as an upper bound";
  const std::string line = convergenceSummary(t, ": advice");
  EXPECT_NE(line.find("0 of 1 measured frames under-converged"), std::string::npos) << line;
  EXPECT_NE(line.find("1 float-limited"), std::string::npos) << line;
  EXPECT_NE(line.find("16 %"), std::string::npos) << line;
  EXPECT_EQ(line.find("advice"), std::string::npos) << "advice follows only an under-converged count: " << line;
}

TEST(ConvergenceVerdict, TallyCountsEachStateAndSaysWhyFramesWentUnmeasured) {
  ConvergenceTally t;
  t.add(measured(1e-6f, 1e-8f, 1e-5f));  // off, 10 %
  t.add(measured(3e-6f, 1e-8f, 1e-5f));  // off, 30 %
  t.add(measured(1e-7f, 1e-8f, 1e-5f));  // converged, 1 %
  t.add(measured(1e-6f, 1e-8f, 1e-5f), false);  // a device frame between read-backs: not counted
  StepError unmeasured;
  unmeasured.unmeasured = "tethers are on (a projection, not an energy)";
  t.add(unmeasured);
  EXPECT_EQ(t.measured, 3u);
  EXPECT_EQ(t.underConverged, 2u);
  EXPECT_EQ(t.unmeasured, 1u);
  EXPECT_NEAR(t.meanRelative(), (0.1 + 0.3 + 0.01) / 3.0, 1e-6);
  EXPECT_NEAR(t.meanRelativeAll(), t.meanRelative(), 1e-6) << "no frame at the floor";
  EXPECT_FALSE(t.mostlyFloatLimited());
  EXPECT_NEAR(t.worstRelative, 0.3f, 1e-6f);
  EXPECT_FLOAT_EQ(t.last.error, 1e-7f) << "the latest measured frame, not the unmeasured one";
  const std::string line = convergenceSummary(t, ": raise the substeps");
  EXPECT_NE(line.find("2 of 3 measured frames under-converged"), std::string::npos) << line;
  EXPECT_NE(line.find("worst 30 %"), std::string::npos) << line;
  EXPECT_NE(line.find("1 frames not measured: tethers are on"), std::string::npos) << line;
  EXPECT_NE(line.find(": raise the substeps"), std::string::npos) << line;

  ConvergenceTally none;
  none.add(unmeasured);
  EXPECT_NE(convergenceSummary(none, "").find("convergence not measured on any of 1 frames: tethers are on"),
            std::string::npos);
}

}  // namespace
}  // namespace tetlab
