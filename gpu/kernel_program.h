#pragma once
// A kernel file with its named kernels, rebuilt live (HotProgram) and with the
// kernels re-created after each good rebuild. If a rebuilt program lacks one
// of the kernels, the previous program and kernels stay in use and
// lastError() says which kernel is missing: a half-applied edit never runs.
#include <string>
#include <vector>

#include <CL/opencl.hpp>

#include "core/result.h"
#include "gpu/cl_context.h"
#include "gpu/kernel_source.h"

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
