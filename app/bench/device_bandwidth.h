#pragma once
// The device's copy bandwidth, measured with a copy kernel
// (shaders/cl/bench_copy.cl): the yardstick the bench divides the solve
// kernels' traffic by (issue 12: "at least 30 % of the measured copy bandwidth").
#include <cstddef>

#include "core/result.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {

struct CopyBandwidth {
  double bytesPerSecond = 0.0;  // bytes read + bytes written, median of the timed copies
  size_t bufferBytes = 0;       // size of each of the two buffers
  int copies = 0;               // timed copies
};

// Copies a buffer of `bytes` (capped at a quarter of the device's global
// memory) `copies` times after one untimed copy; wall time around each copy
// and its finish. Errors name the OpenCL call that failed.
Result<CopyBandwidth> measureCopyBandwidth(const ClContext& ctx, size_t bytes = size_t(256) << 20, int copies = 7);

}  // namespace tetlab
