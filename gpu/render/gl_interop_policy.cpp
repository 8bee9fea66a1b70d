#include "gpu/render/gl_interop_policy.h"

namespace tetlab {

InteropDecision chooseInteropPath(const InteropCaps& caps) {
  InteropDecision d;
  auto copy = [&](std::string reason) {
    d.path = InteropPath::CopyToMappedBuffer;
    d.sync = InteropSync::None;
    d.copyTarget = caps.glBufferStorage ? CopyTarget::PersistentMap : CopyTarget::BufferSubData;
    d.reason = std::move(reason);
    return d;
  };
  if (caps.forceCopy) return copy("copy path forced by the user");
  if (!caps.deviceGlSharing) return copy("device does not support cl_khr_gl_sharing");
  if (!caps.contextShared) return copy("the OpenCL context could not share the OpenGL context");

  d.path = InteropPath::SharedBuffer;
  d.copyTarget = CopyTarget::NotApplicable;
  if (caps.deviceGlEvent) {
    // cl_khr_gl_event: clEnqueueAcquireGLObjects implicitly waits for GL work
    // on the shared objects, so no full pipeline flush is needed.
    d.sync = InteropSync::GlEvent;
    d.reason = "cl_khr_gl_sharing with cl_khr_gl_event";
  } else {
    // Without it the spec requires the app to finish GL before acquire and CL
    // before GL uses the buffer again (cl_khr_gl_sharing, section on sync).
    d.sync = InteropSync::FinishFences;
    d.reason = "cl_khr_gl_sharing without cl_khr_gl_event: glFinish/clFinish fences";
  }
  return d;
}

std::string describeInterop(const InteropDecision& decision) {
  if (decision.path == InteropPath::SharedBuffer)
    return decision.sync == InteropSync::GlEvent ? "shared CL/GL buffer (GL events)"
                                                 : "shared CL/GL buffer (finish fences)";
  return decision.copyTarget == CopyTarget::PersistentMap ? "copy into a persistently mapped GL buffer"
                                                          : "copy into a GL buffer (glBufferSubData)";
}

}  // namespace tetlab
