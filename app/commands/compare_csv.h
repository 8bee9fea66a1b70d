#pragma once
// The CSV of a comparison (`tetlab compare --csv`, and the window's compare
// mode when recording headless): one row per frame per lane, the lane first,
// then the columns of `tetlab run --stats` (stats_row.h), then the lane's
// distance and energy difference to the reference lane (NaN without one):
//
//   lane,label,solver,substeps,iterations,backend,<kRunStatsHeader>,error_rms,error_max,energy_error
#include <fstream>
#include <string>

#include "core/result.h"

namespace tetlab {

class CompareSession;

inline constexpr const char* kCompareLaneColumns = "lane,label,solver,substeps,iterations,backend";
inline constexpr const char* kCompareErrorColumns = "error_rms,error_max,energy_error";

class CompareCsv {
 public:
  // Errors name the file.
  static Result<CompareCsv> open(const std::string& path);
  // One row per lane for the comparison's current frame.
  void writeFrame(const CompareSession& compare);
  // Flushes; an error when the disk filled or the file went away.
  Status close();

 private:
  std::string path_;
  std::ofstream out_;
};

}  // namespace tetlab
