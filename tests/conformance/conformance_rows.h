#pragma once
// The rows of tests/conformance/budgets.csv, for parameterised tests (read
// once; a missing or malformed file yields one row that fails with the reason).
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "app/conformance/conformance_report.h"

namespace tetlab {

// Readable parameter values in test listings (found by argument-dependent lookup).
inline void PrintTo(const BudgetRow& row, std::ostream* os) {
  *os << row.caseId << " E=" << row.youngsModulus << " " << row.solver << " " << row.budget.substeps << "x"
      << row.budget.iterations;
}

}  // namespace tetlab

namespace tetlab::conformancetest {

inline const std::vector<BudgetRow>& budgetRows() {
  static const std::vector<BudgetRow> rows = [] {
    auto read = readConformanceBudgets(std::string(TETLAB_SOURCE_DIR) + "/tests/conformance/budgets.csv");
    if (read) return std::move(read).value();
    BudgetRow bad;
    bad.caseId = "missing_budgets_csv";
    bad.reason = read.error().message;
    return std::vector<BudgetRow>{bad};
  }();
  return rows;
}

// "hanging_bar_1e9_VBD"
inline std::string rowName(const BudgetRow& row) {
  const int exponent = row.youngsModulus > 0.0f ? int(std::lround(std::log10(row.youngsModulus))) : 0;
  return row.caseId + "_1e" + std::to_string(exponent) + "_" + row.solver;
}

}  // namespace tetlab::conformancetest
