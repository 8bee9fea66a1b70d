// The conformance table (docs/solvers.md "Conformance") as tests: every cell
// the table says reaches 5 % is run at the budget it names
// (tests/conformance/budgets.csv, written by `tetlab-bench --conformance`)
// and must again be within the case's tolerance of its closed form. The
// tolerance is the case's own (5 %), derived from the reference, never from
// a measured value. Cells that do not reach are run too, at the cheapest rung
// (the largest tried can take minutes): they must stay finite where the table
// does not name a blow-up as their reason. Undamped cells (bending mode,
// collision) also hold the energy-rise bound of core/sim/convergence.h at the
// table's budget. Cost: the 96 CPU and 15 OpenCL cells take 35 s of wall
// time at ctest -j2 on the 2-core reference machine (70 s of CPU).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "app/conformance/conformance_cases.h"
#include "app/conformance/conformance_report.h"
#include "core/scene/enum_names.h"
#include "core/sim/convergence.h"
#include "tests/conformance/conformance_rows.h"

namespace tetlab {
namespace {

using conformancetest::budgetRows;
using conformancetest::rowName;

class ConformanceCpu : public testing::TestWithParam<BudgetRow> {};

TEST_P(ConformanceCpu, CellMatchesTheTable) {
  const BudgetRow& row = GetParam();
  const ConformanceCase* c = findConformanceCase(row.caseId);
  ASSERT_NE(c, nullptr) << "budgets.csv names an unknown case '" << row.caseId << "' (" << row.reason
                        << "): regenerate it";
  const auto solver = parseSolverName(row.solver);
  ASSERT_TRUE(solver.has_value()) << row.solver;
  if (row.reached) {
    const CellResult r = runConformanceCell(*c, row.youngsModulus, *solver, row.budget, ConformanceBackend::Cpu, nullptr);
    std::printf("%s: %.6g against %.6g, error %.3g %% at %s\n", rowName(row).c_str(), r.value, r.reference,
                100.0 * r.relError, budgetLabel(row.budget, r.substepsRun).c_str());
    EXPECT_TRUE(r.finite) << r.reason;
    EXPECT_LE(r.relError, c->tolerance) << r.reason;
    EXPECT_TRUE(r.reason.empty()) << r.reason;
    if (r.energyMeasured)
      EXPECT_LE(r.energyRise, kEnergyRiseTolerance) << "the undamped run gained energy (fraction of its scale)";
  } else {
    // The cheapest rung: finite unless the table says it blows up.
    const ConformanceBudget cheapest = conformanceLadder().front();
    const CellResult r = runConformanceCell(*c, row.youngsModulus, *solver, cheapest, ConformanceBackend::Cpu, nullptr);
    std::printf("%s (table: %s): at %s finite %d, error %.3g %%\n", rowName(row).c_str(), row.reason.c_str(),
                budgetLabel(cheapest, r.substepsRun).c_str(), int(r.finite), 100.0 * r.relError);
    if (row.reason.find("blows up") == std::string::npos) EXPECT_TRUE(r.finite) << r.reason;
  }
}

INSTANTIATE_TEST_SUITE_P(Table, ConformanceCpu, testing::ValuesIn(budgetRows()),
                         [](const testing::TestParamInfo<BudgetRow>& info) { return rowName(info.param); });

}  // namespace
}  // namespace tetlab
