// Tethers (long-range attachments) and the mouse attachment: building the
// tethers, and the CPU's loops around their projections, which are shared
// with the kernels (shaders/cl/common/pb_vertex.clh: pb_attachment; tether.clh: tether_project).
//
// Tethers (Kim, Chentanez, Mueller 2012 "Long Range Attachments"): each free
// vertex may not move farther from its nearest pinned vertex than (1 + slack)
// times their rest distance.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "core/cpu/constraints_projection.h"
#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/pb_vertex.clh"

namespace tetlab {

void buildTethers(const SimModel& model, const State& state, float slack, std::vector<uint32_t>& outAnchor,
                  std::vector<float>& outLength) {
  const uint32_t n = model.vertexCount();
  std::vector<uint32_t> pinned;
  for (uint32_t i = 0; i < n; ++i)
    if (state.x[i].w == 0.0f) pinned.push_back(i);
  outAnchor.assign(n, ~0u);
  outLength.assign(n, 0.0f);
  if (pinned.empty()) return;
  // Nearest pinned vertex by rest distance: pins sorted by x, and the search
  // walks outwards from the vertex's x until |dx| exceeds the best distance.
  std::sort(pinned.begin(), pinned.end(),
            [&](uint32_t a, uint32_t b) { return model.restPositions[a].x < model.restPositions[b].x; });
  std::vector<float> pinX(pinned.size());
  for (size_t k = 0; k < pinned.size(); ++k) pinX[k] = model.restPositions[pinned[k]].x;
  for (uint32_t i = 0; i < n; ++i) {
    if (state.x[i].w == 0.0f) continue;
    const glm::vec3 p = model.restPositions[i];
    const size_t start = size_t(std::lower_bound(pinX.begin(), pinX.end(), p.x) - pinX.begin());
    float best2 = INFINITY;
    uint32_t bestPin = ~0u;
    auto visit = [&](size_t k) {
      const glm::vec3 d = model.restPositions[pinned[k]] - p;
      const float d2 = glm::dot(d, d);
      if (d2 < best2) {
        best2 = d2;
        bestPin = pinned[k];
      }
    };
    for (size_t k = start; k < pinned.size() && (pinX[k] - p.x) * (pinX[k] - p.x) < best2; ++k) visit(k);
    for (size_t k = start; k-- > 0 && (p.x - pinX[k]) * (p.x - pinX[k]) < best2;) visit(k);
    outAnchor[i] = bestPin;
    outLength[i] = (1.0f + slack) * std::sqrt(best2);
  }
}

void TetherCache::update(const SimModel& model, const State& state, float slack) {
  uint64_t sig = 1469598103934665603ull;  // FNV-1a over pinned indices and the slack
  auto mix = [&](uint64_t v) { sig = (sig ^ v) * 1099511628211ull; };
  for (uint32_t i = 0; i < uint32_t(state.x.size()); ++i)
    if (state.x[i].w == 0.0f) mix(i);
  uint32_t slackBits;
  std::memcpy(&slackBits, &slack, sizeof slackBits);
  mix(slackBits);
  mix(state.x.size());
  if (sig == signature && anchor.size() == state.x.size()) return;
  signature = sig;
  buildTethers(model, state, slack, anchor, length);
}

void projectTethers(std::span<const uint32_t> anchor, std::span<const float> length, std::vector<glm::vec4>& x) {
  if (anchor.size() != x.size() || length.size() != x.size()) return;
  for (size_t i = 0; i < x.size(); ++i) clm::tether_project(x.data(), uint32_t(i), anchor[i], length[i]);
}

void projectTethers(ProjectionContext& ctx) {
  if (!ctx.tetherAnchor || !ctx.tetherLength) return;
  projectTethers(*ctx.tetherAnchor, *ctx.tetherLength, ctx.state->x);
}

void projectAttachment(ProjectionContext& ctx) {
  clm::PbAttachment a;
  if (!packAttachment(ctx.state->mouse, a)) return;
  clm::PbResiduals res{};
  clm::pb_attachment(ctx.params, ctx.state->x.data(), ctx.state->lambda.data(), a, &res);
  addResiduals(ctx, res.r, res.n);
}

void projectAnchorSprings(ProjectionContext& ctx) {
  AnchorSprings& sp = ctx.state->springs;
  if (sp.lambda.size() != sp.subCount()) sp.lambda.assign(sp.subCount(), 0.0f);
  std::vector<glm::vec4>& x = ctx.state->x;
  const Csr& csr = sp.vertexSprings;
  if (csr.offsets.size() != x.size() + 1) return;
  for (uint32_t i = 0; i < uint32_t(x.size()); ++i) {
    for (uint32_t k = csr.offsets[i]; k < csr.offsets[i + 1]; ++k) {
      const uint32_t j = csr.items[k];
      clm::PbResiduals res{};
      clm::pb_anchor_spring(ctx.params, &x[i], sp.anchor[j], sp.stiffness[j], &sp.lambda[j], &res);
      addResiduals(ctx, res.r, res.n);
    }
  }
}

}  // namespace tetlab
