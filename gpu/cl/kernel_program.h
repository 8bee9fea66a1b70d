#pragma once
// A kernel file with its named kernels, rebuilt live (HotProgram) and with the
// kernels re-created after each good rebuild. If a rebuilt program lacks one
// of the kernels, the previous program and kernels stay in use and
// lastError() says which kernel is missing: a half-applied edit never runs.
#include <string>
#include <vector>

#include <CL/opencl.hpp>

#include "core/result.h"
#include "gpu/cl/cl_context.h"
#include "gpu/cl/kernel_source.h"

// A solver's kernel table from one X-macro list LIST(X) of X(id, "name"):
// declares `enum Kernel` (the index KernelProgram::kernel takes) and
// kernelNames() in the same order, so an index and its name cannot drift.
// Use it once per .cpp, inside an anonymous namespace.
#define TL_KERNEL_TABLE_ENUM_(id, name) id,
#define TL_KERNEL_TABLE_NAME_(id, name) name,
#define TL_KERNEL_TABLE(LIST)                          \
  enum Kernel : size_t { LIST(TL_KERNEL_TABLE_ENUM_) }; \
  std::vector<std::string> kernelNames() { return {LIST(TL_KERNEL_TABLE_NAME_)}; }

namespace tetlab {

class KernelProgram {
 public:
  static Result<KernelProgram> create(const ClContext& ctx, const KernelSourceOptions& source, std::string file,
                                      std::vector<std::string> kernelNames, std::string buildOptions = {});

  // Checks the files for edits (folder-backed sources only), rebuilds and
  // re-creates the kernels. BuildFailed keeps everything as it was.
  HotProgram::PollResult poll();

  // Kernel by its index in kernelNames (stable across rebuilds). Kernel
  // objects carry their arguments, so a caller sets all of them per launch.
  cl::Kernel& kernel(size_t index) { return kernels_[index]; }
  const std::string& lastError() const { return lastError_; }
  const std::string& file() const { return hot_.mainFile(); }
  uint64_t generation() const { return hot_.generation(); }
  // Work-group size for this program's kernels on its device (0 = runtime's choice).
  size_t localSize() const { return localSize_; }

 private:
  KernelProgram(HotProgram hot) : hot_(std::move(hot)) {}
  Status createKernels();

  HotProgram hot_;
  ClDeviceInfo device_;
  cl::Device clDevice_;
  std::vector<std::string> names_;
  std::vector<cl::Kernel> kernels_;
  std::string lastError_;
  size_t localSize_ = 0;
};

}  // namespace tetlab
