#include "core/sim/rayleigh_damping.h"

#include <algorithm>
#include <cmath>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/rayleigh_damping.clh"

#include "core/model/body_constants.h"
#include "core/model/cloth_membrane.h"
#include "core/sim/state.h"

namespace tetlab {
namespace {

// The step's loops follow the device's (shaders/cl/rayleigh_damping.cl) one
// for one: tets write their corner terms, vertices gather them in CSR order,
// dot products go through per-vertex terms summed in rd_scalars' order. The
// CPU reference is then within float rounding of the device, which the parity
// tests rely on: a CG truncated at maxIterations amplifies any other order.

// Per-body (mu, lambda, k_d, bending) (packNeoHookeanBodies), the device's DmInv columns and the
// spring stiffness, re-packed when the materials' revision moved so edits
// apply at once. Returns false when no body is damped (the pass is then skipped).
bool refreshInputs(const SimModel& model, SpringChoice edgeSprings, RayleighDampingScratch& s) {
  if (!s.stamp.current(model.materials) || s.edgeSprings != edgeSprings) {
    s.anyDamped = packNeoHookeanBodies(model, s.bodies);
    packDmInvColumns(model, s.dmInv);
    packEdgeStiffness(model, edgeSprings, s.edgeStiffness);
    s.stamp.take(model.materials);
    s.edgeSprings = edgeSprings;
  }
  if (!s.anyDamped) return false;
  const size_t n = model.vertexCount();
  for (auto* v : {&s.dv, &s.r, &s.p, &s.q}) v->assign(n, glm::vec4(0.0f));
  s.corner.assign(4 * size_t(model.tetCount()), glm::vec4(0.0f));
  s.terms.assign(n, 0.0f);
  return true;
}

// rd_scalars' sum: lane l adds terms l, l + RD_GROUP, ...; then lanes pairwise.
float sumTerms(const std::vector<float>& terms) {
  float lane[RD_GROUP] = {};
  for (size_t k = 0; k < terms.size(); ++k) lane[k % RD_GROUP] += terms[k];
  for (int width = RD_GROUP / 2; width > 0; width >>= 1)
    for (int l = 0; l < width; ++l) lane[l] += lane[l + width];
  return lane[0];
}

}  // namespace

// rd_tets + rd_gather: out = (k K) d, k = bodies[].z.
void applyElementStiffness(const SimModel& model, const std::vector<glm::vec4>& bodies,
                           const std::vector<glm::vec4>& dmInv, const std::vector<float>& edgeStiffness, bool springs,
                           bool membranes, const State& state, const std::vector<glm::vec4>& d,
                           std::vector<glm::vec4>& corner, std::vector<glm::vec4>& out) {
  corner.resize(4 * size_t(model.tetCount()));
  for (uint32_t t = 0; t < model.tetCount(); ++t) {
    const glm::vec4 body = bodies[model.tetBody[t]];
    glm::vec3 f[4] = {glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(0.0f)};
    if (body.z > 0.0f) {
      const glm::uvec4 v = model.tets[t];
      const clm::Mat3 Dm = clm::mat3_cols(glm::vec3(dmInv[3 * t]), glm::vec3(dmInv[3 * t + 1]),
                                          glm::vec3(dmInv[3 * t + 2]));
      clm::rd_tet_apply(body, model.restVolume[t], Dm, glm::vec3(state.x[v.x]), glm::vec3(state.x[v.y]),
                        glm::vec3(state.x[v.z]), glm::vec3(state.x[v.w]), glm::vec3(d[v.x]), glm::vec3(d[v.y]),
                        glm::vec3(d[v.z]), glm::vec3(d[v.w]), f);
    }
    for (int k = 0; k < 4; ++k) corner[4 * size_t(t) + size_t(k)] = glm::vec4(f[k], 0.0f);
  }
  const bool withSprings = springs && model.edgeCount() > 0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i) {
    glm::vec3 sum(0.0f);
    for (uint32_t k = model.vertexTets.offsets[i]; k < model.vertexTets.offsets[i + 1]; ++k)
      sum += glm::vec3(corner[model.vertexTets.items[k]]);
    if (withSprings)
      sum += clm::rd_springs_apply(i, bodies[model.vertexBody[i]].z, state.x.data(), d.data(), model.edges.data(),
                                   model.restLength.data(), edgeStiffness.data(), model.vertexEdges.offsets.data(),
                                   model.vertexEdges.items.data());
    if (membranes)
      sum += clm::rd_membranes_apply(i, state.x.data(), d.data(), model.membranes.data(), model.membraneDmInv.data(),
                                     model.membraneArea.data(), model.vertexMembranes.offsets.data(),
                                     model.vertexMembranes.items.data(), bodies.data());
    out[i] = glm::vec4(sum, 0.0f);
  }
}

