// Fuzz target: the command line reader (app/commands/cli.h, readCommandLine):
// CLI11's parse of every flag and subcommand, then the checks on the values
// (paths resolved, overrides range-checked, panel names, ...). Nothing is run:
// no subcommand, no OpenCL query, no window.
//
// The input is the argument list, one argument per NUL or newline-separated
// token, after the program name; a token may be empty ("--scene" "").
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/commands/cli.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"tetlab"};
  std::string token;
  for (size_t i = 0; i < size; ++i) {
    const char c = char(data[i]);
    if (c == '\0' || c == '\n') {
      args.push_back(token);
      token.clear();
    } else {
      token += c;
    }
  }
  if (!token.empty()) args.push_back(token);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);  // argv[argc] is null, as main() gets it
  const tetlab::ParsedCommandLine parsed = tetlab::readCommandLine(int(args.size()), argv.data());
  (void)parsed;
  return 0;
}
