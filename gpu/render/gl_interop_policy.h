#pragma once
// How simulated positions reach the OpenGL vertex buffer: one pure decision
// from queried capabilities, so every branch is tested without a GPU.
//
//   device has cl_khr_gl_sharing ─┬─ and the CL context was created sharing the GL context
//                                 │    ├─ cl_khr_gl_event ─► SharedBuffer, GL sync via CL events
//                                 │    └─ otherwise ──────► SharedBuffer, glFinish before / clFinish after
//                                 └─ creation failed ──► CopyToMappedBuffer
//   no sharing, or copy forced ─────────────────────────► CopyToMappedBuffer
//
// SharedBuffer: clCreateFromGLBuffer, acquire/release around the write.
// CopyToMappedBuffer: clEnqueueReadBuffer into a persistently mapped GL buffer
// (GL 4.4 / ARB_buffer_storage), or glBufferSubData where that is missing.
// No GL headers here: the app/ side does the GL calls.
#include <string>

namespace tetlab {

struct InteropCaps {
  bool deviceGlSharing = false;    // device advertises cl_khr_gl_sharing (or cl_APPLE_gl_sharing)
  bool contextShared = false;      // the CL context was created with the GL context's properties
  bool deviceGlEvent = false;      // device advertises cl_khr_gl_event
  bool forceCopy = false;          // user asked for the copy path (CLI / UI / TETLAB_GL_INTEROP=copy)
  bool glBufferStorage = false;    // GL 4.4 or ARB_buffer_storage: persistent mapping possible
};

enum class InteropPath { SharedBuffer, CopyToMappedBuffer };
enum class InteropSync {
  None,         // copy path: the read is blocking, nothing else to order
  GlEvent,      // cl_khr_gl_event: acquire orders after GL implicitly; clFinish is not needed
  FinishFences  // no GL event extension: glFinish() before acquire, clFinish() after release
};
enum class CopyTarget { NotApplicable, PersistentMap, BufferSubData };

struct InteropDecision {
  InteropPath path = InteropPath::CopyToMappedBuffer;
  InteropSync sync = InteropSync::None;
  CopyTarget copyTarget = CopyTarget::NotApplicable;
  std::string reason;  // for the UI: why this path was chosen
};

InteropDecision chooseInteropPath(const InteropCaps& caps);

// Short text for the UI: "shared CL/GL buffer (GL events)", "copy into a mapped GL buffer", ...
std::string describeInterop(const InteropDecision& decision);

}  // namespace tetlab
