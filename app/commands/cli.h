#pragma once
// The command line: the app's own flags plus subcommands (inspect, and later
// run). Parsing never opens a window: every usage error, missing file or bad
// device index is reported here, before any GL or OpenCL context exists.
#include <optional>

#include "app/app_options.h"

namespace tetlab {

struct CliOutcome {
  std::optional<int> exitCode;  // set: the process should exit with it (help, version, error, subcommand)
  AppOptions app;               // otherwise: open the app with these options
};

CliOutcome parseCommandLine(int argc, char** argv);

}  // namespace tetlab
