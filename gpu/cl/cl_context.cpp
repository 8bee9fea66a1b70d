#include "gpu/cl/cl_context.h"

#include "gpu/cl/cl_error.h"
#include "gpu/cl/cl_query.h"

namespace tetlab {

namespace {

std::vector<cl_context_properties> withPlatform(const cl::Platform& platform,
                                                const std::vector<cl_context_properties>& extra) {
  std::vector<cl_context_properties> props = {CL_CONTEXT_PLATFORM, cl_context_properties(platform())};
  props.insert(props.end(), extra.begin(), extra.end());
  props.push_back(0);
  return props;
}

}  // namespace

Result<ClContext> createClContext(const ClContextOptions& options) {
  auto platforms = queryClPlatforms();
  if (!platforms) return platforms.error();

  std::vector<ClPlatformInfo> infos;
  std::vector<std::vector<cl::Device>> devices;
  for (const cl::Platform& platform : *platforms) {
    infos.push_back(queryPlatformInfo(platform));
    devices.push_back(queryClDevices(platform));
  }
  auto choice = chooseDevice(infos, options.choice);
  if (!choice) return choice.error();

  ClContext out;
  out.chosen = *choice;
  out.platform = (*platforms)[size_t(choice->platform)];
  out.device = devices[size_t(choice->platform)][size_t(choice->device)];
  out.platformName = infos[size_t(choice->platform)].name;
  out.info = infos[size_t(choice->platform)].devices[size_t(choice->device)];

  cl_int err = CL_SUCCESS;
  if (!options.glSharingProperties.empty()) {
    if (!out.info.glSharing) {
      out.glSharingError = "device does not advertise cl_khr_gl_sharing";
    } else {
      const auto props = withPlatform(out.platform, options.glSharingProperties);
      out.context = cl::Context(std::vector<cl::Device>{out.device}, props.data(), nullptr, nullptr, &err);
      if (err == CL_SUCCESS) {
        out.glShared = true;
      } else {
        // Typical: the GL context lives on another GPU than the CL device
        // (CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR). The copy path still works.
        out.glSharingError = clError("clCreateContext with GL sharing", err).message;
        out.context = cl::Context();
      }
    }
  }
  if (!out.glShared) {
    const auto props = withPlatform(out.platform, {});
    out.context = cl::Context(std::vector<cl::Device>{out.device}, props.data(), nullptr, nullptr, &err);
    if (err != CL_SUCCESS)
      return clError("creating an OpenCL context on " + out.info.name + " (platform " + out.platformName + ")", err);
  }

  out.queue = cl::CommandQueue(out.context, out.device, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err != CL_SUCCESS)
    return clError("creating a profiling command queue on " + out.info.name, err);
  return out;
}

}  // namespace tetlab
