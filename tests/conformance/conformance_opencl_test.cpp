// The cheap cells of the conformance table on the OpenCL backend (PoCL on
// CI), at the budgets the table records for the CPU reference, held to the
// same 5 % of the same closed forms. Which cells: the CI suite may grow by
// about 3 min at ctest -j2, and PoCL on 2 cores runs these small scenes at
// roughly CPU speed plus a kernel build per simulator, so only cells whose
// budget is small and whose run is short are taken (kOpenClCells below):
//   stiff free fall at 1e5 and 1e9 (0.5 s), slope sticking at 1e5 (1 s),
//   collision at 1e5 (0.5 s) -- each for the solvers that reach at a budget
//   of at most 20 substeps x 4 iterations.
// The energy side condition is CPU-only (no energy read-back on the device).
#include <gtest/gtest.h>

#include <cstdio>

#include "app/conformance/conformance_cases.h"
#include "app/conformance/conformance_search.h"
#include "core/scene/enum_names.h"
#include "tests/conformance/conformance_rows.h"
#include "tests/gpu/gpu_test_context.h"

namespace tetlab {
namespace {

using conformancetest::budgetRows;
using conformancetest::rowName;

struct OpenClCell {
  const char* caseId;
  float youngsModulus;
};
constexpr OpenClCell kOpenClCells[] = {{"free_fall", 1e5f}, {"free_fall", 1e9f}, {"slope_stick", 1e5f}, {"collision", 1e5f}};

std::vector<BudgetRow> openClRows() {
  std::vector<BudgetRow> rows;
  for (const BudgetRow& row : budgetRows()) {
    if (!row.reached || row.budget.substeps * (row.budget.iterations + 1) > 20 * 5 || row.substepsRun > 20) continue;
    for (const OpenClCell& cell : kOpenClCells)
      if (row.caseId == cell.caseId && row.youngsModulus == cell.youngsModulus) rows.push_back(row);
  }
  return rows;
}

class ConformanceOpenCl : public testing::TestWithParam<BudgetRow> {};

TEST_P(ConformanceOpenCl, CellMatchesTheTable) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const BudgetRow& row = GetParam();
  const ConformanceCase* c = findConformanceCase(row.caseId);
  ASSERT_NE(c, nullptr) << row.caseId;
  const auto solver = parseSolverName(row.solver);
  ASSERT_TRUE(solver.has_value()) << row.solver;
  const CellResult r = runConformanceCell(*c, row.youngsModulus, *solver, row.budget, ConformanceBackend::OpenCl, &ctx);
  std::printf("%s on OpenCL: %.6g against %.6g, error %.3g %% at %s (CPU: %.3g %%)\n", rowName(row).c_str(), r.value,
              r.reference, 100.0 * r.relError, budgetLabel(row.budget, r.substepsRun).c_str(), 100.0 * row.relError);
  EXPECT_TRUE(r.finite) << r.reason;
  EXPECT_LE(r.relError, c->tolerance) << r.reason;
  EXPECT_TRUE(r.reason.empty()) << r.reason;
}

INSTANTIATE_TEST_SUITE_P(Table, ConformanceOpenCl, testing::ValuesIn(openClRows()),
                         [](const testing::TestParamInfo<BudgetRow>& info) { return rowName(info.param); });

}  // namespace
}  // namespace tetlab
