// Body-body contacts of PBD/XPBD (core/sim/body_contacts.h): every row is the
// hard inequality C >= 0 with friction, math in
// shaders/cl/body_contact_pb_math.clh. Rows change every substep, so there is
// no colouring to run them Gauss-Seidel in parallel; the pass is a Jacobi
// gather that the OpenCL kernels (shaders/cl/body_contact_pb.clh) compute
// exactly the same way:
//
//   rows    per slot s:   r_s, W_s from x at the start of the pass      (W_s = 0: not acting)
//   shares  per vertex v: t_v = w_v S_v,  S_v = sum_{acting items} |coeff|
//   apply   per vertex v: x_v += w_v sum_items coeff relax_s r_s      (in item order)
//
// relax_s (one factor per row, so a row never creates momentum) bounds the
// Jacobi iteration so it cannot overshoot; its derivation is in the .clh.
#include <algorithm>
#include <cmath>

#include "core/cpu/constraints_projection.h"

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/body_contact_pb_math.clh"

namespace tetlab {
namespace {

bool usable(const BodyContacts& c, size_t vertexCount) {
  return c.active > 0 && c.vertexCount.size() == vertexCount &&
         c.vertexItems.size() == vertexCount * kMaxContactsPerVertex && c.normal.size() == c.ids.size() &&
         c.weights.size() == c.ids.size();
}

}  // namespace

void projectBodyContacts(ProjectionContext& ctx) {
  const BodyContacts& c = ctx.state->bodyContacts;
  std::vector<glm::vec4>& x = ctx.state->x;
  const std::vector<glm::vec4>& xPrev = ctx.state->xPrev;
  if (!usable(c, x.size())) return;
  std::vector<glm::vec4>& row = ctx.bodyContactRow;
  std::vector<float>& share = ctx.bodyContactShare;
  row.resize(c.ids.size());
  share.resize(x.size());

  for (size_t s = 0; s < c.ids.size(); ++s) {
    const glm::uvec4 id = c.ids[s];
    if (id.x == kNoContact) {
      row[s] = glm::vec4(0.0f);
      continue;
    }
    const glm::vec4 p = x[id.x], a = x[id.y], b = x[id.z], q = x[id.w];
    row[s] = clm::pb_body_contact_row(
        glm::vec3(p), glm::vec3(a), glm::vec3(b), glm::vec3(q), glm::vec3(p) - glm::vec3(xPrev[id.x]),
        glm::vec3(a) - glm::vec3(xPrev[id.y]), glm::vec3(b) - glm::vec3(xPrev[id.z]),
        glm::vec3(q) - glm::vec3(xPrev[id.w]), p.w, a.w, b.w, q.w, glm::vec3(c.normal[s]), glm::vec3(c.weights[s]),
        c.normal[s].w, c.weights[s].w);
  }

  for (size_t v = 0; v < x.size(); ++v) {
    float S = 0.0f;
    const uint32_t* items = &c.vertexItems[v * kMaxContactsPerVertex];
    for (uint32_t j = 0; j < c.vertexCount[v]; ++j) {
      const uint32_t s = items[j] >> 2u, role = items[j] & 3u;
      if (row[s].w > 0.0f) S += std::fabs(clm::body_contact_coeff(role, glm::vec3(c.weights[s])));
    }
    share[v] = x[v].w * S;
  }

  // Each vertex reads only row vectors, shares and its own x, so writing x in
  // place here is the same as the device's separate apply launch.
  for (size_t v = 0; v < x.size(); ++v) {
    if (!(share[v] > 0.0f)) continue;
    glm::vec3 d(0.0f);
    const uint32_t* items = &c.vertexItems[v * kMaxContactsPerVertex];
    for (uint32_t j = 0; j < c.vertexCount[v]; ++j) {
      const uint32_t s = items[j] >> 2u, role = items[j] & 3u;
      const glm::vec4 r = row[s];
      if (!(r.w > 0.0f)) continue;
      const glm::vec3 w(c.weights[s]);
      const glm::uvec4 id = c.ids[s];
      const float relax =
          clm::pb_body_contact_relaxation(r.w, share[id.x], share[id.y], share[id.z], share[id.w], w);
      d += (clm::body_contact_coeff(role, w) * relax) * glm::vec3(r);
    }
    x[v] += glm::vec4(x[v].w * d, 0.0f);
  }
}

float bodyContactViolation(const ProjectionContext& ctx) {
  const BodyContacts& c = ctx.state->bodyContacts;
  const std::vector<glm::vec4>& x = ctx.state->x;
  if (!usable(c, x.size())) return 0.0f;
  float worst = 0.0f;
  for (size_t s = 0; s < c.ids.size(); ++s) {
    const glm::uvec4 id = c.ids[s];
    if (id.x == kNoContact) continue;
    const float C = clm::body_contact_gap(glm::vec3(x[id.x]), glm::vec3(x[id.y]), glm::vec3(x[id.z]),
                                          glm::vec3(x[id.w]), glm::vec3(c.normal[s]), glm::vec3(c.weights[s]),
                                          c.normal[s].w);
    worst = std::max(worst, -C);
  }
  return worst;
}

}  // namespace tetlab
