#include "app/bench/device_bandwidth.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include <glm/vec4.hpp>

#include "app/bench/bench_runner.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/kernel_program.h"
#include "gpu/cl/launch.h"

namespace tetlab {

Result<CopyBandwidth> measureCopyBandwidth(const ClContext& ctx, size_t bytes, int copies) {
  if (ctx.info.globalMemBytes > 0) bytes = std::min<size_t>(bytes, size_t(ctx.info.globalMemBytes / 4));
  const size_t count = std::max<size_t>(bytes / sizeof(glm::vec4), 1);
  auto program = KernelProgram::create(ctx, KernelSourceOptions{}, "cl/bench_copy.cl", {"bench_copy"});
  if (!program) return Error{"copy-bandwidth kernel: " + program.error().message};
  auto src = DeviceBuffer<glm::vec4>::create(ctx.context, count, CL_MEM_READ_ONLY, "bench copy source");
  if (!src) return src.error();
  auto dst = DeviceBuffer<glm::vec4>::create(ctx.context, count, CL_MEM_WRITE_ONLY, "bench copy target");
  if (!dst) return dst.error();
  // Written once so the copies read initialised memory.
  if (cl_int e = ctx.queue.enqueueFillBuffer(src->buffer(), 0.0f, 0, src->bytes()); e != CL_SUCCESS)
    return clError("filling the copy-bandwidth source", e);
  cl::Kernel& kernel = program->kernel(0);
  if (cl_int e = setKernelArgs(kernel, *src, *dst, uint32_t(count)); e != CL_SUCCESS)
    return clError("setting the copy kernel's arguments", e);
  std::vector<double> seconds;
  for (int k = 0; k <= copies; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    cl_int e = launch1D(ctx.queue, kernel, count, program->localSize());
    if (e == CL_SUCCESS) e = ctx.queue.finish();
    if (e != CL_SUCCESS) return clError("running the copy kernel", e);
    if (k > 0) seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const double median = quantile(seconds, 0.5);
  CopyBandwidth out;
  out.bufferBytes = count * sizeof(glm::vec4);
  out.copies = copies;
  out.bytesPerSecond = median > 0.0 ? 2.0 * double(out.bufferBytes) / median : 0.0;
  return out;
}

}  // namespace tetlab
