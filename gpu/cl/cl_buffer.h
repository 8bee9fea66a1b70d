#pragma once
// Typed device buffers. The element type fixes the layout both sides agree on:
// only 4-, 8- or 16-byte trivially copyable types (float, uint, float2,
// float4/glm::vec4, uint4/glm::uvec4, ...), never a 12-byte glm::vec3, whose
// OpenCL twin float3 is 16 bytes, so an array of them would silently shear.
//
// Transfers return cl_int instead of throwing: they are used inside the frame
// loop. An empty buffer holds no cl_mem (OpenCL forbids zero-sized buffers);
// passing it as a kernel argument passes NULL, which kernels must not touch
// (their ranges are empty too).
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <CL/opencl.hpp>

#include "core/result.h"
#include "gpu/cl/cl_error.h"

namespace tetlab {

// True when the environment sets TETLAB_CL_POISON=1: new device buffers are
// then filled with 0xff bytes instead of whatever the allocator returns.
bool poisonNewDeviceBuffers();

template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffer elements are copied bytewise");
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "device buffer elements must be 4, 8 or 16 bytes (scalar, 2- or 4-vector): "
                "no float3/glm::vec3 (12 bytes on the host, 16 in OpenCL)");

 public:
  DeviceBuffer() = default;

  static Result<DeviceBuffer> create(const cl::Context& context, size_t count,
                                     cl_mem_flags flags = CL_MEM_READ_WRITE, std::string_view label = {}) {
    DeviceBuffer b;
    b.count_ = count;
    if (count == 0) return b;
    cl_int err = CL_SUCCESS;
    if (poisonNewDeviceBuffers() && (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) == 0) {
      // Debug aid: every byte 0xff (NaN floats, 0xffffffff uints), so a kernel
      // reading memory nobody wrote shows up on any device, not only on GPUs
      // whose fresh allocations happen to hold old data.
      std::vector<unsigned char> poison(count * sizeof(T), 0xffu);
      b.buffer_ = cl::Buffer(context, flags | CL_MEM_COPY_HOST_PTR, count * sizeof(T), poison.data(), &err);
    } else {
      b.buffer_ = cl::Buffer(context, flags, count * sizeof(T), nullptr, &err);
    }
    if (err != CL_SUCCESS)
      return clError("allocating device buffer " + std::string(label) + " (" + std::to_string(count * sizeof(T)) +
                         " bytes)",
                     err);
    return b;
  }

  // Allocates and uploads `data` (blocking), for setup code.
  static Result<DeviceBuffer> fromHost(const cl::Context& context, const cl::CommandQueue& queue,
                                       std::span<const T> data, cl_mem_flags flags = CL_MEM_READ_WRITE,
                                       std::string_view label = {}) {
    auto b = create(context, data.size(), flags, label);
    if (!b) return b;
    if (cl_int err = b->upload(queue, data); err != CL_SUCCESS)
      return clError("uploading device buffer " + std::string(label), err);
    return b;
  }

  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }
  bool empty() const { return count_ == 0; }
  const cl::Buffer& buffer() const { return buffer_; }

  // Writes data into elements [offset, offset + data.size()).
  cl_int upload(const cl::CommandQueue& queue, std::span<const T> data, size_t offset = 0,
                bool blocking = true) const {
    if (offset + data.size() > count_) return CL_INVALID_VALUE;
    if (data.empty()) return CL_SUCCESS;
    return queue.enqueueWriteBuffer(buffer_, blocking ? CL_TRUE : CL_FALSE, offset * sizeof(T),
                                    data.size() * sizeof(T), data.data());
  }

  // Reads elements [offset, offset + out.size()) into out.
  cl_int download(const cl::CommandQueue& queue, std::span<T> out, size_t offset = 0, bool blocking = true) const {
    if (offset + out.size() > count_) return CL_INVALID_VALUE;
    if (out.empty()) return CL_SUCCESS;
    return queue.enqueueReadBuffer(buffer_, blocking ? CL_TRUE : CL_FALSE, offset * sizeof(T), out.size() * sizeof(T),
                                   out.data());
  }

  // Sets elements [offset, offset + count) to value (clEnqueueFillBuffer, non-blocking).
  cl_int fill(const cl::CommandQueue& queue, const T& value, size_t offset = 0, size_t count = size_t(-1)) const {
    if (count == size_t(-1)) count = count_ >= offset ? count_ - offset : 0;
    if (offset + count > count_) return CL_INVALID_VALUE;
    if (count == 0) return CL_SUCCESS;
    return queue.enqueueFillBuffer(buffer_, value, offset * sizeof(T), count * sizeof(T));
  }

  // Copies all of `from` into this buffer on the device (same size required).
  cl_int copyFrom(const cl::CommandQueue& queue, const DeviceBuffer& from) const {
    if (from.count_ != count_) return CL_INVALID_VALUE;
    if (count_ == 0) return CL_SUCCESS;
    return queue.enqueueCopyBuffer(from.buffer_, buffer_, 0, 0, bytes());
  }

 private:
  cl::Buffer buffer_;
  size_t count_ = 0;
};

// Same elements bit for bit (so -0 vs 0 or a NaN counts as a change): the
// test behind every "upload only when it changed" of a small host input.
template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  static_assert(std::is_trivially_copyable_v<T>);
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace tetlab
