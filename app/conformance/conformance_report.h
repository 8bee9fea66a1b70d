#pragma once
// The conformance table as text: the markdown section of docs/solvers.md and
// the budgets file the tests read (tests/conformance/budgets.csv), so the
// tests check exactly the budgets the docs name.
#include <string>
#include <vector>

#include "app/conformance/conformance_search.h"
#include "core/result.h"

namespace tetlab {

struct ConformanceTable {
  std::vector<CellSearch> cells;
  std::vector<std::string> notes;  // "case, E: note", one per (case, E)
  std::string machine;             // what ran it (CPU model, cores), for the docs
  std::string backend;             // "cpu" or "opencl"
  double wallSeconds = 0.0;        // the whole regeneration
};

// The markdown between the conformance markers (without the markers).
std::string conformanceMarkdown(const ConformanceTable& table);

// Replaces the text between "<!-- conformance:begin -->" and
// "<!-- conformance:end -->" in `path`; fails when a marker is missing.
Status replaceConformanceSection(const std::string& path, const std::string& markdown);

// One row per cell (see readConformanceBudgets for the columns).
std::string conformanceBudgetsCsv(const ConformanceTable& table);

struct BudgetRow {
  std::string caseId;
  float youngsModulus = 0.0f;
  std::string solver;
  bool reached = false;
  ConformanceBudget budget;  // reached: the passing rung; else the largest rung tried
  int substepsRun = 0;
  double relError = 0.0;
  double msPerFrame = 0.0;
  double energyRise = 0.0;
  std::string reason;
};

Result<std::vector<BudgetRow>> readConformanceBudgets(const std::string& path);

// "Intel(R) Xeon(R) ... (2 cores)" from /proc/cpuinfo, or "unknown CPU".
std::string describeMachine();

}  // namespace tetlab
