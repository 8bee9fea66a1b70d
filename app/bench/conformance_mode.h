#pragma once
// tetlab-bench --conformance: runs the conformance search (app/conformance)
// and prints the table; see docs/solvers.md "Conformance".
#include <string>
#include <vector>

#include "app/conformance/conformance_runner.h"

namespace tetlab {

struct ConformanceModeOptions {
  ConformanceBackend backend = ConformanceBackend::Cpu;
  std::vector<std::string> cases;       // empty: all
  std::vector<SolverKind> solvers;      // all four by default
  std::vector<float> moduli;            // empty: kConformanceModuli
  std::string updateDocs;               // markdown file whose conformance section is replaced
  std::string budgetsCsv;               // where the budgets go ("" : not written)
  double rungCapSeconds = 8.0;
};

// Returns the process exit code.
int runConformanceMode(const ConformanceModeOptions& options, const ClContext* ctx);

}  // namespace tetlab
