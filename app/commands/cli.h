#pragma once
// The command line: the app's own flags plus subcommands (inspect, run).
// Parsing never opens a window: every usage error, missing file or bad
// device index is reported here, before any GL or OpenCL context exists.
//
//   argv --readCommandLine (cli.cpp: parse and check, nothing run)--> ParsedCommandLine
//        --parseCommandLine (cli_dispatch.cpp: run the subcommand or --list-devices,
//                            else query OpenCL for the window)-----> CliOutcome
//
// The reader is its own half so it can be driven alone, without side effects
// and without linking GL, ImGui or the subcommands (the tetlab_cli library; the
// CLI fuzz target tests/fuzz/fuzz_cli.cpp).
#include <optional>

#include "app/app_options.h"
#include "app/commands/commands.h"
#include "app/commands/compare_command.h"
#include "app/commands/deform_command.h"
#include "app/commands/run_command.h"

namespace tetlab {

struct CliOutcome {
  std::optional<int> exitCode;  // set: the process should exit with it (help, version, error, subcommand)
  AppOptions app;               // otherwise: open the app with these options
};

// What the command line asks for, read and checked but not done yet.
struct ParsedCommandLine {
  std::optional<int> exitCode;         // set: exit with it (help, version, usage error, bad value; printed)
  std::optional<InspectArgs> inspect;  // `tetlab inspect`: its arguments as typed
  std::optional<RunArgs> run;          // `tetlab run`: its arguments as typed (paths resolved when it runs)
  std::optional<CompareArgs> compare;  // `tetlab compare`: likewise
  std::optional<DeformArgs> deform;    // `tetlab deform`: likewise
  bool listDevices = false;            // --list-devices
  DeviceChoice devices;                // --cl-platform, --cl-device (-1: automatic)
  AppOptions app;                      // the window's options, all but app.opencl (filled by parseCommandLine)
};

ParsedCommandLine readCommandLine(int argc, char** argv);

// readCommandLine, then what it asks for: a subcommand or --list-devices runs
// here and gives the exit code; otherwise OpenCL is queried for the window.
CliOutcome parseCommandLine(int argc, char** argv);

}  // namespace tetlab
