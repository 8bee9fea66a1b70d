#pragma once
// Runs the real tetlab executable (TETLAB_EXE) through the shell and captures
// its exit code and combined stdout+stderr, for the CLI and headless tests.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tetlab::test {

struct ProcessResult {
  int exitCode = -1;
  std::string output;
};

inline ProcessResult runTetlab(const std::string& arguments, const std::string& envPrefix = "") {
  const std::string command = envPrefix + " '" + std::string(TETLAB_EXE) + "' " + arguments + " 2>&1";
  ProcessResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

inline bool hasDisplay() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 != nullptr && *x11 != '\0') || (wayland != nullptr && *wayland != '\0');
}

}  // namespace tetlab::test