RayleighDampingReport applyRayleighDamping(const SimModel& model, const RayleighDampingSettings& settings,
                                           SpringChoice edgeSprings, float dt, State& state) {
  RayleighDampingReport report;
  RayleighDampingScratch& s = state.dampingScratch;
  if (model.vertexCount() == 0 || !(dt > 0.0f) || !refreshInputs(model, edgeSprings, s)) return report;
  const bool springs = anyEdgeSprings(model, edgeSprings);
  const bool membranes = clothMembraneOn(model, edgeSprings.clothMembrane);
  report.applied = true;
  const uint32_t n = model.vertexCount();
  const uint32_t maxIterations = uint32_t(std::max(0, settings.maxIterations));
  float scalars[RD_SCALAR_SLOTS] = {};
  auto w = [&](uint32_t i) { return state.x[i].w; };
  auto xyz = [](const glm::vec4& v) { return glm::vec3(v); };
  auto update = [&](uint32_t mode) {
    clm::rd_scalars_update(mode, sumTerms(s.terms), maxIterations, settings.tolerance, scalars);
    return scalars[RD_DONE] == 0.0f;
  };

  // Preconditioned CG (Saad Alg. 9.1, preconditioner M) from dv = 0 (rd_begin).
  applyElementStiffness(model, s.bodies, s.dmInv, s.edgeStiffness, springs, membranes, state, state.v, s.corner, s.q);
  for (uint32_t i = 0; i < n; ++i) {
    const glm::vec3 ri = clm::rd_initial_residual(w(i), dt, xyz(s.q[i]));
    const glm::vec3 zi = clm::rd_precondition(w(i), ri);
    s.r[i] = glm::vec4(ri, 0.0f);
    s.p[i] = glm::vec4(zi, 0.0f);
    s.dv[i] = glm::vec4(0.0f);
    s.terms[i] = clm::rd_dot(ri, zi);
  }
  bool running = update(RD_SCALARS_BEGIN);
  for (uint32_t k = 0; k < maxIterations && running; ++k) {
    applyElementStiffness(model, s.bodies, s.dmInv, s.edgeStiffness, springs, membranes, state, s.p, s.corner,
                          s.q);  // rd_product
    for (uint32_t i = 0; i < n; ++i) {
      const glm::vec3 qi = clm::rd_system_row(model.mass[i], w(i), dt, xyz(s.p[i]), xyz(s.q[i]));
      s.q[i] = glm::vec4(qi, 0.0f);
      s.terms[i] = clm::rd_dot(xyz(s.p[i]), qi);
    }
    if (!update(RD_SCALARS_ALPHA)) break;
    const float alpha = scalars[RD_ALPHA];
    for (uint32_t i = 0; i < n; ++i) {  // rd_update
      s.dv[i] += alpha * s.p[i];
      s.r[i] = s.r[i] - alpha * s.q[i];
      s.terms[i] = clm::rd_dot(xyz(s.r[i]), clm::rd_precondition(w(i), xyz(s.r[i])));
    }
    running = update(RD_SCALARS_BETA);
    if (!running) break;
    const float beta = scalars[RD_BETA];
    for (uint32_t i = 0; i < n; ++i)  // rd_direction
      s.p[i] = glm::vec4(clm::rd_precondition(w(i), xyz(s.r[i])), 0.0f) + beta * s.p[i];
  }
  for (uint32_t i = 0; i < n; ++i) state.v[i] = glm::vec4(xyz(state.v[i]) + xyz(s.dv[i]), 0.0f);  // rd_finish
  report.iterations = int(scalars[RD_ITERATIONS]);
  report.relativeResidual =
      scalars[RD_RZ0] > 0.0f ? std::sqrt(std::max(scalars[RD_RZ], 0.0f) / scalars[RD_RZ0]) : 0.0f;
  return report;
}

}  // namespace tetlab
