#include "app/bench/conformance_mode.h"

#include <chrono>
#include <cstdio>
#include <fstream>

#include "app/conformance/conformance_cases.h"
#include "app/conformance/conformance_report.h"
#include "core/scene/enum_names.h"

namespace tetlab {

int runConformanceMode(const ConformanceModeOptions& options, const ClContext* ctx) {
  const auto t0 = std::chrono::steady_clock::now();
  ConformanceTable table;
  table.machine = describeMachine();
  table.backend = backendLabel(options.backend);
  SearchOptions search;
  search.backend = options.backend;
  search.ctx = ctx;
  search.rungCapSeconds = options.rungCapSeconds;
  const std::vector<float> moduli = options.moduli.empty() ? kConformanceModuli : options.moduli;
  for (const ConformanceCase& c : conformanceCases()) {
    if (!options.cases.empty() && std::find(options.cases.begin(), options.cases.end(), c.id) == options.cases.end())
      continue;
    for (float E : moduli) {
      const CaseSetup setup = c.build(E);
      char label[64];
      std::snprintf(label, sizeof label, "%s, E = %.0e Pa", c.title.c_str(), double(E));
      if (!setup.note.empty()) table.notes.push_back(std::string(label) + ": " + setup.note);
      for (SolverKind s : options.solvers) {
        CellSearch cell = searchCell(c, setup, E, s, search);
        std::fprintf(stderr, "%-12s E=%.0e %-4s %s %s [%d rungs, %.1f s]\n", c.id.c_str(), double(E), solverName(s),
                     cell.reached ? "reaches at" : "", cell.reached ? budgetLabel(cell.budget, cell.result.substepsRun).c_str()
                                                                   : cell.reason.c_str(),
                     cell.rungsRun, cell.wallSeconds);
        table.cells.push_back(std::move(cell));
      }
    }
  }
  table.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string md = conformanceMarkdown(table);
  std::printf("%s", md.c_str());
  if (!options.budgetsCsv.empty()) {
    std::ofstream csv(options.budgetsCsv);
    if (!(csv << conformanceBudgetsCsv(table))) {
      std::fprintf(stderr, "tetlab-bench: cannot write '%s'\n", options.budgetsCsv.c_str());
      return 1;
    }
  }
  if (!options.updateDocs.empty())
    if (Status st = replaceConformanceSection(options.updateDocs, md); !st) {
      std::fprintf(stderr, "tetlab-bench: %s\n", st.error().message.c_str());
      return 1;
    }
  std::fprintf(stderr, "conformance: %zu cells in %.1f min\n", table.cells.size(), table.wallSeconds / 60.0);
  return 0;
}

}  // namespace tetlab
