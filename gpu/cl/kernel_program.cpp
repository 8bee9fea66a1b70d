#include "gpu/cl/kernel_program.h"

#include <algorithm>

#include "gpu/cl/cl_program.h"
#include "gpu/cl/work_group_policy.h"

namespace tetlab {

Result<KernelProgram> KernelProgram::create(const ClContext& ctx, const KernelSourceOptions& source, std::string file,
                                            std::vector<std::string> kernelNames, std::string buildOptions) {
  auto hot = HotProgram::create(ctx, source, std::move(file), std::move(buildOptions));
  if (!hot) return hot.error();
  KernelProgram kp(std::move(*hot));
  kp.device_ = ctx.info;
  kp.clDevice_ = ctx.device;
  kp.names_ = std::move(kernelNames);
  if (Status st = kp.createKernels(); !st) return st.error();
  return kp;
}

Status KernelProgram::createKernels() {
  std::vector<cl::Kernel> kernels;
  WorkGroupHints hints = workGroupHints(device_);
  for (const std::string& name : names_) {
    auto k = createKernel(hot_.program(), name.c_str(), hot_.mainFile());
    if (!k) return k.error();
    // The group size must suit every kernel of the program: take the tightest.
    size_t kernelMax = 0, multiple = 0;
    k->getWorkGroupInfo(clDevice_, CL_KERNEL_WORK_GROUP_SIZE, &kernelMax);
    k->getWorkGroupInfo(clDevice_, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, &multiple);
    hints.kernelMaxGroupSize = hints.kernelMaxGroupSize ? std::min(hints.kernelMaxGroupSize, kernelMax) : kernelMax;
    hints.kernelPreferredMultiple = std::max(hints.kernelPreferredMultiple, multiple);
    kernels.push_back(std::move(*k));
  }
  kernels_ = std::move(kernels);
  localSize_ = chooseLocalSize(hints);
  return Ok{};
}

HotProgram::PollResult KernelProgram::poll() {
  HotProgram::PollResult r = hot_.poll();
  if (r == HotProgram::PollResult::BuildFailed) {
    lastError_ = hot_.lastError();
    return r;
  }
  if (r == HotProgram::PollResult::Rebuilt) {
    if (Status st = createKernels(); !st) {
      // The new program built but lacks a kernel we launch: createKernels()
      // left the old kernels (which keep their program alive) in place.
      lastError_ = st.error().message;
      return HotProgram::PollResult::BuildFailed;
    }
    lastError_.clear();
  }
  return r;
}

}  // namespace tetlab
