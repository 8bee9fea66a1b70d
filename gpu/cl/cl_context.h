#pragma once
// The OpenCL context and its one in-order, profiling-enabled command queue.
//
// One queue, in order: every stage of a step is enqueued in the order it must
// run, so no events are needed for correctness (the profiler still attaches
// events to time each launch). cl::Context and cl::CommandQueue are already
// reference-counted RAII handles; ClContext bundles them with what we learned
// about the device so later policies (work-group size, GL interop) can ask.
//
// GL sharing stays GL-header-free here: app/ builds the platform-specific
// property list (CL_GL_CONTEXT_KHR + CL_GLX_DISPLAY_KHR / CL_WGL_HDC_KHR /
// CL_EGL_DISPLAY_KHR with their handles) and passes it as plain integers.
#include <string>
#include <vector>

#include <CL/opencl.hpp>

#include "core/result.h"
#include "gpu/cl/cl_devices.h"

namespace tetlab {

struct ClContextOptions {
  DeviceChoice choice;  // -1 = automatic (see chooseDevice)
  // Extra context properties for GL sharing, as key/value pairs WITHOUT the
  // platform entry and WITHOUT the terminating 0 (both are added here). Empty
  // = plain context. When creation with them fails, a plain context is made
  // instead and ClContext::glSharingError says why.
  std::vector<cl_context_properties> glSharingProperties;
};

struct ClContext {
  cl::Platform platform;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;  // in order, CL_QUEUE_PROFILING_ENABLE
  DeviceChoice chosen;     // resolved indices (never -1)
  std::string platformName;
  ClDeviceInfo info;
  bool glShared = false;        // context created with the GL sharing properties
  std::string glSharingError;   // why sharing was not used, when it was asked for
};

// Lists platforms, resolves options.choice with chooseDevice and creates the
// context and queue. Errors name the device and the OpenCL error.
Result<ClContext> createClContext(const ClContextOptions& options = {});

}  // namespace tetlab
