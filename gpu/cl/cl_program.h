#pragma once
// Building OpenCL programs from source text, with the compiler log as the
// error message.
//
// Includes are expanded on the host, textually, before clBuildProgram:
// embedded kernels have no file system for the driver's preprocessor, and
// "-I dir" handling differs between drivers, whereas one self-contained source
// string builds the same everywhere. `#line` markers keep compiler messages
// pointing at the original file and line:
//
//   #line 1 "cl/pbd.cl"            <- main file
//   ...                             
//   #line 1 "cl/common/edge.clh"    <- #include "common/edge.clh", inlined
//   ...
//   #line 8 "cl/pbd.cl"            <- back in the main file after the include
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <CL/opencl.hpp>

#include "core/result.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {

// Returns the text of a shader file by its name relative to shaders/
// (e.g. "cl/common/edge.clh"), or an Error saying why it cannot be read.
using SourceLoader = std::function<Result<std::string>(const std::string& name)>;

struct ExpandedSource {
  std::string text;                // self-contained program source
  std::vector<std::string> files;  // every file read, main file first (for hot reload)
};

inline constexpr int kMaxIncludeDepth = 16;

// Expands `#include "name"` lines recursively. A name is looked up relative to
// the including file's folder, then to "cl/", then to shaders/ itself. `#pragma once` files
// are inlined once; include cycles, `#include <...>`, missing files and
// nesting deeper than maxDepth are errors naming the file and line. Includes
// inside /* */ comments are ignored; includes under #if are still expanded
// (use include guards or #pragma once).
Result<ExpandedSource> expandIncludes(const std::string& mainName, const SourceLoader& load,
                                      int maxDepth = kMaxIncludeDepth);

// Options every program gets: kernels are written as OpenCL C 1.2 so the same
// source runs on PoCL, NVIDIA, AMD and Intel.
inline constexpr const char* kBaseBuildOptions = "-cl-std=CL1.2";

struct BuiltProgram {
  cl::Program program;
  std::string log;  // compiler log (warnings), possibly empty
};

// Builds `source` for ctx.device with kBaseBuildOptions + options. On failure
// the Error reads "OpenCL build of <name> failed on <device>:\n<compiler log>".
Result<BuiltProgram> buildProgram(const ClContext& ctx, const std::string& source, std::string_view name,
                                  std::string_view options = {});

// Same, for a context/device pair (the hot-reload watcher keeps only these).
Result<BuiltProgram> buildProgram(const cl::Context& context, const cl::Device& device, const std::string& source,
                                  std::string_view name, std::string_view options = {});

// clCreateKernel with an error naming the kernel and the program.
Result<cl::Kernel> createKernel(const cl::Program& program, const char* kernelName, std::string_view programName = {});

}  // namespace tetlab
