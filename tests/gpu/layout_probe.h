#pragma once
// The device side of the layout probe tests (vbd_layout_probe_test.cpp,
// pb_layout_probe_test.cpp): a one-kernel program given as text, its
// #includes resolved against the embedded kernels, so it sees the structs
// exactly as the real kernels do.
#include <string>

#include "gpu/cl/cl_program.h"
#include "gpu/cl/kernel_source.h"

namespace tetlab::test {

// Kernel `name` of the program `source`, compiled as "cl/<name>.cl".
inline Result<cl::Kernel> buildProbeKernel(const ClContext& ctx, const std::string& name, const char* source) {
  const std::string file = "cl/" + name + ".cl";
  SourceLoader embedded = makeSourceLoader({});
  SourceLoader loader = [&](const std::string& n) -> Result<std::string> {
    if (n == file) return std::string(source);
    return embedded(n);
  };
  auto src = expandIncludes(file, loader);
  if (!src) return src.error();
  auto built = buildProgram(ctx, src->text, file);
  if (!built) return built.error();
  return createKernel(built->program, name.c_str(), file);
}

}  // namespace tetlab::test
