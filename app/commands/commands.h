#pragma once
// Subcommands of the tetlab executable besides the interactive app. Each
// returns the process exit code (0 ok, non-zero with a message on stderr).
#include <optional>
#include <string>

#include "core/mesh/tet_target.h"

namespace tetlab {

// tetlab inspect FILE.obj [--target-tets N] [--json]
struct InspectArgs {
  std::string file;
  int targetTets = kDefaultTargetTets;
  bool json = false;
};
int runInspectCommand(const InspectArgs& args);

}  // namespace tetlab
