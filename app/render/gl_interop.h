#pragma once
// The GL vertex buffer the renderer reads simulated surface positions from,
// filled by OpenCL once per frame without the CPU embedding anything.
// Which way the data travels is decided once, by chooseInteropPath
// (gpu/render/gl_interop_policy.h), from queried capabilities:
//
//   SharedBuffer        GL buffer ══ clCreateFromGLBuffer ══ CL buffer
//                       frame: [glFinish] acquire ─► render_embed kernels ─► release [clFinish | clFlush]
//   CopyToMappedBuffer  CL buffer ─► render_embed kernels ─► clEnqueueReadBuffer (blocking)
//                         PersistentMap: straight into the persistently mapped GL buffer
//                                        (GL 4.4 / ARB_buffer_storage, coherent), after waiting on
//                                        a GLsync fence placed behind the last draw reading it
//                         BufferSubData: into a host vector, then glBufferSubData
//
// Buffer layout (both paths, see gpu/render/render_embedding.h): float4 positions of
// every render vertex, then float4 normals; SimView points its attributes at it.
// Normals come from a CL gather kernel rather than derivative (dFdx/dFdy)
// normals in the fragment shader: smooth shading identical to the CPU path,
// for one extra small launch and twice the bytes in the one copy per frame.
#include <memory>
#include <string>
#include <vector>

#include <epoxy/gl.h>

#include <CL/opencl.hpp>
#include <glm/vec4.hpp>

#include "app/render/gl_resources.h"
#include "core/result.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"
#include "gpu/render/gl_interop_policy.h"
#include "gpu/render/render_embedding.h"

struct GLFWwindow;

namespace tetlab {

// CL_GL_CONTEXT_KHR + CL_GLX_DISPLAY_KHR of the window's GLX context, for
// ClContextOptions::glSharingProperties. Empty when the window has no GLX
// context (then a plain CL context is made and the copy path is used).
std::vector<cl_context_properties> glxSharingProperties(GLFWwindow* window);

// GL 4.4 or GL_ARB_buffer_storage on the current context (persistent mapping).
bool currentGlHasBufferStorage();

// Capabilities of the device, the context and the current GL context.
InteropCaps queryInteropCaps(const ClContext& ctx, bool forceCopy);

// UI text of a decision: "shared CL/GL buffer", "copy into persistently mapped
// buffer" or "copy via glBufferSubData".
std::string interopPathName(const InteropDecision& decision);

class RenderPositionsBuffer {
 public:
  // Needs the GL context current; ctx must outlive this object (it keeps the
  // queue). bytes = RenderEmbedding::outputBytes().
  static Result<std::unique_ptr<RenderPositionsBuffer>> create(const ClContext& ctx, size_t bytes, bool forceCopy = false);
  // The same with a decision made elsewhere (tests: force each copy target).
  static Result<std::unique_ptr<RenderPositionsBuffer>> create(const ClContext& ctx, size_t bytes,
                                                               InteropDecision decision);
  ~RenderPositionsBuffer();
  RenderPositionsBuffer(const RenderPositionsBuffer&) = delete;
  RenderPositionsBuffer& operator=(const RenderPositionsBuffer&) = delete;

  // Once per rendered frame after the step was enqueued: render vertices from
  // x (DeviceState::x) into the GL buffer. Returns when GL may draw it.
  Status update(RenderEmbedding& embedding, const cl::Buffer& x);

  // Call right after the draws that read the buffer (persistent map only;
  // otherwise a no-op): the next update waits on this fence instead of on
  // everything GL has queued. Skipping it is safe, just less concurrent.
  void fenceAfterDraw();

  GLuint glBuffer() const { return glBuffer_.id(); }
  size_t bytes() const { return bytes_; }
  const InteropDecision& decision() const { return decision_; }
  std::string pathName() const { return interopPathName(decision_); }

 private:
  RenderPositionsBuffer(const ClContext& ctx, size_t bytes, InteropDecision decision)
      : ctx_(&ctx), bytes_(bytes), decision_(std::move(decision)) {}
  Status initShared();
  Status initCopy();
  Status updateShared(RenderEmbedding& embedding, const cl::Buffer& x);
  Status updateCopy(RenderEmbedding& embedding, const cl::Buffer& x);
  Status waitForDrawFence();

  const ClContext* ctx_;
  size_t bytes_ = 0;
  InteropDecision decision_;
  GlBuffer glBuffer_;
  cl::BufferGL shared_;                 // SharedBuffer: the GL buffer seen from CL (released before glBuffer_)
  DeviceBuffer<glm::vec4> stage_;       // CopyToMappedBuffer: where the kernels write
  void* mapped_ = nullptr;              // PersistentMap: the GL buffer's persistent pointer
  std::vector<glm::vec4> hostStaging_;  // BufferSubData
  GLsync drawFence_ = nullptr;
};

}  // namespace tetlab
