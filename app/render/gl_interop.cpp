#include "app/render/gl_interop.h"

#include <string>

#include "gpu/cl/cl_error.h"

namespace tetlab {

bool currentGlHasBufferStorage() {
  return epoxy_gl_version() >= 44 || epoxy_has_gl_extension("GL_ARB_buffer_storage");
}

InteropCaps queryInteropCaps(const ClContext& ctx, bool forceCopy) {
  InteropCaps caps;
  caps.deviceGlSharing = ctx.info.glSharing;
  caps.contextShared = ctx.glShared;
  caps.deviceGlEvent = ctx.info.glEvent;
  caps.forceCopy = forceCopy;
  caps.glBufferStorage = currentGlHasBufferStorage();
  return caps;
}

std::string interopPathName(const InteropDecision& decision) {
  if (decision.path == InteropPath::SharedBuffer) return "shared CL/GL buffer";
  return decision.copyTarget == CopyTarget::PersistentMap ? "copy into persistently mapped buffer"
                                                          : "copy via glBufferSubData";
}

Result<std::unique_ptr<RenderPositionsBuffer>> RenderPositionsBuffer::create(const ClContext& ctx, size_t bytes,
                                                                             bool forceCopy) {
  return create(ctx, bytes, chooseInteropPath(queryInteropCaps(ctx, forceCopy)));
}

Result<std::unique_ptr<RenderPositionsBuffer>> RenderPositionsBuffer::create(const ClContext& ctx, size_t bytes,
                                                                             InteropDecision decision) {
  if (bytes == 0) return Error{"render positions buffer: nothing to draw (0 bytes)"};
  std::unique_ptr<RenderPositionsBuffer> out(new RenderPositionsBuffer(ctx, bytes, std::move(decision)));
  const Status s = out->decision_.path == InteropPath::SharedBuffer ? out->initShared() : out->initCopy();
  if (!s) return s.error();
  return out;
}

RenderPositionsBuffer::~RenderPositionsBuffer() {
  if (drawFence_) glDeleteSync(drawFence_);
  if (mapped_) {
    glBindBuffer(GL_ARRAY_BUFFER, glBuffer_.id());
    glUnmapBuffer(GL_ARRAY_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
  }
}

Status RenderPositionsBuffer::initShared() {
  glBuffer_ = makeGlBuffer();
  glBindBuffer(GL_ARRAY_BUFFER, glBuffer_.id());
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(bytes_), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  if (glGetError() != GL_NO_ERROR) return Error{"allocating the shared GL vertex buffer failed (out of GPU memory?)"};
  // Read-write: the normal kernel reads the positions the embed kernel wrote.
  cl_int err = CL_SUCCESS;
  shared_ = cl::BufferGL(ctx_->context, CL_MEM_READ_WRITE, glBuffer_.id(), &err);
  if (err != CL_SUCCESS)
    return clError("clCreateFromGLBuffer on the render vertex buffer (force the copy path to avoid sharing)",
                   err);
  return Ok{};
}

Status RenderPositionsBuffer::initCopy() {
  auto stage = DeviceBuffer<glm::vec4>::create(ctx_->context, bytes_ / sizeof(glm::vec4), CL_MEM_READ_WRITE,
                                               "render positions");
  if (!stage) return stage.error();
  stage_ = std::move(*stage);
  glBuffer_ = makeGlBuffer();
  glBindBuffer(GL_ARRAY_BUFFER, glBuffer_.id());
  if (decision_.copyTarget == CopyTarget::PersistentMap) {
    // Coherent: CPU writes are visible to GL commands issued after them, so
    // no explicit flush; persistent: stays mapped while GL draws from it.
    const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    glBufferStorage(GL_ARRAY_BUFFER, GLsizeiptr(bytes_), nullptr, flags);
    mapped_ = glMapBufferRange(GL_ARRAY_BUFFER, 0, GLsizeiptr(bytes_), flags);
    if (mapped_ == nullptr) {
      // Advertised but refused (driver limits): fall back within the copy path.
      while (glGetError() != GL_NO_ERROR) {
      }
      glBuffer_ = makeGlBuffer();
      glBindBuffer(GL_ARRAY_BUFFER, glBuffer_.id());
      decision_.copyTarget = CopyTarget::BufferSubData;
      decision_.reason += "; persistent mapping failed, using glBufferSubData";
    }
  }
  if (decision_.copyTarget != CopyTarget::PersistentMap) {
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(bytes_), nullptr, GL_STREAM_DRAW);
    hostStaging_.resize(bytes_ / sizeof(glm::vec4));
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  if (glGetError() != GL_NO_ERROR) return Error{"allocating the render GL vertex buffer failed (out of GPU memory?)"};
  return Ok{};
}

Status RenderPositionsBuffer::update(RenderEmbedding& embedding, const cl::Buffer& x) {
  if (embedding.outputBytes() > bytes_)
    return Error{"render positions buffer holds " + std::to_string(bytes_) + " bytes but the embedding writes " +
                 std::to_string(embedding.outputBytes()) + "; recreate it after a reload"};
  return decision_.path == InteropPath::SharedBuffer ? updateShared(embedding, x) : updateCopy(embedding, x);
}

Status RenderPositionsBuffer::updateShared(RenderEmbedding& embedding, const cl::Buffer& x) {
  const cl::CommandQueue& queue = ctx_->queue;
  const bool fences = decision_.sync == InteropSync::FinishFences;
  // cl_khr_gl_sharing: without cl_khr_gl_event, GL must have finished with the
  // buffer before the acquire, and CL before GL uses it again.
  if (fences) glFinish();
  const std::vector<cl::Memory> objects{shared_};
  if (cl_int err = queue.enqueueAcquireGLObjects(&objects); err != CL_SUCCESS)
    return clError("acquiring the shared GL vertex buffer", err);
  const cl_int kernelErr = embedding.enqueue(queue, x, shared_);
  // Release even after a failed launch, or GL would keep a buffer CL owns.
  const cl_int releaseErr = queue.enqueueReleaseGLObjects(&objects);
  if (kernelErr != CL_SUCCESS) return clError("enqueueing render_embed kernels on the shared buffer", kernelErr);
  if (releaseErr != CL_SUCCESS) return clError("releasing the shared GL vertex buffer", releaseErr);
  // With cl_khr_gl_event, GL commands issued after a flushed release wait for it.
  const cl_int syncErr = fences ? queue.finish() : queue.flush();
  if (syncErr != CL_SUCCESS) return clError("waiting for the render_embed kernels", syncErr);
  return Ok{};
}

Status RenderPositionsBuffer::waitForDrawFence() {
  // No fence from fenceAfterDraw: fence everything GL has queued so far.
  if (drawFence_ == nullptr) drawFence_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  GLbitfield flags = GL_SYNC_FLUSH_COMMANDS_BIT;
  for (int tries = 0; tries < 1000; ++tries) {  // 1000 x 10 ms: a GPU that hung, not a slow frame
    const GLenum r = glClientWaitSync(drawFence_, flags, GLuint64(10'000'000));
    flags = 0;
    if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED) {
      glDeleteSync(drawFence_);
      drawFence_ = nullptr;
      return Ok{};
    }
    if (r == GL_WAIT_FAILED) break;
  }
  glDeleteSync(drawFence_);
  drawFence_ = nullptr;
  return Error{"waiting for OpenGL to finish drawing the render vertex buffer failed (GPU hung or context lost)"};
}

Status RenderPositionsBuffer::updateCopy(RenderEmbedding& embedding, const cl::Buffer& x) {
  const cl::CommandQueue& queue = ctx_->queue;
  if (cl_int err = embedding.enqueue(queue, x, stage_.buffer()); err != CL_SUCCESS)
    return clError("enqueueing render_embed kernels", err);
  const size_t used = embedding.outputBytes();
  if (decision_.copyTarget == CopyTarget::PersistentMap) {
    // The kernels run while we wait for GL to let go of last frame's data.
    if (Status s = waitForDrawFence(); !s) return s;
    if (cl_int err = queue.enqueueReadBuffer(stage_.buffer(), CL_TRUE, 0, used, mapped_); err != CL_SUCCESS)
      return clError("reading render positions into the mapped GL buffer", err);
    return Ok{};
  }
  if (cl_int err = queue.enqueueReadBuffer(stage_.buffer(), CL_TRUE, 0, used, hostStaging_.data()); err != CL_SUCCESS)
    return clError("reading render positions", err);
  // glBufferSubData copies before returning; GL orders it after earlier draws itself.
  glBindBuffer(GL_ARRAY_BUFFER, glBuffer_.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(used), hostStaging_.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return Ok{};
}

void RenderPositionsBuffer::fenceAfterDraw() {
  if (decision_.copyTarget != CopyTarget::PersistentMap) return;
  if (drawFence_) glDeleteSync(drawFence_);
  drawFence_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

}  // namespace tetlab
