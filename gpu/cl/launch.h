#pragma once
// Kernel launches for the step scripts: set arguments, size the launch with
// the work-group policy, enqueue with a profiler event. Returns cl_int (no
// exceptions, no allocation) so it can run inside the frame loop.
#include <cstddef>

#include <CL/opencl.hpp>

#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/work_group_policy.h"

namespace tetlab {

namespace detail {
template <class T>
cl_int setOneArg(cl::Kernel& k, cl_uint index, const T& value) {
  return k.setArg(index, value);
}
template <class T>
cl_int setOneArg(cl::Kernel& k, cl_uint index, const DeviceBuffer<T>& buffer) {
  return k.setArg(index, buffer.buffer());
}
}  // namespace detail

// setKernelArgs(k, a, b, c) sets arguments 0, 1, 2; the first error wins.
template <class... Args>
cl_int setKernelArgs(cl::Kernel& kernel, const Args&... args) {
  cl_int err = CL_SUCCESS;
  cl_uint index = 0;
  ((err = err == CL_SUCCESS ? detail::setOneArg(kernel, index, args) : err, ++index), ...);
  return err;
}

// One work-item per element, `count` elements; nothing is enqueued when count
// is 0 (an empty colour), since a zero global size is an error before 2.1.
inline cl_int launch1D(const cl::CommandQueue& queue, const cl::Kernel& kernel, size_t count, size_t local,
                       cl::Event* event = nullptr) {
  if (count == 0) return CL_SUCCESS;
  const LaunchSize size = planLaunch(count, local);
  return queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(size.global),
                                    size.local ? cl::NDRange(size.local) : cl::NullRange, nullptr, event);
}

}  // namespace tetlab
