// Body-body contacts of PBD/XPBD (core/sim/body_contacts.h): every row is the
// hard inequality C >= 0 with friction, math in
// shaders/cl/common/pb_body_contact.clh. Rows change every substep, so there is
// no colouring to run them Gauss-Seidel in parallel; the pass is a Jacobi
// gather that the OpenCL kernels (shaders/cl/body_contact_pb.clh) compute
// with the same per-slot and per-vertex functions:
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
#include "shaders/cl/common/pb_body_contact.clh"
#include "shaders/cl/common/pb_step.clh"

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

  for (size_t s = 0; s < c.ids.size(); ++s)
    row[s] = clm::pb_body_contact_slot_row(x.data(), xPrev.data(), c.ids[s], c.normal[s], c.weights[s]);
  for (size_t v = 0; v < x.size(); ++v)
    share[v] = clm::pb_body_contact_share(x[v].w, &c.vertexItems[v * kMaxContactsPerVertex], c.vertexCount[v],
                                          c.weights.data(), row.data());
  // Each vertex reads only row vectors, shares and its own x, so writing x in
  // place here is the same as the device's separate apply launch.
  for (size_t v = 0; v < x.size(); ++v) {
    if (!(share[v] > 0.0f)) continue;
    const glm::vec3 d = clm::pb_body_contact_move(&c.vertexItems[v * kMaxContactsPerVertex], c.vertexCount[v],
                                                  c.ids.data(), c.weights.data(), row.data(), share.data());
    x[v] = clm::pb_move(x[v], x[v].w * d);
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
