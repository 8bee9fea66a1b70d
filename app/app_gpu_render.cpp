// The OpenCL backend's drawing path: once the session runs on OpenCL, the
// render surfaces are embedded on the device (gpu/render/render_embedding.h) into the
// GL buffer SimView draws from (app/render/gl_interop.h), so positions never make a
// host round trip for drawing. It follows the session's backend, whichever
// way that changed (panel, key, or the session's own fallback to the CPU for
// a solver without kernels), and a failure just leaves the CPU embedding on.
#include "app/app.h"
#include "gpu/solvers/opencl_simulator.h"

namespace tetlab {

void App::stopGpuRendering() {
  if (simView_ && simView_->usesExternalSurfaceBuffer()) simView_->useOwnSurfaceBuffers();
  renderPositions_.reset();
  renderEmbed_.reset();
}

void App::syncGpuRendering() {
  OpenClSimulator* sim = session_ && !compare_ ? session_->openCl() : nullptr;  // compare lanes draw from the host
  if (!sim || !simView_) {
    if (renderPositions_) stopGpuRendering();
    return;
  }
  if (renderPositions_ || !gpuRenderProblem_.empty()) return;  // running, or tried and failed for this scene
  if (simView_->surfaceCount() == 0) return;  // strands only: lines, no surface to embed

  std::vector<RenderSurfaceInput> inputs;
  for (size_t i = 0; i < simView_->surfaceCount(); ++i)
    inputs.push_back({&simView_->surface(i).embedding, simView_->surface(i).triangles});
  const ClContext& ctx = sim->context();
  auto embed = RenderEmbedding::create(ctx, inputs, session_->model().vertexCount(), KernelSourceOptions{options_.kernelDir});
  if (!embed) {
    gpuRenderProblem_ = embed.error().message;
    reportNotice("surfaces stay embedded on the CPU: " + gpuRenderProblem_);
    return;
  }
  auto buffer = RenderPositionsBuffer::create(ctx, embed->outputBytes());
  if (!buffer) {
    gpuRenderProblem_ = buffer.error().message;
    reportNotice("surfaces stay embedded on the CPU: " + gpuRenderProblem_);
    return;
  }
  renderEmbed_ = std::make_unique<RenderEmbedding>(std::move(*embed));
  renderPositions_ = std::move(*buffer);
  if (Status s = simView_->useExternalSurfaceBuffer(renderPositions_->glBuffer(), renderEmbed_->surfaceFirstVertices());
      !s) {
    gpuRenderProblem_ = s.error().message;
    reportNotice("surfaces stay embedded on the CPU: " + gpuRenderProblem_);
    stopGpuRendering();
  }
}

}  // namespace tetlab
